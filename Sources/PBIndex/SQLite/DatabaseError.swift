import CSQLite
import PBCore

/// A failed SQLite call: the result code, SQLite's message and the statement that failed.
public struct DatabaseError: Error, CustomStringConvertible, ExitStatusProviding {
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        var s = "sqlite: \(message) (code \(code))"
        if let sql { s += " in: \(sql.prefix(120))" }
        return s
    }

    /// Busy, full, I/O and corruption are failures of the store, not of the input.
    public var exitCode: ExitCode {
        switch code & 0xFF {
        case SQLITE_CANTOPEN: return .cannotOpen
        default: return .ioError
        }
    }
}
