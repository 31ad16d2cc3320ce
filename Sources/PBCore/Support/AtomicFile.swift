import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole file so that a reader sees the old content or the new, never a part: the data
/// goes to a hidden file beside the target, is flushed to disk, then renamed over it. The file is
/// its owner's alone (0600), and so is a folder made for it (0700), whatever the umask.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))").path
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw ToolFailure(.ioError, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let flushed = fsync(handle.fileDescriptor) == 0
        try? handle.close()
        guard flushed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ToolFailure(.ioError, "cannot write \(path): \(reason)")
        }
    }
}
