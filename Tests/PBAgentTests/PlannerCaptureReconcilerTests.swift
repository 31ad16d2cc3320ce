import PBCore
import Testing
@testable import PBAgent

@Suite("CaptureReconciler")
struct PlannerCaptureReconcilerTests {
    let planner = fixedPlanner()

    func rule(_ p: PlanRecord, _ id: String) -> [String] {
        guard case .array(let rules)? = p.rules else { return [] }
        for case .object(let r) in rules where r["id"] == .string(id) {
            if case .array(let changes)? = r["changes"] { return changes.compactMap(\.stringValue) }
        }
        return []
    }

    @Test("R1 merges identical items and says so")
    func dedupe() {
        let p = planner.plan("Call the vet tomorrow. Call the vet tomorrow. Buy cat food.")
        #expect(p.tools == ["create_task", "create_task"])
        #expect(rule(p, "R1").count == 1)
    }

    @Test("R2 records a date that does not exist")
    func dateValidation() {
        let p = planner.plan("Renew the passport on Feb 30\nPack for the trip")
        #expect(p.arg(0, "due") == nil)
        #expect(rule(p, "R2").first?.contains("29") == true)
    }

    @Test("R3 moves a past date forward to today")
    func pastDates() {
        let p = planner.plan("remind me to call the bank yesterday\nbuy milk")
        #expect(p.arg(0, "due") == "2026-11-26")
        #expect(rule(p, "R3").count == 1)
    }

    @Test("R4 raises a task due by tomorrow to medium, not one with a priority")
    func priorityFloor() {
        let p = planner.plan("call mum tomorrow\nbook the venue tomorrow asap\nwrite the report next month")
        #expect(p.arg(0, "priority") == "medium")
        #expect(p.arg(1, "priority") == "high")
        #expect(p.arg(2, "priority") == nil)
        #expect(rule(p, "R4").count == 1)
    }

    @Test("a single request is not deduplicated or floored")
    func singleRequest() {
        let p = planner.plan("call mum tomorrow")
        #expect(p.arg(0, "priority") == nil)
        #expect(p.rules == nil)
    }
}
