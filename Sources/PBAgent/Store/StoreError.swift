import PBCore

/// Why the agent store cannot be used. The store file is never replaced or emptied: each message
/// says what is wrong, where the file is, and where its backup is when one was made.
public enum StoreError: Error, CustomStringConvertible, ExitStatusProviding {
    /// The folder or file cannot be opened at all.
    case cannotOpen(path: String, reason: String)
    /// The store (or its folder) cannot be written by this user; nothing is wrong with it.
    case readOnly(path: String, reason: String)
    /// Reading or writing the store failed (a full disk, an I/O error, a lock held too long):
    /// nothing is wrong with the store itself.
    case ioFailure(path: String, reason: String)
    /// The file exists but is not an SQLite database, or not a PocketBrains store.
    case notAStore(path: String, reason: String)
    /// The store was written by a newer PocketBrains.
    case tooNew(path: String, version: Int, supported: Int)
    /// A migration failed; the store is as it was and a copy is at `backup`.
    case migrationFailed(path: String, from: Int, reason: String, backup: String?)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open the agent store \(path): \(reason)"
        case let .readOnly(path, reason):
            return "cannot write the agent store \(path): it or its folder is read-only (\(reason)); reading it (pb-undo --list) still works"
        case let .ioFailure(path, reason):
            return "cannot use the agent store \(path): \(reason); nothing was changed, and the store is as it was"
        case let .notAStore(path, reason):
            return "\(path) is not a usable agent store (\(reason)); it was left as it is: move it aside to start a new store"
        case let .tooNew(path, version, supported):
            return "\(path) has schema version \(version), newer than this program (\(supported)); it was left as it is: upgrade PocketBrains"
        case let .migrationFailed(path, from, reason, backup):
            let copy = backup.map { "; a copy of the store before migrating is at \($0)" } ?? ""
            return "cannot migrate the agent store \(path) from version \(from): \(reason); the store was left at version \(from)\(copy)"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .cannotOpen, .readOnly: return .cannotOpen
        default: return .ioError
        }
    }
}
