import PBCore

/// A reconciliation rule with a stable id, and what it changed in one plan. Ids never change
/// meaning, so a reader (or a test) can rely on "R3" being the past-date rule in every version.
public struct ReconciliationRule: Equatable, Sendable {
    public var id: String
    public var name: String
    public var changes: [String]

    public static let dedupe = ReconciliationRule(id: "R1", name: "dedupe identical items", changes: [])
    public static let dateValidation = ReconciliationRule(id: "R2", name: "drop dates that do not exist", changes: [])
    public static let pastDates = ReconciliationRule(id: "R3", name: "move past dates forward to today", changes: [])
    public static let priorityFloor = ReconciliationRule(id: "R4", name: "priority floor: due by the end of tomorrow is at least medium", changes: [])

    public var json: JSONValue {
        .object(["id": .string(id), "name": .string(name), "changes": .array(changes.map(JSONValue.string))])
    }
}
