/// What the command line said: flags given, option values, operands.
public struct ParsedOptions: Sendable {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var operands: [String] = []
    let programName: String

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func value(_ name: String) -> String? { values[name]?.last }

    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option within bounds; anything else is a usage error naming the option.
    public func int(_ name: String, default fallback: Int, in range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let n = Int(text), range.contains(n) else {
            throw ToolFailure(.usage, "--\(name): expected an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return n
    }

    public func double(_ name: String, default fallback: Double, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double {
        guard let text = value(name) else { return fallback }
        guard let n = Double(text), range.contains(n) else {
            throw ToolFailure(.usage, "--\(name): expected a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return n
    }

    /// One of a fixed set of words.
    public func choice(_ name: String, _ allowed: [String], default fallback: String) throws -> String {
        guard let text = value(name) else { return fallback }
        guard allowed.contains(text) else {
            throw ToolFailure(.usage, "--\(name): expected one of \(allowed.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}

/// The hand-written parser (no Swift packages here): GNU-style long options with `--opt value` or
/// `--opt=value`, short options, `--` to end options, and `-` as an operand (standard input).
public struct OptionParser: Sendable {
    public let spec: CommandSpec

    public init(_ spec: CommandSpec) { self.spec = spec }

    public enum Outcome: Sendable {
        case run(ParsedOptions)
        case help
        case version
    }

    public func parse(_ arguments: [String]) throws -> Outcome {
        var parsed = ParsedOptions(programName: spec.name)
        var i = 0
        var onlyOperands = false
        func usage(_ message: String) -> ToolFailure {
            ToolFailure(.usage, "\(message)\n\(spec.usageLine)\nTry '\(spec.name) --help' for more.")
        }
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
                parsed.operands.append(arg)
                continue
            }
            if arg == "--" { onlyOperands = true; continue }
            var name: String
            var inline: String?
            let option: OptionSpec
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                guard let found = spec.options.first(where: { $0.long == name }) else {
                    throw usage("unknown option '--\(name)'")
                }
                option = found
            } else {
                let letters = Array(arg.dropFirst())
                guard let found = spec.options.first(where: { $0.short == letters[0] }) else {
                    throw usage("unknown option '-\(letters[0])'")
                }
                option = found
                name = found.long
                if letters.count > 1 {
                    guard found.value != nil else { throw usage("option '-\(letters[0])' takes no value") }
                    inline = String(letters.dropFirst())
                }
            }
            if name == "help" { return .help }
            if name == "version" { return .version }
            if option.value != nil {
                let value: String
                if let inline { value = inline } else {
                    guard i < arguments.count else { throw usage("option '--\(name)' needs a value (\(option.value!))") }
                    value = arguments[i]
                    i += 1
                }
                if !option.repeats, parsed.values[name] != nil {
                    throw usage("option '--\(name)' given twice")
                }
                parsed.values[name, default: []].append(value)
            } else {
                guard inline == nil else { throw usage("option '--\(name)' takes no value") }
                parsed.flags.insert(name)
            }
        }
        return .run(parsed)
    }
}
