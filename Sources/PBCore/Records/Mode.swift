/// How much work a question gets (`--mode`, or a query record's `mode`): one closed set, checked
/// in one place, for pb-rerank, pb-pack, pb-answer and pb-verify.
public enum Mode: String, ClosedSet {
    case fast, standard, deep

    /// The `--mode` option (default standard); anything else is a usage error.
    public static func option(_ o: ParsedOptions) throws -> Mode {
        guard let text = o.value("mode") else { return .standard }
        guard let mode = Mode(rawValue: text) else { throw ToolFailure(.usage, "--mode: expected \(expected), got '\(text)'") }
        return mode
    }

    /// A record's own `mode`, else the program's; a mode outside the set is bad input.
    public static func of(record field: String?, else fallback: Mode) throws -> Mode {
        guard let field else { return fallback }
        guard let mode = Mode(rawValue: field) else { throw ToolFailure(.badInput, "mode: expected \(expected), got '\(field)'") }
        return mode
    }
}
