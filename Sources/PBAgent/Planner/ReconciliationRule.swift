import PBCore

/// A reconciliation rule and what it changed in one plan. Ids never change meaning, so a reader
/// (or a test) can rely on "R3" being the past-date rule in every version. R1 and R3 to R8 are
/// the seven policies a plan from anyone must pass (R2 checks that a date exists at all); R9 holds
/// a change to an existing item to one the store has.
public struct ReconciliationRule: Equatable, Sendable {
    /// The rules, by what they check; the raw value is the id plans and reviews write.
    public enum ID: String, ClosedSet, CustomStringConvertible {
        case dedupe = "R1"
        case dateValidation = "R2"
        case pastDates = "R3"
        case priorityFloor = "R4"
        case admissible = "R5"
        case grounding = "R6"
        case clauseEcho = "R7"
        case location = "R8"
        case target = "R9"

        public var description: String { rawValue }

        /// What the rule checks, as the plan's `rules` names it.
        public var name: String {
            switch self {
            case .dedupe: return "dedupe identical items (in the plan, or open in the store)"
            case .dateValidation: return "drop dates that do not exist"
            case .pastDates: return "move past dates forward to today"
            case .priorityFloor: return "priority floor: due by the end of tomorrow is at least medium"
            case .admissible: return "admissible type: a known tool with its required arguments, in a capture only new items"
            case .grounding: return "source grounding: titles, names, dates and priorities must come from the request"
            case .clauseEcho: return "clause echo: a question, boilerplate or the request itself is not a task"
            case .location: return "location grounding: a place must be named in the request and be a place"
            case .target: return "target grounding: a step that changes an item must name one the store holds"
            }
        }
    }

    public var id: ID
    public var changes: [String]

    public var name: String { id.name }

    /// Every rule in id order, none of them fired yet.
    public static var all: [ReconciliationRule] { ID.allCases.map { ReconciliationRule(id: $0, changes: []) } }

    public var json: JSONValue {
        .object(["id": .string(id.rawValue), "name": .string(name), "changes": .array(changes.map(JSONValue.string))])
    }
}
