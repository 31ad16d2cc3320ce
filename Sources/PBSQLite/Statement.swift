import CSQLite
import Foundation

/// A value to bind to a statement parameter.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement; finalized when released.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: Database

    // SQLITE_TRANSIENT: SQLite copies bound text and blobs, so Swift buffers may go away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(database.handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw DatabaseError(code: rc, message: database.lastMessage, sql: sql)
        }
        handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    public func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .int(let n): rc = sqlite3_bind_int64(handle, index, n)
            case .double(let d): rc = sqlite3_bind_double(handle, index, d)
            // By length, not to the first NUL: text holding a NUL is kept whole.
            case .text(let s):
                var s = s
                rc = s.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress, !utf8.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(utf8.count), Self.transient)
                    }
                }
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            try database.check(rc, sql)
        }
    }

    /// Advances; true while there is a row.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw DatabaseError(code: rc, message: database.lastMessage, sql: sql)
    }

    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let base = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
    public func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    // MARK: columns by name

    /// Result columns by the name the SELECT gives them (its `AS` alias, else the column's own
    /// name), built on first use. A name two columns share is left out, so asking for it fails
    /// like a name there is none of.
    private lazy var columnIndex: [String: Int32] = {
        var out: [String: Int32] = [:]
        var shared: Set<String> = []
        for i in 0..<sqlite3_column_count(handle) {
            guard let p = sqlite3_column_name(handle, i) else { continue }
            let name = String(cString: p)
            if out[name] != nil { shared.insert(name) } else { out[name] = i }
        }
        for name in shared { out[name] = nil }
        return out
    }()

    /// The index of the result column `name`. Asking for a column the statement does not have
    /// (or has twice) is a mistake in the program, never in the data, so it stops there.
    public func column(_ name: String) -> Int32 {
        guard let i = columnIndex[name] else {
            preconditionFailure("no result column '\(name)' (or more than one) in: \(sql.prefix(200))")
        }
        return i
    }

    public func int(_ name: String) -> Int64 { int(column(name)) }
    public func double(_ name: String) -> Double { double(column(name)) }
    public func blob(_ name: String) -> [UInt8] { blob(column(name)) }
    public func isNull(_ name: String) -> Bool { isNull(column(name)) }
    public func text(_ name: String) -> String { text(column(name)) }
    public func optionalInt(_ name: String) -> Int64? { optionalInt(column(name)) }
    public func optionalText(_ name: String) -> String? { optionalText(column(name)) }
    public func optionalDouble(_ name: String) -> Double? { isNull(name) ? nil : double(name) }
}
