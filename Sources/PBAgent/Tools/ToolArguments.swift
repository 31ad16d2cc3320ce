import Foundation
import PBCore

/// Typed access to a step's arguments, with errors that name the argument and what it expects.
public struct ToolArguments: Sendable {
    public var values: [String: JSONValue]

    public init(_ values: [String: JSONValue]) { self.values = values }

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// Given as JSON null: "clear this field".
    public func isNull(_ name: String) -> Bool { values[name] == .null }

    public func string(_ name: String) throws -> String? {
        switch values[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case .number?, .integer?: return values[name]!.stringValue
        default: throw AgentError.badArgument(name, "expected a string")
        }
    }

    /// A non-empty string, trimmed.
    public func text(_ name: String) throws -> String? {
        guard let s = try string(name) else { return nil }
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { throw AgentError.badArgument(name, "expected a non-empty string") }
        return t
    }

    public func required(_ name: String) throws -> String {
        guard let s = try text(name) else { throw AgentError.missingArgument(name) }
        return s
    }

    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        let n: Int
        switch values[name] {
        case nil, .null?: return nil
        // Whole numbers only; one beyond Int's range (1e20) is out of range, never wrapped.
        case .number(let d)? where d.rounded() == d:
            guard let w = values[name]!.wholeNumber else {
                throw AgentError.badArgument(name, "expected an integer in \(range.lowerBound)...\(range.upperBound), got \(d)")
            }
            n = Int(w)
        case .integer(let i)?: n = Int(i)
        case .string(let s)?:
            guard let v = Int(s.trimmingCharacters(in: .whitespaces)) else { fallthrough }
            n = v
        default: throw AgentError.badArgument(name, "expected an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        guard range.contains(n) else { throw AgentError.badArgument(name, "expected an integer in \(range.lowerBound)...\(range.upperBound), got \(n)") }
        return n
    }

    public func bool(_ name: String) throws -> Bool? {
        switch values[name] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .string(let s)? where ["true", "yes", "1"].contains(s.lowercased()): return true
        case .string(let s)? where ["false", "no", "0"].contains(s.lowercased()): return false
        default: throw AgentError.badArgument(name, "expected true or false")
        }
    }

    /// An ISO 8601 date or date and time; impossible dates are errors.
    public func moment(_ name: String, clock: AgentClock) throws -> ISOMoment? {
        guard let s = try text(name) else { return nil }
        guard let m = ISOMoment.parse(s, zone: clock.zone) else {
            throw AgentError.badArgument(name, "expected an ISO 8601 date (2026-11-28) or date and time (2026-11-29T19:00:00Z), got '\(s)'")
        }
        return m
    }

    /// An array of strings, or one comma-separated string.
    public func strings(_ name: String) throws -> [String]? {
        switch values[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .array(let a)?:
            return try a.map {
                guard case .string(let s) = $0 else { throw AgentError.badArgument(name, "expected an array of strings") }
                return s.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        default: throw AgentError.badArgument(name, "expected an array of strings or a comma-separated string")
        }
    }

    /// Priority 0-3, or none, low, medium, high (urgent is high).
    public func priority(_ name: String) throws -> Int? {
        if case .string(let s)? = values[name] {
            let words = ["none": 0, "low": 1, "medium": 2, "normal": 2, "high": 3, "urgent": 3]
            if let p = words[s.lowercased().trimmingCharacters(in: .whitespaces)] { return p }
            if Int(s) == nil { throw AgentError.badArgument(name, "expected 0-3 or none, low, medium, high, got '\(s)'") }
        }
        return try int(name, in: 0...3)
    }
}
