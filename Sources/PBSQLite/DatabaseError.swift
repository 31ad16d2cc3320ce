import CSQLite
import PBCore

/// A failed SQLite call: the result code, SQLite's message and the statement that failed.
public struct DatabaseError: Error, CustomStringConvertible, CustomDebugStringConvertible, ExitStatusProviding {
    public var code: Int32
    public var message: String
    public var sql: String?

    public init(code: Int32, message: String, sql: String?) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// What a user reads: SQLite's message, its code, and what it most likely means. The
    /// statement is not shown (it is ours, not the user's, and says nothing they can act on);
    /// `debugDescription` has it for a developer.
    public var description: String {
        var s = "sqlite: \(message) (code \(code))"
        if let hint = Self.hint(code) { s += ": " + hint }
        return s
    }

    public var debugDescription: String {
        description + (sql.map { " in: \($0.prefix(120))" } ?? "")
    }

    // Extended I/O codes of the -shm file beside a WAL database; sqlite3.h builds them as
    // SQLITE_IOERR | (n << 8), a form Swift does not import.
    static let ioErrShmOpen = SQLITE_IOERR | (18 << 8)
    static let ioErrShmSize = SQLITE_IOERR | (19 << 8)
    static let ioErrShmMap = SQLITE_IOERR | (21 << 8)

    /// The likely cause behind the codes a user meets when the disk or the files are at fault.
    static func hint(_ code: Int32) -> String? {
        switch code {
        case SQLITE_FULL: return "the disk is full; free some space and run it again"
        case ioErrShmOpen, ioErrShmSize, ioErrShmMap:
            return "cannot allocate the shared-memory file (-shm) beside the database; is the disk full?"
        default: break
        }
        switch code & 0xFF {
        case SQLITE_BUSY: return "another process holds the database; try again when it has finished"
        case SQLITE_READONLY: return "the database or its folder is read-only"
        case SQLITE_IOERR: return "a read or write failed; is the disk full or failing?"
        case SQLITE_CORRUPT: return "the database file is damaged"
        case SQLITE_NOTADB: return "the file is not an SQLite database"
        default: return nil
        }
    }

    /// Busy, full, I/O and corruption are failures of the store, not of the input.
    public var exitCode: ExitCode {
        switch code & 0xFF {
        case SQLITE_CANTOPEN: return .cannotOpen
        default: return .ioError
        }
    }
}
