/// One option of a program: the usage text, the help and the parser all come from this list.
public struct OptionSpec: Sendable {
    public var long: String
    public var short: Character?
    /// The value's placeholder (`N`, `DIR`); nil for a flag.
    public var value: String?
    public var help: String
    /// May be given more than once (values accumulate).
    public var repeats: Bool

    /// An option the shared vocabulary names (`--keep-going`, `--library`, ...) takes its short
    /// flag and value placeholder from `SharedOptions`, so that it is spelled the same in every
    /// program; a letter of that table given to another option is a programming error.
    public init(_ long: String, short: Character? = nil, value: String? = nil, repeats: Bool = false, help: String) {
        let shared = SharedOptions.byName[long]
        if let short, let owner = SharedOptions.byShort[short] {
            precondition(owner.long == long, "-\(short) means --\(owner.long) in every program; --\(long) cannot take it")
        }
        self.long = long
        self.short = short ?? shared?.short
        self.value = value ?? shared?.value
        self.help = help
        self.repeats = repeats
    }
}

/// The options every program spells the same way (as xsv's common options are): the long name,
/// its one short flag, its value. Which programs have each is their own business; what `-k`
/// means is not: a letter means one option in every program, or a script that works with one
/// program does something else with the next.
public enum SharedOptions {
    public struct Entry: Sendable {
        public var long: String
        public var short: Character?
        public var value: String?
    }

    public static let entries: [Entry] = [
        Entry(long: "help", short: "h", value: nil),
        Entry(long: "keep-going", short: "k", value: nil),
        Entry(long: "library", short: "l", value: "NAME"),
        Entry(long: "mode", short: "m", value: "MODE"),
        Entry(long: "dry-run", short: "n", value: nil),
        Entry(long: "exit-status", short: "e", value: nil),
        // Shared names without a short flag: the letters above are taken, and these are typed less.
        Entry(long: "k", short: nil, value: "N"),
        Entry(long: "now", short: nil, value: "TIME"),
        Entry(long: "endpoint", short: nil, value: "URL"),
        Entry(long: "version", short: nil, value: nil),
    ]

    static let byName: [String: Entry] = Dictionary(uniqueKeysWithValues: entries.map { ($0.long, $0) })
    static let byShort: [Character: Entry] = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.short.map { ($0, e) } })
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
