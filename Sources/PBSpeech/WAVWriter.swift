import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PBCore

/// A recording kept as it is made (`pb-listen --record --save`): a 16 kHz mono 16-bit WAV file,
/// made new before anything is recorded (never over a file, private to its owner) and written as
/// the sound comes, so a recording is not lost to a file that cannot be made, nor held twice.
/// Its sizes are filled in at the end.
final class WAVWriter {
    let path: String
    private let fd: Int32
    private var written = 0
    /// Why writing stopped, once it has.
    private(set) var failed: String?
    static let headerSize = 44

    /// 64 when `path` is there already; 74 when it cannot be made.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw ToolFailure(.usage, "--save: \(path) exists; give a new name (a recording never replaces a file)") }
            throw ToolFailure(.ioError, "--save: \(path): \(String(cString: strerror(errno)).lowercased())")
        }
        if let why = write(Self.header(dataBytes: 0)) {
            close(fd)
            unlink(path)
            throw ToolFailure(.ioError, "--save: \(path): \(why)")
        }
    }

    static func header(dataBytes: Int) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func u16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let rate = AudioInput.sampleRate
        return Array("RIFF".utf8) + u32(36 + dataBytes) + Array("WAVEfmt ".utf8) + u32(16) + u16(1) + u16(1)
            + u32(rate) + u32(rate * 2) + u16(2) + u16(16) + Array("data".utf8) + u32(dataBytes)
    }

    /// Writes all of `bytes`; the reason when it cannot.
    private func write<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return String(cString: strerror(errno)).lowercased() }
            offset += n
        }
        return nil
    }

    /// More of the recording; after a failure nothing more is written (the transcript still is).
    func append(_ bytes: ArraySlice<UInt8>) {
        guard failed == nil else { return }
        if let why = write(bytes) { failed = why } else { written += bytes.count }
    }

    /// The file cut to the first `samples` samples (what was transcribed: the recorder's last
    /// read may go past where the recording stopped), its sizes filled in, flushed to disk and
    /// closed; why it is not whole, or nil.
    func finish(samples: Int) -> String? {
        defer { close(fd) }
        let whole = min(written & ~1, samples * 2)
        if whole != written { _ = ftruncate(fd, off_t(Self.headerSize + whole)) }
        guard lseek(fd, 0, SEEK_SET) == 0, write(Self.header(dataBytes: whole)) == nil, fsync(fd) == 0 else {
            return failed ?? String(cString: strerror(errno)).lowercased()
        }
        return failed
    }

    /// Closed and removed: nothing was recorded.
    func abandon() {
        close(fd)
        unlink(path)
    }
}
