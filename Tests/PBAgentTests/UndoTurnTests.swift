import Foundation
import Testing
import PBCore
@testable import PBAgent
@testable import PBDates

/// "Undo that" as a request: the planner's undo step, run by the executor through the undo engine.
@Suite struct UndoTurnTests {
    @Test func thePlannerReadsUndoPhrasesAndNothingElse() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-26T10:00:00Z"))
        let planner = Planner(parser: NaturalDateParser(now: now, timeZone: TimeZone(identifier: "UTC")!))
        for text in ["undo that", "Scratch that!", "take it back", "undo the last change", "revert what you just did", "never mind"] {
            #expect(planner.plan(text).steps.map(\.tool.rawValue) == ["undo"], "\(text)")
        }
        for text in ["cancel the dentist", "undo the knot in the rope"] {
            #expect(planner.plan(text).steps.map(\.tool.rawValue) != ["undo"], "\(text)")
        }
        for text in ["redo", "Redo that!", "redo it please", "undo the undo", "undo that undo", "undo the last undo"] {
            #expect(planner.plan(text).steps.map(\.tool.rawValue) == ["redo"], "\(text)")
        }
        for text in ["redo the bathroom", "redo the slides for monday"] {
            #expect(planner.plan(text).steps.map(\.tool.rawValue) != ["redo"], "\(text)")
        }
    }

    @Test func aRedoPlanReappliesTheLastUndoneTurn() throws {
        let f = try AgentFixture()
        try f.exec(#"{"steps":[{"n":1,"tool":"create_task","args":{"title":"buy milk"}}]}"#)
        try f.exec(#"{"steps":[{"n":1,"tool":"undo","args":{}}]}"#)
        let redone = try f.exec(#"{"steps":[{"n":1,"tool":"redo","args":{}}]}"#)
        #expect(redone.status == .ok)
        #expect(redone.steps[0].ref?["group"] == .string("g-2"))
        #expect(try f.task(1)?.title == "buy milk")
        let nothing = try f.exec(#"{"steps":[{"n":1,"tool":"redo","args":{}}]}"#)
        #expect(nothing.status == .ok)
        #expect(nothing.message.hasPrefix("nothing to redo"))
        #expect(throws: RecordError.self) { try f.exec(#"{"steps":[{"n":1,"tool":"redo","args":{"group":"g-1"}}]}"#) }
    }

    @Test func anUndoPlanRevertsTheLastTurnAllOrNothing() throws {
        let f = try AgentFixture()
        try f.exec(#"{"steps":[{"n":1,"tool":"create_task","args":{"title":"buy milk"}},{"n":2,"tool":"create_task","args":{"title":"call the bank"}}]}"#)
        #expect(try f.count("tasks") == 2)
        let undone = try f.exec(#"{"steps":[{"n":1,"tool":"undo","args":{}}]}"#)
        #expect(undone.status == .ok)
        #expect(undone.steps[0].ref?["group"] == .string("g-1"))
        #expect(try f.count("tasks") == 0)
        let nothing = try f.exec(#"{"steps":[{"n":1,"tool":"undo","args":{}}]}"#)
        #expect(nothing.message == "nothing to undo")
        #expect(throws: RecordError.self) { try f.exec(#"{"steps":[{"n":1,"tool":"undo","args":{}},{"n":2,"tool":"agenda","args":{}}]}"#) }
    }
}

@Suite struct ProjectFilingTests {
    func plan(_ text: String) throws -> [PlanStep] {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-26T10:00:00Z"))
        return Planner(parser: NaturalDateParser(now: now, timeZone: TimeZone(identifier: "UTC")!)).plan(text).steps
    }

    @Test func thenEndsTheProjectOnceItHasItsTasks() throws {
        let steps = try plan("create project Garden and add 2 tasks: buy seeds and fix the fence, then call Mom tonight")
        #expect(steps.map { $0.args["project"] } == [nil, .string("$1"), .string("$1"), nil])
        let move = try plan("create project Move, then remind me to book the van and pack the kitchen")
        #expect(move.map { $0.args["project"] } == [nil, .string("$1"), .string("$1")])
    }
}
