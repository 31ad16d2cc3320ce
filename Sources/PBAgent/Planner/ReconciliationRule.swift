import PBCore

/// A reconciliation rule with a stable id, and what it changed in one plan. Ids never change
/// meaning, so a reader (or a test) can rely on "R3" being the past-date rule in every version.
/// R1 and R3 to R8 are the seven policies a plan from anyone must pass (R2
/// checks that a date exists at all); R9 holds a change to an existing item to one the store has.
public struct ReconciliationRule: Equatable, Sendable {
    public var id: String
    public var name: String
    public var changes: [String]

    public static let dedupe = ReconciliationRule(id: "R1", name: "dedupe identical items (in the plan, or open in the store)", changes: [])
    public static let dateValidation = ReconciliationRule(id: "R2", name: "drop dates that do not exist", changes: [])
    public static let pastDates = ReconciliationRule(id: "R3", name: "move past dates forward to today", changes: [])
    public static let priorityFloor = ReconciliationRule(id: "R4", name: "priority floor: due by the end of tomorrow is at least medium", changes: [])
    public static let admissible = ReconciliationRule(id: "R5", name: "admissible type: a known tool with its required arguments, in a capture only new items", changes: [])
    public static let grounding = ReconciliationRule(id: "R6", name: "source grounding: titles, names, dates and priorities must come from the request", changes: [])
    public static let clauseEcho = ReconciliationRule(id: "R7", name: "clause echo: a question, boilerplate or the request itself is not a task", changes: [])
    public static let location = ReconciliationRule(id: "R8", name: "location grounding: a place must be named in the request and be a place", changes: [])
    public static let target = ReconciliationRule(id: "R9", name: "target grounding: a step that changes an item must name one the store holds", changes: [])

    /// All rules in id order.
    public static let all: [ReconciliationRule] = [dedupe, dateValidation, pastDates, priorityFloor, admissible, grounding, clauseEcho, location, target]

    public var json: JSONValue {
        .object(["id": .string(id), "name": .string(name), "changes": .array(changes.map(JSONValue.string))])
    }
}
