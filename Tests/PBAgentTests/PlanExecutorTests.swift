import Foundation
import Testing
import PBCore
@testable import PBAgent

@Suite struct PlanExecutorTests {
    static let acceptance = #"""
    {"kind":"plan","text":"Call Mom tonight, grab the birthday cake Saturday, and get the dentist booked before next week","now":"2026-11-26T18:00:00Z","steps":[
     {"n":1,"tool":"create_task","args":{"title":"Call Mom","due":"2026-11-26T19:00:00Z"}},
     {"n":2,"tool":"create_task","args":{"title":"grab the birthday cake","due":"2026-11-28"}},
     {"n":3,"tool":"create_task","args":{"title":"get the dentist booked","due":"2026-11-29","due_grain":"week"}}]}
    """#

    @Test func acceptancePlanCreatesThreeTasksAndUndoRemovesThem() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(Self.acceptance)
        #expect(r.status == .ok)
        #expect(r.group == "g-1")
        #expect(r.undoable)
        #expect(r.steps.map(\.refID) == ["task:1", "task:2", "task:3"])
        #expect(try fx.task(3)?.dueGrain == "week")
        let u = try fx.undo()
        #expect(u.status == .reverted)
        #expect(u.reverted.count == 3)
        #expect(try fx.count("tasks") == 0)
    }

    @Test func referencesResolveToEarlierSteps() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"""
        {"steps":[{"n":1,"tool":"create_project","args":{"title":"Garden"}},
          {"n":2,"tool":"create_task","args":{"title":"Buy bulbs","project":"$1"}},
          {"n":3,"tool":"create_task","args":{"title":"Plant $1.title bulbs","notes":"$$5 budget","project":"$last.project"}},
          {"n":4,"tool":"add_dependency","args":{"task":"$3","blocked_by":"$2"}}]}
        """#)
        #expect(r.status == .ok)
        let planted = try #require(try fx.task(2))
        #expect(planted.projectID == 1)
        #expect(planted.title == "Plant $1.title bulbs")
        #expect(planted.notes == "$5 budget")
        #expect(try fx.store.hasDependency(task: 2, blocker: 1))
    }

    @Test func referenceToAFieldThatIsMissingFailsTheStep() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"{"steps":[{"tool":"agenda"},{"tool":"create_task","args":{"title":"$1"}}]}"#)
        #expect(r.steps[1].status == .failed)
        #expect(r.steps[1].error?.contains("produced no reference") == true)
    }

    @Test func malformedPlansAreBadInput() throws {
        let fx = try AgentFixture()
        #expect(throws: RecordError.self) { try fx.exec(#"{"steps":[{"tool":"fly_to_moon"}]}"#) }
        #expect(throws: RecordError.self) { try fx.exec(#"{"steps":[{"n":1,"tool":"create_task","args":{"title":"$2"}},{"n":2,"tool":"agenda"}]}"#) }
        #expect(throws: RecordError.self) { try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"$last"}}]}"#) }
        #expect(throws: RecordError.self) { try fx.exec(#"{"now":"tomorrow","steps":[]}"#) }
        #expect(try fx.count("journal") == 0)
    }

    @Test func midPlanFailureKeepsEarlierStepsUndoableAndSaysSo() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"""
        {"steps":[{"n":1,"tool":"create_task","args":{"title":"Water plants"}},
          {"n":2,"tool":"complete_task","args":{"title":"nothing like this"}},
          {"n":3,"tool":"create_task","args":{"title":"Never made"}}]}
        """#)
        #expect(r.status == .failed)
        #expect(r.steps.map(\.status) == [.ok, .failed, .skipped])
        #expect(r.undoable)
        #expect(r.message.contains("step 1 is in place and can be undone with pb-undo --group g-1"))
        #expect(r.message.contains("step 3 was skipped"))
        #expect(try fx.count("tasks") == 1)
        #expect(try fx.undo().status == .reverted)
        #expect(try fx.count("tasks") == 0)
    }

    @Test func failureAtTheFirstStepChangesNothing() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"  "}},{"tool":"create_task","args":{"title":"B"}}]}"#)
        #expect(r.group == nil)
        #expect(!r.undoable)
        #expect(r.message.contains("nothing was changed"))
        #expect(try fx.count("tasks") == 0)
    }

    @Test func unknownArgumentsFailTheStep() throws {
        let fx = try AgentFixture()
        let s = try fx.step("create_task", #"{"title":"A","colour":"red"}"#)
        #expect(s.status == .failed)
        #expect(s.error?.hasPrefix("unknown argument 'colour'") == true)
    }

    @Test func dryRunWritesNothing() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(Self.acceptance, dryRun: true)
        #expect(r.dryRun == true)
        #expect(r.group == nil)
        #expect(r.steps.allSatisfy { $0.status == .ok })
        #expect(r.message.hasPrefix("dry run: all 3 steps would succeed"))
        #expect(try fx.count("tasks") == 0)
        #expect(try fx.count("journal") == 0)
        // The group number was not used up.
        #expect(try fx.exec(Self.acceptance).group == "g-1")
    }

    @Test func readOnlyPlansOpenNoGroup() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"{"steps":[{"tool":"agenda"}]}"#)
        #expect(r.group == nil)
        #expect(r.message == "the step is done; nothing was changed")
    }

    @Test func groupsAreSequential() throws {
        let fx = try AgentFixture()
        #expect(try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"A"}}]}"#).group == "g-1")
        #expect(try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"B"}}]}"#).group == "g-2")
        #expect(try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"B"}},{"tool":"create_task","args":{"title":"C"}}]}"#).group == "g-3")
    }

    @Test func ambiguousTitleFailsAndListsCandidates() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"Buy birthday cake"}},{"tool":"create_task","args":{"title":"Buy birthday card"}}]}"#)
        let s = try fx.step("delete_task", #"{"title":"birthday"}"#)
        #expect(s.status == .failed)
        #expect(s.error == #"'birthday' fits more than one task equally: task:1 "Buy birthday cake", task:2 "Buy birthday card"; name one by id"#)
        #expect(try fx.count("tasks") == 2)
    }

    @Test func resultRecordRoundTrips() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(Self.acceptance)
        let line = try RecordCodec().encode(r)
        let back = try RecordCodec().decode(ResultRecord.self, from: line)
        #expect(back == r)
    }
}
