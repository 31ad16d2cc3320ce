import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// PB_HOME holds a person's documents, tasks, messages and answers, so it is theirs alone: every
/// program creates files 0600 and folders 0700 whatever the umask (as ssh, gpg and pass do), and a
/// writer that finds an existing PB_HOME open to others says so, once per run.
public enum PrivateHome {
    /// The mode bits masked from everything a program creates: group and others get nothing.
    public static let umaskBits: mode_t = 0o077

    /// Sets the process's umask; called first thing by every program (`Tool.main`).
    public static func restrictCreation() {
        umask(umaskBits)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var warned = false

    /// The warning for a PB_HOME that group or others can enter or read, or nil when it is private
    /// (or does not exist yet: it will be created 0700).
    public static func problem(_ home: URL) -> String? {
        var st = stat()
        guard stat(home.path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & 0o077 != 0 else { return nil }
        let mode = String(st.st_mode & 0o777, radix: 8)
        return "\(home.path) (PB_HOME) is open to others (mode \(mode)): what it holds can be read by other accounts; "
            + "make it private with 'chmod 700 \(home.path)'"
    }

    /// Warns once per process about an open PB_HOME (writers call this when they open a store).
    public static func warnIfOpen(_ home: URL) {
        guard let message = problem(home) else { return }
        lock.lock()
        let first = !warned
        warned = true
        lock.unlock()
        if first { Diagnostics.shared.warning(message) }
    }
}
