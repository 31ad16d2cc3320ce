import Foundation
@testable import PBCore
import Testing
@testable import PBAgent

@Suite("PlanCommand")
struct PlannerCommandTests {
    let planner = fixedPlanner()

    func line(_ s: String) -> InputLine { InputLine(data: Data(s.utf8), source: "<stdin>", number: 1) }

    @Test("a record's other fields pass through and its now wins")
    func record() throws {
        let p = try PlanCommand.plan(for: line(#"{"text":"call mum tomorrow","id":7,"now":"2026-12-01T09:00:00Z"}"#), planner: planner, capture: nil)
        #expect(p.extra["id"] == .number(7))
        #expect(p.arg(0, "due") == "2026-12-02")
        #expect(p.now == "2026-12-01T09:00:00+00:00")
    }

    @Test("capture: true reads one line as a dump")
    func captureFlag() throws {
        let p = try PlanCommand.plan(for: line(#"{"text":"buy milk","capture":true}"#), planner: planner, capture: nil)
        #expect(p.source == "capture")
    }

    @Test("a record without text is bad input")
    func missingText() {
        #expect(throws: RecordError.missingField("text")) {
            try PlanCommand.plan(for: line(#"{"id":1}"#), planner: planner, capture: nil)
        }
    }

    @Test("a bad now is bad input")
    func badNow() {
        #expect(throws: RecordError.self) {
            try PlanCommand.plan(for: line(#"{"text":"buy milk","now":"soon"}"#), planner: planner, capture: nil)
        }
    }
}
