import Foundation
import PBCore

/// The background of a conversation's next turn (pb-recall --context): which workstream the
/// question belongs to, a short summary of it, and its latest messages. A model is sent
/// "summary + top-K nodes + recent messages" instead of the whole history; the top items are
/// the hits, this is the rest.
///
/// The summary is written from the store, not by a model: the workstream's span, its latest
/// current items (one per message, newest first) and how many were replaced, so it is never
/// stale and never says what was not said.
public struct WorkstreamBackground {
    public struct Settings: Sendable {
        /// Messages shown, the latest before the question.
        public var recent = 6
        /// Current items the summary names.
        public var summaryItems = 6
        /// Longest item text in the summary, in characters (longer ones end in "...").
        public var itemCharacters = 160
        /// Below this cosine to every workstream's recent items, a question has no background.
        public var nearestAtLeast = 0.30
        public init() {}
    }

    public let store: MemoryStore
    public var settings: Settings

    public init(store: MemoryStore, settings: Settings = Settings()) {
        self.store = store
        self.settings = settings
    }

    /// The background for a query: its thread's, its message's, or the nearest workstream's by
    /// meaning (the rule pb-remember routes by); nil when none is near or the memory is empty.
    public func background(for q: QueryRecord, vector: [Float]?) throws -> Background? {
        var chosen: (id: Int64, by: String, score: Double?)?
        if let thread = q.thread {
            if let id = try store.db.scalarInt("SELECT id FROM workstreams WHERE name = ?", [.text(thread)]) { chosen = (id, "thread", nil) }
        } else if let message = q.message, let id = try store.workstreamOf(message: message) {
            chosen = (id, "message", nil)
        } else if let vector {
            if let best = Rememberer.nearest(vector, among: try store.recentVectors(perWorkstream: Rememberer.Settings().recentItems)),
               best.score >= settings.nearestAtLeast { chosen = (best.id, "meaning", Rememberer.rounded(best.score)) }
        }
        guard let chosen else { return nil }
        let name = try store.workstreamName(chosen.id)
        let before = try q.message.flatMap { try store.db.scalarInt("SELECT seq FROM messages WHERE id = ?", [.text($0)]) }
        return Background(workstream: name, chosenBy: chosen.by, score: chosen.score,
                          summary: try summary(of: chosen.id, name: name, before: before),
                          recent: try recent(in: chosen.id, before: before))
    }

    /// "Workstream house: 9 messages from 2 May 2023 to 9 May 2023; 2 items replaced by later
    /// ones." then "Latest: decision (9 May 2023): ..." lines.
    func summary(of workstream: Int64, name: String, before: Int64?) throws -> String {
        let limit = before ?? Int64.max
        let s = try store.db.prepare("""
            SELECT count(*), min(time), max(time) FROM messages WHERE workstream = ? AND seq < ? AND role = 'user'
            """)
        try s.bind([.int(workstream), .int(limit)])
        guard try s.step() else { return "Workstream \(name)." }
        let count = s.int(0)
        var head = "Workstream \(name): \(count) message\(count == 1 ? "" : "s")"
        if count > 0 {
            let first = Self.day(s.text(1)), last = Self.day(s.text(2))
            head += first == last ? " on \(first)" : " from \(first) to \(last)"
        }
        let replaced = try store.db.scalarInt("""
            SELECT count(*) FROM items i JOIN messages m ON m.seq = i.message
            WHERE i.workstream = ? AND i.superseded_by IS NOT NULL AND m.seq < ?
            """, [.int(workstream), .int(limit)]) ?? 0
        if replaced > 0 { head += "; \(replaced) item\(replaced == 1 ? "" : "s") replaced by later ones" }
        var lines = [head + "."]
        // The latest current items, one per message, questions last: what stands now.
        let items = try store.db.prepare("""
            SELECT i.type, i.text, m.time, m.seq FROM items i JOIN messages m ON m.seq = i.message
            WHERE i.workstream = ? AND i.superseded_by IS NULL AND m.seq < ?
            ORDER BY (i.type = 'question'), m.seq DESC, i.id LIMIT 200
            """)
        try items.bind([.int(workstream), .int(limit)])
        var seen: Set<Int64> = []
        while try items.step(), lines.count <= settings.summaryItems {
            guard seen.insert(items.int(3)).inserted else { continue }
            lines.append("Latest \(items.text(0)) (\(Self.day(items.text(2)))): \(Self.clipped(items.text(1), to: settings.itemCharacters))")
        }
        return lines.joined(separator: "\n")
    }

    /// The workstream's latest messages before `before`, oldest first.
    func recent(in workstream: Int64, before: Int64?) throws -> [RecentMessage] {
        let s = try store.db.prepare("""
            SELECT id, time, speaker, role, text FROM messages WHERE workstream = ? AND seq < ? ORDER BY seq DESC LIMIT ?
            """)
        try s.bind([.int(workstream), .int(before ?? Int64.max), .int(Int64(settings.recent))])
        var out: [RecentMessage] = []
        while try s.step() {
            out.append(RecentMessage(id: s.text("id"), time: s.text("time"), speaker: s.optionalText("speaker"),
                                     role: MessageRole(rawValue: s.text("role")) ?? .user, text: s.text("text")))
        }
        return out.reversed()
    }

    /// "9 May 2023" from an ISO time's date as written (the day where it was said).
    static func day(_ time: String) -> String {
        let parts = time.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return String(time.prefix(10)) }
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(parts[2]) \(months[parts[1] - 1]) \(parts[0])"
    }

    static func clipped(_ text: String, to n: Int) -> String {
        let t = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard t.count > n else { return t }
        return String(t.prefix(n)).trimmingCharacters(in: .whitespaces) + "..."
    }
}
