import PBCore

/// What reconciliation did with one proposed step of a plan (the plan's `review`): no content,
/// only what happened and by which rules.
public struct PlanReview: Codable, Equatable, Sendable {
    public enum Outcome: String, ClosedSet {
        case accepted, modified, rejected
    }

    /// The proposal's position in the plan as proposed (1-based).
    public var proposal: Int
    /// The tool as the proposal named it: a plan from elsewhere may name one there is none of,
    /// which R5 rejects.
    public var tool: String
    public var outcome: Outcome
    /// The step it became in the reconciled plan; nil when it was rejected.
    public var step: Int?
    /// The ids of the rules that acted on it.
    public var rules: [ReconciliationRule.ID]

    public init(proposal: Int, tool: String, outcome: Outcome, step: Int? = nil, rules: [ReconciliationRule.ID]) {
        self.proposal = proposal
        self.tool = tool
        self.outcome = outcome
        self.step = step
        self.rules = rules
    }
}
