import Foundation
import PBCore

/// `plan`: what pb-plan (or a person) wants done, as numbered tool calls. Argument values may
/// refer to earlier steps: `"$2"` is step 2's reference id, `"$2.title"` a field of its reference,
/// `"$last"` the most recent step that produced a reference.
public struct PlanRecord: PBRecord, Equatable {
    public static let kindName = "plan"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "plan"
    /// The request the plan was made from, for the reader.
    public var text: String?
    /// The instant the plan's dates were resolved against (ISO 8601); "today" and timestamps use it.
    public var now: String?
    public var steps: [PlanStep]
    /// Who made the plan (grammar, model, a person).
    public var source: String?
    /// Reconciliation rules the planner applied, passed through as given.
    public var rules: JSONValue?
    /// Which planner made the plan when a model was asked for one (`pb-plan --endpoint`).
    public var receipt: PlanReceipt?
    /// What the plan needs to be told before it can do what was asked (PlanAsk).
    public var ask: PlanAsk?
    /// The planner's own word on the plan: why nothing matched, what it left out and why.
    /// pb-exec puts it before its own.
    public var message: String?
    /// The question put before a plan that deletes, schedules or drafts is run: pb-exec runs
    /// such a plan as a dry run until it is confirmed.
    public var confirm: String?
    /// The plan's own confirmation of `confirm` (pb-exec --yes gives it from outside).
    public var confirmed: Bool?
    /// What reconciliation did with each proposed step.
    public var review: [PlanReview]?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, text, now, steps, source, rules, receipt, ask, message, confirm, confirmed, review
    }

    /// How the planner ends `message` when every step it read was left out or rejected.
    public static let nothingLeft = "nothing left to plan"

    /// The plan's own fields a result carries on (`confirm`, `confirmed`, `review`, and whatever
    /// else the plan held that pb-exec does not read), as the result's extra fields.
    public var carriedOn: [String: JSONValue] {
        var out = extra
        if let confirm { out["confirm"] = .string(confirm) }
        if let confirmed { out["confirmed"] = .bool(confirmed) }
        // The review as its own Codable form writes it, so the result holds what the plan did.
        if let review, let data = try? RecordCodec().encodeValue(review),
           let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            out["review"] = value
        }
        return out
    }

    public init(text: String? = nil, now: String? = nil, steps: [PlanStep], source: String? = nil) {
        self.text = text
        self.now = now
        self.steps = steps
        self.source = source
    }
}

/// One tool call of a plan. `n` defaults to the step's position (1-based) when absent.
public struct PlanStep: Codable, Equatable, Sendable {
    public var n: Int
    public var tool: ToolName
    public var args: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case n, tool, args
    }

    public init(n: Int, tool: ToolName, args: [String: JSONValue] = [:]) {
        self.n = n
        self.tool = tool
        self.args = args
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        n = try c.decodeIfPresent(Int.self, forKey: .n) ?? 0
        tool = try c.decode(ToolName.self, forKey: .tool)
        args = try c.decodeIfPresent([String: JSONValue].self, forKey: .args) ?? [:]
    }
}
