import Foundation
import PBCore
import PBSQLite

/// A memory, `$PB_HOME/memory/NAME/memory.sqlite`: the messages as said, the items derived from
/// them (with their vectors, kept in the same rows so one transaction holds a message and all
/// it gave), the workstreams, and an FTS5 index over the items.
///
/// Each message is stored in one transaction, so a killed pb-remember loses nothing it
/// committed, and a re-run skips the messages already there (by id) instead of storing them twice.
public final class MemoryStore {
    public let db: Database
    public let path: String
    public let name: String
    public let dimension = 384

    static let schema = [
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE workstreams(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, given INTEGER NOT NULL);
        CREATE TABLE messages(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, time TEXT NOT NULL, epoch REAL NOT NULL,
            speaker TEXT, thread TEXT, text TEXT NOT NULL, hash TEXT NOT NULL,
            workstream INTEGER NOT NULL REFERENCES workstreams(id), workstream_score REAL NOT NULL);
        CREATE TABLE items(id INTEGER PRIMARY KEY, message INTEGER NOT NULL REFERENCES messages(seq), type TEXT NOT NULL,
            subject TEXT NOT NULL, entities TEXT NOT NULL, slots TEXT NOT NULL, text TEXT NOT NULL,
            start INTEGER NOT NULL, end INTEGER NOT NULL, said REAL NOT NULL,
            ref_phrase TEXT, ref_start REAL, ref_end REAL, workstream INTEGER NOT NULL REFERENCES workstreams(id),
            superseded_by INTEGER REFERENCES items(id), superseded_reason TEXT, vector BLOB NOT NULL);
        CREATE INDEX items_by_workstream ON items(workstream, id);
        CREATE INDEX items_by_message ON items(message);
        CREATE VIRTUAL TABLE items_fts USING fts5(body, tokenize='porter unicode61');
        """,
        // Whole messages by their words too: a turn's sentences share their context.
        """
        CREATE VIRTUAL TABLE messages_fts USING fts5(body, tokenize='porter unicode61');
        INSERT INTO messages_fts(rowid, body) SELECT seq, coalesce(speaker || ': ', '') || text FROM messages;
        """,
        // Who wrote a message (pb-thread's replies are kept but never cut into items) and what it answers.
        """
        ALTER TABLE messages ADD COLUMN role TEXT NOT NULL DEFAULT 'user';
        ALTER TABLE messages ADD COLUMN reply_to TEXT;
        CREATE INDEX messages_by_reply ON messages(reply_to) WHERE reply_to IS NOT NULL;
        """,
        // The ids of messages forgotten on request, each as a digest under the memory's own salt:
        // a message sent again under its id is not remembered again, and nothing it said is kept.
        """
        CREATE TABLE forgotten_messages(digest TEXT PRIMARY KEY, at REAL NOT NULL);
        INSERT INTO meta(key, value) VALUES ('forgotten_salt', lower(hex(randomblob(16))));
        """,
    ]

    public static func path(name: String, environment: PBEnvironment) -> String {
        environment.home.appendingPathComponent("memory").appendingPathComponent(name).appendingPathComponent("memory.sqlite").path
    }

    /// Opens the memory for writing, creating and migrating it under SQLite's write lock.
    public init(name: String, environment: PBEnvironment) throws {
        self.name = name
        path = Self.path(name: name, environment: environment)
        let folder = (path as NSString).deletingLastPathComponent
        PrivateHome.warnIfOpen(environment.home)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw ToolFailure(.ioError, "cannot create \(folder): \(error.localizedDescription)")
        }
        do {
            db = try Database(path: path)
            try db.useWriteAheadLog()
            try db.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
            try db.zeroDeletedContent()
            for (i, sql) in Self.schema.enumerated() {
                try db.transaction {
                    guard Int(try db.scalarInt("PRAGMA user_version") ?? 0) == i else { return }
                    if i == 0, (try db.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0) > 0 {
                        throw ToolFailure(.badInput, "\(path) is an SQLite database without a PocketBrains memory in it")
                    }
                    try db.execute(sql)
                    try db.execute("PRAGMA user_version = \(i + 1)")
                }
            }
            // A forget whose words a reader kept in the write-ahead log finishes here: the index
            // was already merged, so only the log is left, and a reader still there costs a
            // moment, not the five seconds a write waits.
            if try db.scalarText("SELECT value FROM meta WHERE key = 'erase_pending'") == "1", db.truncateLog(waiting: 200) {
                try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('erase_pending', '0')")
                _ = db.truncateLog(waiting: 200)
            }
        } catch let e as ToolFailure {
            throw e
        } catch {
            throw ToolFailure(.ioError, "cannot open the memory \(path): \(error)")
        }
    }

    /// Opens an existing memory for reading only; nothing is created or written.
    public init(readingOnly name: String, environment: PBEnvironment) throws {
        self.name = name
        path = Self.path(name: name, environment: environment)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ToolFailure(.cannotOpen, "no memory '\(name)' at \(path): remember messages first (pb-remember --memory \(name))")
        }
        do {
            db = try Database.reader(path: path)
            let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            if version > 0, version < Self.schema.count {
                // A reader never writes: the writer brings an older memory up to date.
                throw ToolFailure(.badInput, "\(path) was made by an older pb-remember: bring it up to date with 'pb-remember --memory \(name) </dev/null'")
            }
            guard version == Self.schema.count else {
                throw ToolFailure(.badInput, "\(path) is not a PocketBrains memory of this version (schema \(version), this program reads \(Self.schema.count))")
            }
        } catch let e as ToolFailure {
            throw e
        } catch {
            throw ToolFailure(.ioError, "cannot read the memory \(path): \(error)")
        }
    }

    /// Memory names become folder names, as library names do.
    public static func validateName(_ name: String) throws {
        do { try PBEnvironment.validateLibraryName(name) } catch {
            throw ToolFailure(.usage, "--memory: '\(name)' is not a valid memory name (letters, digits, '-', '_', '.')")
        }
    }

    // MARK: Messages

    /// The stored hash of a message id, or nil when it has not been remembered.
    public func storedHash(ofMessage id: String) throws -> String? {
        try db.scalarText("SELECT hash FROM messages WHERE id = ?", [.text(id)])
    }

    public func messageCount() throws -> Int { Int(try db.scalarInt("SELECT count(*) FROM messages") ?? 0) }
    public func itemCount() throws -> Int { Int(try db.scalarInt("SELECT count(*) FROM items") ?? 0) }

    /// The workstream named `name`, made if it does not exist.
    public func workstream(named name: String, given: Bool) throws -> Int64 {
        if let id = try db.scalarInt("SELECT id FROM workstreams WHERE name = ?", [.text(name)]) { return id }
        try db.run("INSERT INTO workstreams(name, given) VALUES (?, ?)", [.text(name), .int(given ? 1 : 0)])
        return db.lastInsertRowID
    }

    /// What a message already remembered was stored as: its workstream (with the score it was
    /// chosen by), its time, role and reply, and its items' ids.
    public func receipt(ofMessage id: String) throws -> RememberedRecord? {
        let s = try db.prepare("""
            SELECT m.seq, m.time, m.role, m.reply_to, w.name AS workstream, m.workstream_score, w.given
            FROM messages m JOIN workstreams w ON w.id = m.workstream WHERE m.id = ?
            """)
        try s.bind([.text(id)])
        guard try s.step() else { return nil }
        let seq = s.int("seq")
        let choice = WorkstreamChoice(name: s.text("workstream"), score: s.double("workstream_score"), given: s.int("given") != 0, new: false)
        var record = RememberedRecord(memory: name, message: id, time: s.text("time"), role: MessageRole(rawValue: s.text("role")) ?? .user,
                                      replyTo: s.optionalText("reply_to"), workstream: choice, items: [], again: true)
        let items = try db.prepare("SELECT id FROM items WHERE message = ? ORDER BY id")
        try items.bind([.int(seq)])
        while try items.step() { record.items.append("i-\(items.int(0))") }
        return record
    }

    /// The workstream of a message, or of the latest message when `id` is nil.
    public func workstreamOf(message id: String?) throws -> Int64? {
        if let id { return try db.scalarInt("SELECT workstream FROM messages WHERE id = ?", [.text(id)]) }
        return try db.scalarInt("SELECT workstream FROM messages ORDER BY seq DESC LIMIT 1")
    }

    public func workstreamName(_ id: Int64) throws -> String {
        try db.scalarText("SELECT name FROM workstreams WHERE id = ?", [.int(id)]) ?? "w-\(id)"
    }

    public func nextWorkstreamNumber() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM workstreams") ?? 0) + 1
    }

    /// The vectors of each workstream's most recent `perWorkstream` items.
    public func recentVectors(perWorkstream: Int) throws -> [Int64: [[Float]]] {
        let s = try db.prepare("""
            SELECT workstream, vector FROM (SELECT workstream, vector,
                row_number() OVER (PARTITION BY workstream ORDER BY id DESC) AS r FROM items) WHERE r <= ?
            """)
        try s.bind([.int(Int64(perWorkstream))])
        var out: [Int64: [[Float]]] = [:]
        while try s.step() {
            out[s.int(0), default: []].append(Self.floats(s.blob(1)))
        }
        return out
    }

    /// Live (not superseded) items that could be the earlier state of something, the latest
    /// first: their id, message id, subject words, slots, vector and speaker. Newest first, not
    /// best by BM25: FTS5 then stops at `limit` instead of scoring every match, so remembering
    /// stays as fast in a memory of 50,000 messages as in a new one (by BM25 it slowed from 48
    /// to 26 messages/s by 25,000), and an update is about a recent state far more often than
    /// an old one.
    public func supersessionCandidates(sharing terms: [String], limit: Int = 200, words: Int = 16) throws -> [StoredItem] {
        guard !terms.isEmpty else { return [] }
        let match = terms.prefix(words).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        let s = try db.prepare("""
            SELECT i.id AS item, m.id AS message, i.subject, i.slots, i.vector, m.speaker, i.type, i.workstream, i.said, i.text, m.time
            FROM items_fts f JOIN items i ON i.id = f.rowid JOIN messages m ON m.seq = i.message
            WHERE items_fts MATCH ? AND i.superseded_by IS NULL ORDER BY f.rowid DESC LIMIT ?
            """)
        try s.bind([.text(match), .int(Int64(limit))])
        return try storedItems(s)
    }

    private func storedItems(_ s: Statement) throws -> [StoredItem] {
        var out: [StoredItem] = []
        while try s.step() {
            out.append(StoredItem(id: s.int("item"), message: s.text("message"), subject: s.text("subject").split(separator: " ").map(String.init),
                                  slots: s.text("slots").split(separator: "\u{1F}").map(String.init), vector: Self.floats(s.blob("vector")),
                                  speaker: s.optionalText("speaker"), type: MemoryItemType(rawValue: s.text("type")) ?? .fact,
                                  workstream: s.int("workstream"), said: s.double("said"), text: s.text("text"), saidText: s.text("time")))
        }
        return out
    }

    /// Stores one message with its items, their supersessions and its workstream in one
    /// transaction; returns the new items' ids in order.
    public func store(_ message: PendingMessage) throws -> [Int64] {
        try db.transaction {
            try db.run("""
                INSERT INTO messages(id, time, epoch, speaker, thread, text, hash, workstream, workstream_score, role, reply_to)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(message.id), .text(message.time), .double(message.epoch), message.speaker.map(SQLValue.text) ?? .null,
                      message.thread.map(SQLValue.text) ?? .null, .text(message.text), .text(message.hash),
                      .int(message.workstream), .double(message.workstreamScore), .text(message.role.rawValue),
                      message.replyTo.map(SQLValue.text) ?? .null])
            let seq = db.lastInsertRowID
            // A reply of the assistant is never recalled as evidence: not in the words index either.
            if message.role == .user {
                try db.run("INSERT INTO messages_fts(rowid, body) VALUES (?, ?)",
                           [.int(seq), .text((message.speaker.map { $0 + ": " } ?? "") + message.text)])
            }
            var ids: [Int64] = []
            for item in message.items {
                try db.run("""
                    INSERT INTO items(id, message, type, subject, entities, slots, text, start, end, said, ref_phrase, ref_start, ref_end,
                        workstream, vector, superseded_by, superseded_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.int(try nextItemID()), .int(seq), .text(item.extracted.type.rawValue), .text(item.extracted.subject.joined(separator: " ")),
                          .text(item.extracted.entities.joined(separator: "\u{1F}")), .text(item.extracted.slots.joined(separator: "\u{1F}")),
                          .text(item.extracted.text), .int(Int64(item.extracted.range.lowerBound)), .int(Int64(item.extracted.range.upperBound)),
                          .double(message.epoch), item.extracted.time.map { .text($0.phrase) } ?? .null,
                          item.extracted.time.map { .double($0.start.timeIntervalSince1970) } ?? .null,
                          item.extracted.time.map { .double($0.end.timeIntervalSince1970) } ?? .null,
                          .int(message.workstream), .blob(Self.bytes(item.vector)),
                          item.supersededBy.map { .int($0.id) } ?? .null, item.supersededBy.map { .text($0.reason) } ?? .null])
                let id = db.lastInsertRowID
                ids.append(id)
                let body = (message.speaker.map { $0 + ": " } ?? "") + item.extracted.text
                try db.run("INSERT INTO items_fts(rowid, body) VALUES (?, ?)", [.int(id), .text(body)])
                for s in item.supersedes {
                    try db.run("UPDATE items SET superseded_by = ?, superseded_reason = ? WHERE id = ? AND superseded_by IS NULL",
                               [.int(id), .text(s.reason), .int(s.id)])
                }
            }
            return ids
        }
    }

    static func bytes(_ v: [Float]) -> [UInt8] { Embedding.littleEndianBytes(v) }

    static func floats(_ b: [UInt8]) -> [Float] {
        b.withUnsafeBytes { Embedding.floats(littleEndian: $0, count: b.count / 4) }
    }
}

/// An item already in the store, as supersession and routing see it.
public struct StoredItem: Sendable {
    public var id: Int64
    public var message: String
    public var subject: [String]
    public var slots: [String]
    public var vector: [Float]
    public var speaker: String?
    public var type: MemoryItemType
    public var workstream: Int64
    public var said: Double
    public var text: String
    public var saidText: String
}

/// A message ready to store: its fields, its items with their vectors and supersessions, and
/// the workstream chosen for it.
public struct PendingMessage {
    public var id: String
    public var time: String
    public var epoch: Double
    public var speaker: String?
    public var thread: String?
    public var text: String
    public var hash: String
    public var workstream: Int64
    public var workstreamScore: Double
    public var role: MessageRole = .user
    public var replyTo: String?
    public var items: [PendingItem]
}

public struct PendingItem {
    public var extracted: ExtractedItem
    public var vector: [Float]
    public var supersedes: [Superseded]
    /// A later-said item that replaces this one, for a message that arrived after it.
    public var supersededBy: Superseded? = nil
    /// The nearest earlier item it was compared with and did not replace, with why not.
    public var considered: Superseded? = nil
}

/// An earlier item a new one replaces: its id, message, words and when they were said, and why.
public struct Superseded {
    public var id: Int64
    public var message: String
    public var reason: String
    public var text: String
    public var said: String
}
