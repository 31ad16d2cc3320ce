/// The exit statuses of every PocketBrains program (pocketbrains(7), EXIT STATUS).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A negative verdict, only for judging programs asked for one.
    case verdict = 1
    /// Wrong options or arguments.
    case usage = 64
    /// Malformed input: a line that is not a valid record, a document that cannot be parsed.
    case badInput = 65
    /// An input file or library cannot be opened.
    case cannotOpen = 66
    /// A needed service or model is unavailable.
    case unavailable = 69
    /// An I/O or database failure.
    case ioError = 74
}

/// An error that ends a program with a given status and a one-line message.
public struct ToolFailure: Error, CustomStringConvertible {
    public var code: ExitCode
    public var message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
