import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Messages on standard error, always prefixed by the program name, and optionally by where in
/// the input the problem is: `pb-index: <stdin>:12: missing field 'text'`.
public final class Diagnostics: @unchecked Sendable {
    public static let shared = Diagnostics()

    private let lock = NSLock()
    public var program = "pocketbrains"
    private var progressShown = false

    public var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// `PB_PROGRESS=0` turns progress lines off: a script that runs several stages on one terminal
    /// (pb-ingest, pb-ask) leaves one of them to show progress, so lines do not overwrite each other.
    public let progressWanted = !["0", "off", "no"].contains(ProcessInfo.processInfo.environment["PB_PROGRESS"] ?? "")

    public func error(_ message: String, at line: InputLine? = nil) {
        emit(line.map { "\($0.source):\($0.number): \(message)" } ?? message)
    }

    public func warning(_ message: String) {
        emit("warning: \(message)")
    }

    public func note(_ message: String) {
        emit(message)
    }

    /// A machine-readable line (a JSON summary) on standard error, without the program prefix.
    public func summary(_ json: String) {
        endProgress()
        lock.lock(); defer { lock.unlock() }
        raw(json + "\n")
    }

    /// Progress, only when standard error is a terminal: one line rewritten in place.
    public func progress(_ message: String) {
        guard progressWanted, stderrIsTerminal else { return }
        lock.lock(); defer { lock.unlock() }
        progressShown = true
        raw("\r\u{1B}[K\(program): \(message)")
    }

    /// Clears the progress line before ordinary output.
    public func endProgress() {
        lock.lock(); defer { lock.unlock() }
        if progressShown { raw("\r\u{1B}[K"); progressShown = false }
    }

    private func emit(_ text: String) {
        endProgress()
        lock.lock(); defer { lock.unlock() }
        // Messages name files and quote input: neither may drive the terminal.
        raw("\(program): \(TerminalText.visible(text))\n")
    }

    private func raw(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(2, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
