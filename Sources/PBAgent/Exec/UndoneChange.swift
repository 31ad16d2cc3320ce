import Foundation
import PBCore

/// What one undo took back, as the `undos` table keeps it for redo: every row the undo touched,
/// as it found it (`before`, what redo puts back) and as it left it (`after`, which must still
/// hold for a redo to go ahead), and every file's content before and hash after. The same ids
/// come back, and so do the very bytes of a draft.
struct UndoneChange: Codable, Equatable {
    struct Row: Codable, Equatable {
        var table: StoreTable
        var id: Int64
        var before: [String: JSONValue]?
        var after: [String: JSONValue]?
    }

    struct File: Codable, Equatable {
        var path: String
        /// Base64 of the content before the undo; nil when there was no file.
        var before: String?
        var afterSHA256: String?
    }

    var rows: [Row]
    var files: [File]

    /// The rows and files `steps` touch, as they are now (before the steps apply), each once,
    /// in the order the steps first touch them.
    static func before(_ steps: [InverseStep], store: AgentStore) throws -> UndoneChange {
        var rows: [Row] = []
        var files: [File] = []
        var seenRows: Set<String> = []
        var seenFiles: Set<String> = []
        for step in steps {
            if let (table, id) = step.row, seenRows.insert("\(table.rawValue):\(id)").inserted {
                rows.append(Row(table: table, id: id, before: try store.snapshot(table, id: id), after: nil))
            }
            if let path = step.filePath, seenFiles.insert(path).inserted {
                files.append(File(path: path, before: try store.fileContent(path)?.base64EncodedString(), afterSHA256: nil))
            }
        }
        return UndoneChange(rows: rows, files: files)
    }

    /// Takes how the undo left the rows and files, and writes the `undos` row, inside the undo's
    /// transaction.
    func record(group: String, entries: [Int64], store: AgentStore, stamp: String) throws {
        var done = self
        for i in done.rows.indices { done.rows[i].after = try store.snapshot(done.rows[i].table, id: done.rows[i].id) }
        for i in done.files.indices { done.files[i].afterSHA256 = try store.fileContent(done.files[i].path).map { SHA256.hex($0) } }
        func text<T: Encodable>(_ v: T) throws -> String { String(decoding: try RecordCodec().encodeValue(v), as: UTF8.self) }
        let high = try store.scalarInt("SELECT max(id) FROM journal") ?? 0
        try store.db.run("INSERT INTO undos(group_id, entries, rows, files, journal_high, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                         [.text(group), .text(try text(entries.sorted())), .text(try text(done.rows)), .text(try text(done.files)),
                          .int(high), .text(stamp)])
    }

    /// What redo would overwrite: each row and file that is no longer as the undo left it.
    func changedSince(store: AgentStore) throws -> [String] {
        var problems: [String] = []
        for r in rows {
            let now = try store.snapshot(r.table, id: r.id)
            let same: Bool
            if let after = r.after, let now { same = after.allSatisfy { now[$0.key] == $0.value } } else { same = (r.after == nil) == (now == nil) }
            if !same { problems.append("\(r.table.label(r.id)) was changed since it was undone; redoing would overwrite that change") }
        }
        for f in files {
            if try store.fileContent(f.path).map({ SHA256.hex($0) }) != f.afterSHA256 {
                problems.append("\(f.path) was changed since the undo; redoing would overwrite that change")
            }
        }
        return problems
    }

    /// Puts every row and file back as the undo found it. Foreign keys are checked at COMMIT,
    /// so the order rows come back in cannot trip them (the state they make was valid).
    func reapply(store: AgentStore) throws {
        try store.db.execute("PRAGMA defer_foreign_keys = ON")
        for r in rows.reversed() {
            if let row = r.before {
                try store.applyInverse(try store.exists(r.table, id: r.id) ? .restore(table: r.table, id: r.id, row: row) : .insert(table: r.table, row: row))
            } else {
                try store.applyInverse(.delete(table: r.table, id: r.id))
            }
        }
        for f in files { store.scheduleFile(f.path, f.before.flatMap { Data(base64Encoded: $0) }) }
    }
}

/// One row of the `undos` table.
struct UndoneRecord {
    var id: Int64
    var group: String
    var entries: [Int64]
    var change: UndoneChange
    var journalHigh: Int64
}

extension AgentStore {
    /// The last undo not redone yet, the top of the redo stack.
    func lastUndone() throws -> UndoneRecord? {
        let s = try db.prepare("SELECT id, group_id, entries, rows, files, journal_high FROM undos WHERE redone_by IS NULL ORDER BY id DESC LIMIT 1")
        defer { s.reset() }
        guard try s.step() else { return nil }
        let decoder = JSONDecoder()
        do {
            let entries = try decoder.decode([Int64].self, from: Data(s.text("entries").utf8))
            let rows = try decoder.decode([UndoneChange.Row].self, from: Data(s.text("rows").utf8))
            let files = try decoder.decode([UndoneChange.File].self, from: Data(s.text("files").utf8))
            return UndoneRecord(id: s.int("id"), group: s.text("group_id"), entries: entries, change: UndoneChange(rows: rows, files: files),
                                journalHigh: s.int("journal_high"))
        } catch {
            throw AgentError.conflict("undo u-\(s.int("id")) cannot be read: \(error)")
        }
    }

    /// The first group journaled after `journalHigh` by a new turn (not by a redo).
    func newTurn(after journalHigh: Int64) throws -> String? {
        try scalarText("""
            SELECT group_id FROM journal WHERE id > ? AND group_id NOT IN (SELECT redone_by FROM undos WHERE redone_by IS NOT NULL)
            ORDER BY id LIMIT 1
            """, [.int(journalHigh)])
    }
}
