import Foundation

/// Runs a per-line body over the inputs (files named as operands, or standard input), with the
/// bad-input policy of every filter: stop at the first bad line with status 65 naming it, or with
/// `--keep-going` write an `error` record in its place, go on, and still end with status 65.
public final class RecordLoop {
    public let keepGoing: Bool
    public private(set) var badLines = 0
    private let writer: NDJSONWriter

    public init(keepGoing: Bool, writer: NDJSONWriter = .standardOutput) {
        self.keepGoing = keepGoing
        self.writer = writer
    }

    /// Readers for the operands (`-` or none means standard input); a missing file is status 66.
    /// `maxLineBytes`: lines longer than this are bad input, read past without being kept.
    public static func readers(for operands: [String], maxLineBytes: Int = .max) throws -> [NDJSONReader] {
        let readers = operands.isEmpty ? [NDJSONReader.standardInput()] : try operands.map { try NDJSONReader(path: $0) }
        for r in readers { r.maxLineBytes = maxLineBytes }
        return readers
    }

    /// The message for a line past a program's limit.
    public static func overLengthMessage(_ length: Int, limit: Int) -> String {
        "the line is \(length) bytes; \(Diagnostics.shared.program) reads lines of at most \(limit) bytes (split the text)"
    }

    /// Calls `body` for each line. Errors that mean bad input become diagnostics (or error records);
    /// any other error ends the loop and is rethrown.
    public func run(_ readers: [NDJSONReader], _ body: (InputLine) throws -> Void) throws -> ExitCode {
        for reader in readers {
            for line in reader {
                do {
                    if let length = line.overLength {
                        throw ToolFailure(.badInput, Self.overLengthMessage(length, limit: reader.maxLineBytes))
                    }
                    try body(line)
                } catch {
                    let failure = Tool.failure(for: error)
                    guard failure.code == .badInput else { throw failure.located(at: line) }
                    try report(failure.message, at: line)
                }
            }
            if let io = reader.ioError { throw ToolFailure(.ioError, io) }
        }
        return badLines > 0 ? .badInput : .success
    }

    /// A bad line: fatal without --keep-going; otherwise an error record and a diagnostic.
    public func report(_ message: String, at line: InputLine, path: String? = nil) throws {
        badLines += 1
        guard keepGoing else { throw ToolFailure(.badInput, message).located(at: line) }
        Diagnostics.shared.error(message, at: line)
        let input = line.text
        try writer.write(ErrorRecord(tool: Diagnostics.shared.program, source: line.source, line: line.number,
                                     message: message, input: input.count > 4096 ? String(input.prefix(4096)) + "…" : input, path: path))
    }
}

extension ToolFailure {
    /// The same failure with its message prefixed by `source:line:`, once.
    public func located(at line: InputLine) -> ToolFailure {
        let prefix = "\(line.source):\(line.number): "
        return message.hasPrefix(prefix) ? self : ToolFailure(code, prefix + message)
    }
}
