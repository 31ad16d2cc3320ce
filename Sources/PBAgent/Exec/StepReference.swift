import PBCore

/// A reference in a step argument: `"$2"` (step 2's reference id), `"$2.title"` (a field of its
/// reference), `"$last"` / `"$last.field"` (the most recent step that produced a reference).
/// A string that should start with a literal `$` is written with `$$`.
public struct StepReference: Equatable, Sendable {
    /// nil for `$last`.
    public var step: Int?
    public var field: String?

    public init?(_ text: String) {
        guard text.hasPrefix("$"), !text.hasPrefix("$$") else { return nil }
        let body = text.dropFirst()
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let head = parts.first, !head.isEmpty else { return nil }
        if head == "last" { step = nil } else if head.allSatisfy(\.isNumber), let n = Int(head), n > 0 { step = n } else { return nil }
        if parts.count == 2 {
            let f = parts[1]
            guard let first = f.first, first.isLetter || first == "_", f.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            field = String(f)
        }
    }

    /// Every reference inside a value (objects and arrays included).
    public static func all(in value: JSONValue) -> [StepReference] {
        switch value {
        case .string(let s): return StepReference(s).map { [$0] } ?? []
        case .array(let a): return a.flatMap(all(in:))
        case .object(let o): return o.keys.sorted().flatMap { all(in: o[$0]!) }
        default: return []
        }
    }

    /// The value with every reference replaced by what it points at.
    public static func resolve(_ value: JSONValue, refs: [Int: [String: JSONValue]], last: (n: Int, ref: [String: JSONValue])?) throws -> JSONValue {
        switch value {
        case .string(let s):
            if s.hasPrefix("$$") { return .string(String(s.dropFirst())) }
            guard let r = StepReference(s) else { return value }
            let ref: [String: JSONValue]
            let name: String
            if let n = r.step {
                name = "step \(n)"
                guard let found = refs[n] else { throw AgentError.badReference("\(s): \(name) produced no reference") }
                ref = found
            } else {
                name = "$last"
                guard let last else { throw AgentError.badReference("\(s): no earlier step produced a reference") }
                ref = last.ref
            }
            let field = r.field ?? "id"
            guard let v = ref[field], v != .null else {
                throw AgentError.badReference("\(s): the reference of \(name) has no field '\(field)' (it has: \(ref.keys.sorted().joined(separator: ", ")))")
            }
            return v
        case .array(let a): return .array(try a.map { try resolve($0, refs: refs, last: last) })
        case .object(let o): return .object(try o.mapValues { try resolve($0, refs: refs, last: last) })
        default: return value
        }
    }
}
