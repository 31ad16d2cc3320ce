import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes one record per line to standard output and flushes it at once, so that the next stage
/// of a pipe sees every record as soon as it exists.
///
/// A closed pipe downstream (`| head`) is not an error: the program ends quietly with status 0,
/// because whoever closed the pipe has all it wanted.
public final class NDJSONWriter: @unchecked Sendable {
    public static let standardOutput = NDJSONWriter(descriptor: 1)

    private let fd: Int32
    private let codec = RecordCodec()
    public private(set) var count = 0

    public init(descriptor: Int32) {
        self.fd = descriptor
    }

    public func write<R: PBRecord>(_ record: R) throws {
        var line = try codec.encode(record)
        line.append(UInt8(ascii: "\n"))
        writeLine(line)
    }

    public func writeValue<T: Encodable>(_ value: T) throws {
        var line = try codec.encodeValue(value)
        line.append(UInt8(ascii: "\n"))
        writeLine(line)
    }

    /// Writes raw text as-is (a line the stage passes through unchanged, or human output).
    /// Human-readable text, with control codes made visible (`TerminalText`).
    public func writeText(_ text: String) {
        writeLine(Data(TerminalText.visible(text).utf8))
    }

    public func writeLine(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { exit(0) }
                    Diagnostics.shared.error("write failed: \(String(cString: strerror(errno)))")
                    exit(ExitCode.ioError.rawValue)
                }
                offset += n
            }
        }
        count += 1
    }
}
