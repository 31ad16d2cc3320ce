/// One option of a program: the usage text, the help and the parser all come from this list.
public struct OptionSpec: Sendable {
    public var long: String
    public var short: Character?
    /// The value's placeholder (`N`, `DIR`); nil for a flag.
    public var value: String?
    public var help: String
    /// May be given more than once (values accumulate).
    public var repeats: Bool

    public init(_ long: String, short: Character? = nil, value: String? = nil, repeats: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.repeats = repeats
    }
}

/// A program's interface: name, synopsis, options. `--help` and `--version` are always there.
public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    /// Operands after the options, as shown in the synopsis (`[FILE ...]`).
    public var operands: String
    public var options: [OptionSpec]
    public var version: String

    public init(name: String, summary: String, operands: String = "", options: [OptionSpec], version: String = PocketBrains.version) {
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options + [
            OptionSpec("help", short: "h", help: "print this help and exit"),
            OptionSpec("version", help: "print the version and exit"),
        ]
        self.version = version
    }

    public var usageLine: String {
        "usage: \(name) [options]" + (operands.isEmpty ? "" : " \(operands)")
    }

    public var helpText: String {
        var lines = ["\(name): \(summary)", "", usageLine, "", "options:"]
        let rendered = options.map { o -> (String, String) in
            var s = o.short.map { "-\($0), " } ?? "    "
            s += "--\(o.long)"
            if let v = o.value { s += " \(v)" }
            return (s, o.help)
        }
        let width = min(30, (rendered.map(\.0.count).max() ?? 0) + 2)
        for (left, help) in rendered {
            let pad = left.count < width ? String(repeating: " ", count: width - left.count) : "  "
            lines.append("  \(left)\(pad)\(help)")
        }
        lines.append("")
        lines.append("See \(name)(1) for details.")
        return lines.joined(separator: "\n") + "\n"
    }
}

public enum PocketBrains {
    public static let version = "0.1.0"
}
