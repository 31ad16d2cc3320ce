import PBCore

/// One way people phrase a request, as a row of a table rather than a branch of a function: a
/// whole-clause pattern (case-insensitive; its groups are the slots), what the slots are, how
/// they become intents, and the requests it was written for, which the unit tests plan and
/// pb-plan(1) lists. A builder may still decline (nil) when a slot does not hold what it must.
struct Construction: Sendable {
    var name: String
    var pattern: String
    var slots: [String]
    var examples: [(request: String, tools: [ToolName])]
    var build: @Sendable (IntentGrammar, IntentGrammar.Clause, [String]) -> [PlannedIntent]?
}
