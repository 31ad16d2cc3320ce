import Foundation
import PBCore
import PBSQLite

/// One journaled tool call: what it did (`summary`) and how to take it back (`inverse`).
public struct JournalEntry: Equatable, Sendable {
    public var id: Int64
    public var group: String
    public var seq: Int
    public var tool: String
    public var summary: String
    public var inverse: [InverseStep]
    public var createdAt: String
    public var undoneAt: String?

    public var entryID: String { "e-\(id)" }

    static let columns = "id, group_id, seq, tool, summary, inverse, created_at, undone_at"

    init(_ s: PBSQLite.Statement) throws {
        id = s.int("id"); group = s.text("group_id"); seq = Int(s.int("seq")); tool = s.text("tool"); summary = s.text("summary")
        do {
            inverse = try JSONDecoder().decode([InverseStep].self, from: Data(s.text("inverse").utf8))
        } catch {
            throw AgentError.conflict("journal entry e-\(id) cannot be read: \(error)")
        }
        createdAt = s.text("created_at"); undoneAt = s.optionalText("undone_at")
    }
}

/// A group as `pb-undo --list` shows it.
public struct JournalGroup: Codable, Equatable, Sendable {
    public var group: String
    public var entries: Int
    public var tools: [String]
    public var summary: String
    public var createdAt: String
    /// Every entry of the group was undone.
    public var undone: Bool
    /// How many of its entries were undone (some, with `pb-undo --entry`).
    public var undoneEntries: Int

    enum CodingKeys: String, CodingKey {
        case group, entries, tools, summary, undone
        case createdAt = "created_at", undoneEntries = "undone_entries"
    }
}

extension AgentStore {
    public func journalEntries(where condition: String, _ bindings: [SQLValue] = []) throws -> [JournalEntry] {
        let s = try db.prepare("SELECT \(JournalEntry.columns) FROM journal WHERE \(condition) ORDER BY id")
        try s.bind(bindings)
        var out: [JournalEntry] = []
        while try s.step() { out.append(try JournalEntry(s)) }
        return out
    }

    /// The most recent group that still has entries to undo.
    public func lastOpenGroup() throws -> String? {
        try scalarText("SELECT group_id FROM journal WHERE undone_at IS NULL ORDER BY id DESC LIMIT 1")
    }

    public func recentGroups(limit: Int) throws -> [JournalGroup] {
        let s = try db.prepare("""
            SELECT group_id, count(*) AS entries, group_concat(tool, ',') AS tools, group_concat(summary, '; ') AS summary,
                   min(created_at) AS created_at, sum(undone_at IS NOT NULL) AS undone
            FROM (SELECT * FROM journal ORDER BY id) GROUP BY group_id ORDER BY max(id) DESC LIMIT ?
            """)
        try s.bind([.int(Int64(limit))])
        var out: [JournalGroup] = []
        while try s.step() {
            out.append(JournalGroup(group: s.text("group_id"), entries: Int(s.int("entries")), tools: s.text("tools").split(separator: ",").map(String.init),
                                    summary: s.text("summary"), createdAt: s.text("created_at"), undone: s.int("undone") == s.int("entries"),
                                    undoneEntries: Int(s.int("undone"))))
        }
        return out
    }
}
