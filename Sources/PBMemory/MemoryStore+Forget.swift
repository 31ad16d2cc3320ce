import Foundation
import PBCore
import PBSQLite
import PBText

extension MemoryStore {
    /// A message some of whose words were forgotten keeps a hash of what is left, marked so.
    static let cutPrefix = "cut-"

    /// Whether a stored hash is a cut message's: the message as first sent is already remembered.
    public static func wasCut(_ hash: String) -> Bool { hash.hasPrefix(cutPrefix) }

    /// The id the next item gets: past every id ever given, so an "i-57" cited before a forget
    /// or an undo never names another item afterwards (SQLite would give a deleted largest id again).
    func nextItemID() throws -> Int64 {
        let last = try db.scalarInt("SELECT max(id) FROM items") ?? 0
        let retired = Int64(try db.scalarText("SELECT value FROM meta WHERE key = 'items_retired'") ?? "") ?? 0
        return max(last, retired) + 1
    }

    /// Before items are deleted: their ids are not to be given again.
    func retireItemIDs() throws {
        guard let last = try db.scalarInt("SELECT max(id) FROM items") else { return }
        let retired = Int64(try db.scalarText("SELECT value FROM meta WHERE key = 'items_retired'") ?? "") ?? 0
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('items_retired', ?)", [.text(String(max(last, retired)))])
    }

    /// A message id as the forgotten table keeps it: a digest under the memory's salt.
    private func forgottenDigest(_ id: String) throws -> String {
        let salt = try db.scalarText("SELECT value FROM meta WHERE key = 'forgotten_salt'") ?? ""
        return SHA256.hex(salt + "\u{1F}" + id)
    }

    /// Whether a message of this id was forgotten on request: sent again (a sync, a re-run of the
    /// same file), it is not remembered again. An id made from a message's content ("m-...") is
    /// not kept: a digest of it would let the forgotten words be confirmed by trying them.
    public func wasForgotten(messageID id: String) throws -> Bool {
        try db.scalarInt("SELECT 1 FROM forgotten_messages WHERE digest = ?", [.text(try forgottenDigest(id))]) != nil
    }

    /// Before messages are deleted on request: the ids their senders gave them are kept (as
    /// digests), so the same messages sent again are not remembered again. An id made from the
    /// content is not kept.
    func keepForgotten(where condition: String, _ values: [SQLValue]) throws {
        var ids: [String] = []
        let s = try db.prepare("SELECT id, hash FROM messages WHERE \(condition)")
        try s.bind(values)
        while try s.step() {
            if !Self.isContentID(s.text(0), hash: s.text(1)) { ids.append(s.text(0)) }
        }
        for id in ids {
            try db.run("INSERT OR IGNORE INTO forgotten_messages(digest, at) VALUES (?, ?)",
                       [.text(try forgottenDigest(id)), .double(Date().timeIntervalSince1970)])
        }
    }

    /// Whether `id` was made from a message's content (by its hash), not given by its sender; a
    /// cut message named so was renamed from what is left ("cut-" and that hash).
    static func isContentID(_ id: String, hash: String) -> Bool {
        id == "m-" + hash.prefix(12) || wasCut(hash) && id == "m-" + hash.dropFirst(cutPrefix.count).prefix(12)
    }

    /// After items were deleted: their words leave the file. When a reader keeps the write-ahead
    /// log from being truncated, the memory says so and the next writer to open it tries again.
    /// Returns whether the words are gone from every file.
    @discardableResult
    func eraseForgotten() throws -> Bool {
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('erase_pending', '1')")
        if try db.eraseDeleted(ftsTables: ["items_fts", "messages_fts"]) {
            try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('erase_pending', '0')")
            _ = try db.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
            return true
        }
        Diagnostics.shared.warning("\(path)-wal: a program reading this memory keeps the forgotten words' old pages in the write-ahead log; "
                                   + "they are cleared when it ends and pb-remember next opens the memory")
        return false
    }

    /// An item as forgetting finds and reports it.
    public struct ForgettableItem: Sendable {
        public var id: Int64
        public var messageSeq: Int64
        public var message: String
        public var text: String
        /// When its message was said, as given.
        public var said: String
        public var supersededBy: Int64?
        public var type: String
        /// Its numbers and codes ("5190"), which a reply may state alone.
        public var values: [String]
    }

    private static let forgettableColumns = "i.id AS item, i.message AS seq, m.id AS message, i.text, m.time, i.superseded_by, i.type, i.slots"

    private func forgettable(_ sql: String, _ values: [SQLValue]) throws -> [ForgettableItem] {
        let s = try db.prepare(sql)
        try s.bind(values)
        var out: [ForgettableItem] = []
        while try s.step() {
            let values = s.text("slots").split(separator: "\u{1F}").filter { $0.hasPrefix("n:") }.map { String($0.dropFirst(2)) }
            out.append(ForgettableItem(id: s.int("item"), messageSeq: s.int("seq"), message: s.text("message"), text: s.text("text"),
                                       said: s.text("time"), supersededBy: s.optionalInt("superseded_by"), type: s.text("type"), values: values))
        }
        return out
    }

    /// Items, current or replaced, holding any of `words` (by FTS5, stemmed as the index is).
    func forgettableItems(matchingAny words: [String], limit: Int = 500) throws -> [ForgettableItem] {
        guard !words.isEmpty else { return [] }
        let match = words.prefix(16).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        return try forgettable("""
            SELECT \(Self.forgettableColumns) FROM items_fts f JOIN items i ON i.id = f.rowid JOIN messages m ON m.seq = i.message
            WHERE items_fts MATCH ? ORDER BY f.rank LIMIT ?
            """, [.text(match), .int(Int64(limit))])
    }

    /// The other items of the messages of `items` that say nothing of their own (fewer than two
    /// content words: "It's 5190 now."), which continue them.
    func ellipses(after items: [ForgettableItem]) throws -> [ForgettableItem] {
        guard !items.isEmpty else { return [] }
        let chosen = Set(items.map(\.id))
        let seqs = Set(items.map(\.messageSeq)).map(String.init).joined(separator: ",")
        return try forgettable("""
            SELECT \(Self.forgettableColumns) FROM items i JOIN messages m ON m.seq = i.message WHERE i.message IN (\(seqs)) ORDER BY i.id
            """, []).filter { !chosen.contains($0.id) && $0.type != "question" && TermAnalyzer.contentTerms($0.text).filter { !["now", "it", "that"].contains($0) }.count < 2 }
    }

    /// The items of the last message a person said (not a reply of the assistant's).
    func lastMessageItems() throws -> [ForgettableItem] {
        try forgettable("""
            SELECT \(Self.forgettableColumns) FROM items i JOIN messages m ON m.seq = i.message
            WHERE i.message = (SELECT max(seq) FROM messages WHERE role = 'user') ORDER BY i.id
            """, [])
    }

    /// `items` with every item they replaced or were replaced by, however far the chain goes.
    func supersessionClosure(of items: [ForgettableItem]) throws -> [ForgettableItem] {
        var all = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        var frontier = Array(all.keys)
        while !frontier.isEmpty {
            let ids = frontier.map(String.init).joined(separator: ",")
            frontier = []
            for item in try forgettable("""
                SELECT \(Self.forgettableColumns) FROM items i JOIN messages m ON m.seq = i.message
                WHERE i.superseded_by IN (\(ids)) OR i.id IN (SELECT superseded_by FROM items WHERE id IN (\(ids)))
                """, []) where all[item.id] == nil {
                all[item.id] = item
                frontier.append(item.id)
            }
        }
        return all.values.sorted { $0.id < $1.id }
    }

    /// Takes `ids` out of the memory in one transaction: each item, its words in the index, and
    /// its sentence from its message's text (the whole message, with the replies to it, when
    /// nothing else of it is left), and any reply of the assistant's that quotes it. Items they
    /// replaced are current again. Then the deleted pages are cleared from the file.
    func forget(items ids: [Int64]) throws -> [ForgettableItem] {
        guard !ids.isEmpty else { return [] }
        let list = ids.map(String.init).joined(separator: ",")
        var gone: [ForgettableItem] = []
        try db.execute("BEGIN IMMEDIATE")
        do {
            try retireItemIDs()
            gone = try forgettable("""
                SELECT \(Self.forgettableColumns) FROM items i JOIN messages m ON m.seq = i.message WHERE i.id IN (\(list)) ORDER BY i.id
                """, [])
            let forgotten = Set(gone.map(\.id))
            try db.run("UPDATE items SET superseded_by = NULL, superseded_reason = NULL WHERE superseded_by IN (\(list))")
            for (seq, _) in Dictionary(grouping: gone, by: \.messageSeq) {
                try cut(forgotten, fromMessage: seq)
            }
            // A reply that quoted a forgotten sentence ("This replaces what was said on ...") or
            // stated its value alone ("5190 [1]") goes too; a reply is the assistant's words, and
            // losing one that only looked alike loses nothing said.
            for item in gone {
                let quoted = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
                for needle in (quoted.count >= 12 ? [quoted] : []) + item.values.filter({ $0.filter(\.isNumber).count >= 3 }) {
                    try keepForgotten(where: "role = 'assistant' AND instr(text, ?) > 0", [.text(needle)])
                    try db.run("DELETE FROM messages WHERE role = 'assistant' AND instr(text, ?) > 0", [.text(needle)])
                }
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw ToolFailure(.ioError, "cannot change the memory \(path): \(error)")
        }
        do { try eraseForgotten() } catch {
            throw ToolFailure(.ioError, "forgot the items, but cannot clear their words from \(path): \(error)")
        }
        return gone
    }

    /// Removes the `forgotten` items of one message, and their sentences from its text; the
    /// message itself (with its replies) when no item of it is left.
    private func cut(_ forgotten: Set<Int64>, fromMessage seq: Int64) throws {
        var items: [(id: Int64, start: Int, end: Int)] = []
        let s = try db.prepare("SELECT id, start, end FROM items WHERE message = ? ORDER BY start")
        try s.bind([.int(seq)])
        while try s.step() { items.append((s.int(0), Int(s.int(1)), Int(s.int(2)))) }
        let list = forgotten.map(String.init).joined(separator: ",")
        try db.run("DELETE FROM items_fts WHERE rowid IN (SELECT id FROM items WHERE message = ? AND id IN (\(list)))", [.int(seq)])
        try db.run("DELETE FROM items WHERE message = ? AND id IN (\(list))", [.int(seq)])
        guard items.contains(where: { !forgotten.contains($0.id) }) else {
            let name = try db.scalarText("SELECT id FROM messages WHERE seq = ?", [.int(seq)]) ?? ""
            try keepForgotten(where: "seq = ?", [.int(seq)])
            try keepForgotten(where: "reply_to = ? AND role = 'assistant'", [.text(name)])
            try db.run("DELETE FROM messages_fts WHERE rowid = ?", [.int(seq)])
            try db.run("DELETE FROM messages WHERE seq = ?", [.int(seq)])
            try db.run("DELETE FROM messages WHERE reply_to = ? AND role = 'assistant'", [.text(name)])
            return
        }
        // Keep the other sentences; each kept item's bytes move back by what went before it.
        guard let text = try db.scalarText("SELECT text FROM messages WHERE seq = ?", [.int(seq)]) else { return }
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        var shift: [Int64: Int] = [:]
        var at = 0
        for item in items {
            let start = min(max(item.start, at), bytes.count), end = min(max(item.end, start), bytes.count)
            kept += bytes[at..<start]
            if forgotten.contains(item.id) {
                // The sentence and the space after it.
                var next = end
                while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A { next += 1 }
                at = next
            } else {
                shift[item.id] = start - kept.count
                kept += bytes[start..<end]
                at = end
            }
        }
        kept += bytes[min(at, bytes.count)...]
        let newText = String(decoding: kept, as: UTF8.self)
        // The message's hash, and an id made from it, were computed from the forgotten words too:
        // a short code could be found again by trying every one. Both are made anew from what is
        // left, and the hash says the message was cut, so sending the message again is not an
        // error (it is already remembered, as far as it is kept).
        let hash = Self.cutPrefix + String(SHA256.hex(newText).prefix(16))
        if let old = try db.scalarText("SELECT id FROM messages WHERE seq = ?", [.int(seq)]),
           let oldHash = try db.scalarText("SELECT hash FROM messages WHERE seq = ?", [.int(seq)]),
           Self.isContentID(old, hash: oldHash) {
            let id = "m-" + hash.dropFirst(Self.cutPrefix.count).prefix(12)
            try db.run("UPDATE messages SET id = ? WHERE seq = ?", [.text(id), .int(seq)])
            try db.run("UPDATE messages SET reply_to = ? WHERE reply_to = ?", [.text(id), .text(old)])
        }
        try db.run("UPDATE messages SET text = ?, hash = ? WHERE seq = ?", [.text(newText), .text(hash), .int(seq)])
        for (id, by) in shift where by != 0 {
            try db.run("UPDATE items SET start = start - ?, end = end - ? WHERE id = ?", [.int(Int64(by)), .int(Int64(by)), .int(id)])
        }
        if let speaker = try db.scalarText("SELECT coalesce(speaker, '') FROM messages WHERE seq = ?", [.int(seq)]) {
            try db.run("DELETE FROM messages_fts WHERE rowid = ?", [.int(seq)])
            if try db.scalarText("SELECT role FROM messages WHERE seq = ?", [.int(seq)]) == "user" {
                try db.run("INSERT INTO messages_fts(rowid, body) VALUES (?, ?)", [.int(seq), .text((speaker.isEmpty ? "" : speaker + ": ") + newText)])
            }
        }
    }
}
