import CSQLite
import Foundation
import PBCore

/// One SQLite connection. Owns its handle; every return code is checked and becomes a
/// `DatabaseError`. Raw C calls stay in this file and `Statement.swift`.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: Statement] = [:]

    /// `immutable`: read the file as it stands, taking no locks and making no -shm (for a file
    /// in a folder this user cannot write); only with `readOnly`.
    public init(path: String, readOnly: Bool = false, immutable: Bool = false) throws {
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var name = path
        if readOnly && immutable {
            flags |= SQLITE_OPEN_URI
            let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))) ?? path
            name = "file:\(escaped)?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(code: rc, message: "\(path): \(message)", sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
    }

    /// A read-only connection that also works in a folder this user cannot write: a WAL file
    /// there cannot get its -shm, so SQLite refuses to read (READONLY or CANTOPEN) and the file is
    /// read as it stands instead (immutable; nobody can be writing into that folder either).
    public static func reader(path: String) throws -> Database {
        let db = try Database(path: path, readOnly: true)
        do {
            _ = try db.scalarInt("PRAGMA user_version")
            return db
        } catch let e as DatabaseError where [8, 14].contains(e.code & 0xFF) /* SQLITE_READONLY, SQLITE_CANTOPEN */ {
            return try Database(path: path, readOnly: true, immutable: true)
        }
    }

    /// Switches the file to write-ahead logging (kept by the file: set once). Switching needs the
    /// file to itself, and SQLite answers "locked" at once rather than wait when another first
    /// run holds it, so this retries for up to the five seconds a busy write waits.
    public func useWriteAheadLog() throws {
        var attempts = 0
        while (try scalarText("PRAGMA journal_mode"))?.lowercased() != "wal" {
            do {
                try execute("PRAGMA journal_mode=WAL")
                return
            } catch let e as DatabaseError where e.code & 0xFF == 5 /* SQLITE_BUSY */ && attempts < 500 {
                attempts += 1
                usleep(10_000)
            }
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Tries to truncate the write-ahead log, waiting at most `milliseconds` for readers (not the
    /// five seconds a write waits); whether it did.
    public func truncateLog(waiting milliseconds: Int32) -> Bool {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, 5000) }
        return (try? scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")) == 0
    }

    /// Deleted rows are overwritten with zeros, in the table and in freed pages, rather than left
    /// in the file: set on every connection that deletes a person's text.
    public func zeroDeletedContent() throws {
        try execute("PRAGMA secure_delete=ON")
    }

    /// Makes what was deleted unrecoverable from the files: the FTS5 tables' segments are merged
    /// (a deleted row's terms otherwise stay in the old segments until a merge happens to reach
    /// them), then the write-ahead log is checkpointed and truncated, so no frame keeps an old
    /// page. With secure_delete on, the pages freed on the way are zeroed. A reader holding an old
    /// snapshot (for longer than the busy timeout) keeps the log from being truncated: false then,
    /// and the caller says so and tries again on its next run.
    @discardableResult
    public func eraseDeleted(ftsTables: [String]) throws -> Bool {
        for table in ftsTables {
            try execute("INSERT INTO \(table)(\(table)) VALUES('optimize')")
        }
        // The checkpoint's first column is 1 when it could not finish.
        return (try? scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")) == 0
    }

    /// Runs one or more statements without results.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw DatabaseError(code: rc, message: message, sql: sql)
        }
    }

    /// A prepared statement, cached by its SQL text for reuse across calls.
    public func prepare(_ sql: String) throws -> Statement {
        if let s = statements[sql] {
            s.reset()
            return s
        }
        let s = try Statement(database: self, sql: sql)
        statements[sql] = s
        return s
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in one read transaction: every statement in it sees the same snapshot.
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }
    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func check(_ rc: Int32, _ sql: String? = nil) throws {
        guard rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW else {
            throw DatabaseError(code: rc, message: lastMessage, sql: sql)
        }
    }

    /// Convenience: the first column of the first row, as an integer.
    /// The statement is reset before returning: a cached statement left on a row would hold its
    /// read transaction open (blocking WAL changes and hiding later writes from a backup).
    public func scalarInt(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int64? {
        let s = try prepare(sql)
        defer { s.reset() }
        try s.bind(bindings)
        return try s.step() ? s.int(0) : nil
    }

    public func scalarText(_ sql: String, _ bindings: [SQLValue] = []) throws -> String? {
        let s = try prepare(sql)
        defer { s.reset() }
        try s.bind(bindings)
        return try s.step() ? s.text(0) : nil
    }

    /// Runs a statement with bindings and no results.
    public func run(_ sql: String, _ bindings: [SQLValue] = []) throws {
        let s = try prepare(sql)
        try s.bind(bindings)
        while try s.step() {}
    }
}
