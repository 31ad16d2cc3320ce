import PBCore

/// A step of a plan from elsewhere (`pb-plan --reconcile`) that names a tool there is none of:
/// kept by its number and name so that R5 can reject it in its place and the review can say so.
/// pb-exec never sees one: a plan it runs names known tools only.
public struct ProposedStep: Equatable, Sendable {
    /// Its number as proposed (its `n`, else its position, 1-based).
    public var n: Int
    /// The tool as written.
    public var tool: String
    /// Its `title` argument, which names it in what R5 says.
    public var title: String?

    /// Takes the steps naming unknown tools out of a plan record's `steps`, numbering every step
    /// it leaves (`n` as given, else its position) so that the rest keep their numbers.
    public static func unknown(in object: inout [String: JSONValue]) -> [ProposedStep] {
        guard case .array(let steps)? = object["steps"] else { return [] }
        var kept: [JSONValue] = []
        var unknown: [ProposedStep] = []
        for (i, step) in steps.enumerated() {
            guard case .object(var fields) = step, case .string(let tool)? = fields["tool"] else {
                kept.append(step)
                continue
            }
            let n: Int
            if case .number(let given)? = fields["n"], given == given.rounded(), given > 0 { n = Int(given) } else { n = i + 1 }
            if ToolName(rawValue: tool) != nil {
                if fields["n"] == nil { fields["n"] = .number(Double(n)) }
                kept.append(.object(fields))
            } else {
                var title: String?
                if case .object(let args)? = fields["args"], case .string(let t)? = args["title"] { title = t }
                unknown.append(ProposedStep(n: n, tool: tool, title: title))
            }
        }
        if !unknown.isEmpty { object["steps"] = .array(kept) }
        return unknown
    }
}
