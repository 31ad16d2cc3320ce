import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line of an input stream: its bytes (without the newline) and where it came from.
public struct InputLine: Sendable {
    public var data: Data
    /// The input's name for diagnostics: a path or `<stdin>`.
    public var source: String
    /// 1-based line number within `source`.
    public var number: Int
    /// Set when the line was longer than the reader's limit: its length in bytes. `data` then
    /// holds only its first bytes (up to the limit), and the rest was read past, not kept.
    public var overLength: Int?

    public init(data: Data, source: String, number: Int, overLength: Int? = nil) {
        self.data = data
        self.source = source
        self.number = number
        self.overLength = overLength
    }

    /// The line as text, for `error` records and messages (invalid UTF-8 repaired).
    public var text: String { String(decoding: data, as: UTF8.self) }
}

/// Streams lines from a file descriptor with bounded memory: one read buffer and the current line.
///
/// Blank lines are skipped (they are not records); a final line without a newline still counts;
/// a trailing carriage return is dropped so files from other systems read the same.
public final class NDJSONReader: Sequence, IteratorProtocol {
    public let source: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var eof = false
    private var lineNumber = 0
    /// The I/O error that ended the stream early, if any (checked by the caller after the loop).
    public private(set) var ioError: String?
    /// Lines longer than this are not kept whole (see `InputLine.overLength`), so a program whose
    /// work grows with a line's length can refuse one at a bounded cost in memory.
    public var maxLineBytes = Int.max
    private var skipped = 0

    public init(descriptor: Int32, source: String, ownsDescriptor: Bool = false) {
        self.fd = descriptor
        self.source = source
        self.ownsDescriptor = ownsDescriptor
    }

    /// Opens a path for reading; `-` means standard input.
    public convenience init(path: String) throws {
        if path == "-" {
            self.init(descriptor: 0, source: "<stdin>")
            return
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ToolFailure(.cannotOpen, "\(path): \(String(cString: strerror(errno)))")
        }
        self.init(descriptor: fd, source: path, ownsDescriptor: true)
    }

    public static func standardInput() -> NDJSONReader { NDJSONReader(descriptor: 0, source: "<stdin>") }

    deinit { if ownsDescriptor { close(fd) } }

    public func next() -> InputLine? {
        var pending = Data()
        skipped = 0
        while true {
            if let nl = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                keep(&pending, buffer[start..<nl])
                start = nl + 1
                lineNumber += 1
                if let line = finish(pending) { return line }
                pending.removeAll(keepingCapacity: true)
                skipped = 0
                continue
            }
            keep(&pending, buffer[start..<end])
            start = 0
            end = 0
            if eof || !fill() {
                guard !pending.isEmpty else { return nil }
                lineNumber += 1
                let line = finish(pending)
                pending.removeAll()
                if line != nil { return line }
                return nil
            }
        }
    }

    /// Whether another line can be had without waiting: a complete line is buffered, or the
    /// descriptor has data (or end of file) ready now. Lets batch stages (pb-search, pb-embed)
    /// gather what is already there without holding a record back waiting for the next one.
    public func hasMoreReady() -> Bool {
        if eof { return start < end }
        if buffer[start..<end].contains(UInt8(ascii: "\n")) { return true }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Up to `max` lines: the first waits, the rest only if ready now.
    public func nextBatch(max: Int) -> [InputLine] {
        var lines: [InputLine] = []
        while lines.count < max {
            if !lines.isEmpty, !hasMoreReady() { break }
            guard let line = next() else { break }
            lines.append(line)
        }
        return lines
    }

    /// Appends to the line up to the limit; past it, only counts.
    private func keep(_ pending: inout Data, _ bytes: ArraySlice<UInt8>) {
        let room = maxLineBytes - pending.count
        if skipped == 0, bytes.count <= room {
            pending.append(contentsOf: bytes)
        } else {
            let taken = Swift.max(0, Swift.min(room, bytes.count))
            pending.append(contentsOf: bytes.prefix(taken))
            skipped += bytes.count - taken
        }
    }

    private func finish(_ bytes: Data) -> InputLine? {
        if skipped > 0 {
            return InputLine(data: bytes, source: source, number: lineNumber, overLength: bytes.count + skipped)
        }
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        return InputLine(data: bytes, source: source, number: lineNumber)
    }

    private func fill() -> Bool {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { end = n; return true }
            if n == 0 { eof = true; return false }
            if errno == EINTR { continue }
            ioError = "\(source): read failed: \(String(cString: strerror(errno)))"
            eof = true
            return false
        }
    }
}
