import Foundation
import Testing
import PBCore
@testable import PBAgent

/// Every task tool, and that undo puts the store back exactly.
@Suite struct TaskToolsTests {
    /// Runs `body` after a baseline, checks it changed something, undoes and compares dumps.
    func roundTrip(_ fx: AgentFixture, _ body: () throws -> Void) throws {
        let before = try fx.store.canonicalDump()
        try body()
        #expect(try fx.store.canonicalDump() != before)
        #expect(try fx.undo().status == .reverted)
        #expect(try fx.store.canonicalDump() == before)
    }

    func baseline() throws -> AgentFixture {
        let fx = try AgentFixture()
        try fx.exec(#"""
        {"steps":[{"tool":"create_project","args":{"title":"Home"}},
          {"tool":"create_task","args":{"title":"Pay the water bill","due":"2026-11-20","priority":"high","project":"Home"}},
          {"tool":"create_task","args":{"title":"Call Mom","due":"2026-11-26T19:00:00Z","notes":"about Sunday"}}]}
        """#)
        return fx
    }

    @Test func createTask() throws {
        let fx = try AgentFixture()
        let s = try fx.step("create_task", #"{"title":"Grab the cake","due":"2026-11-28","priority":2}"#)
        #expect(s.summary == #"created task:1 "Grab the cake" due 2026-11-28"#)
        #expect(try fx.task(1)?.dueGrain == "day")
        #expect(try fx.step("create_task", #"{"title":"X","due":"2026-02-30"}"#).error?.contains("expected an ISO 8601 date") == true)
        #expect(try fx.step("create_task", #"{"title":"X","priority":7}"#).status == .failed)
        #expect(try fx.step("create_task", #"{"title":"X","project":"Nowhere"}"#).error == "no project matches 'Nowhere'")
        try roundTrip(fx) { try fx.step("create_task", #"{"title":"Y"}"#) }
    }

    @Test func updateTask() throws {
        let fx = try baseline()
        try roundTrip(fx) { () throws -> Void in
            let s = try fx.step("update_task", #"{"title":"call mom","new_title":"Call Mum","due":null,"priority":"low","project":"project:1"}"#)
            #expect(s.status == .ok)
            let t = try #require(try fx.task(2))
            #expect(t.title == "Call Mum")
            #expect(t.due == nil)
            #expect(t.priority == 1)
            #expect(t.projectID == 1)
        }
        #expect(try fx.step("update_task", #"{"id":"task:2"}"#).error?.hasPrefix("missing argument 'something to change") == true)
    }

    @Test func completeAndReopenTask() throws {
        let fx = try baseline()
        try roundTrip(fx) { () throws -> Void in
            // A statement of state with another verb form still finds the task.
            #expect(try fx.step("complete_task", #"{"title":"paying water bills"}"#).status == .ok)
            #expect(try fx.task(1)?.status == "done")
            #expect(try fx.task(1)?.completedAt == "2026-11-26T18:00:00Z")
        }
        try fx.step("complete_task", #"{"id":"1"}"#)
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("reopen_task", #"{"title":"pay the water bill"}"#).summary == #"reopened task:1 "Pay the water bill""#)
            #expect(try fx.task(1)?.status == "open")
            #expect(try fx.task(1)?.completedAt == nil)
        }
    }

    @Test func deleteTaskTakesItsEdgesAndUndoBringsThemBack() throws {
        let fx = try baseline()
        try fx.exec(#"""
        {"steps":[{"tool":"add_dependency","args":{"task":"Call Mom","blocked_by":"task:1"}},
          {"tool":"set_recurrence","args":{"id":"task:1","rule":"FREQ=MONTHLY"}},
          {"tool":"create_note","args":{"title":"Bills"}},
          {"tool":"link_items","args":{"from":"task:1","to":"note:1","kind":"reference"}}]}
        """#)
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("delete_task", #"{"id":"task:1"}"#).status == .ok)
            #expect(try fx.count("dependencies") == 0)
            #expect(try fx.count("recurrences") == 0)
            #expect(try fx.count("links") == 0)
        }
        #expect(try fx.step("delete_task", #"{"id":"task:9"}"#).error == "no task:9 (it does not exist or was deleted)")
        #expect(try fx.step("delete_task", #"{"id":"note:1"}"#).error == "argument 'id': expected a task, got note:1")
    }

    @Test func rescheduleAndSnooze() throws {
        let fx = try baseline()
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("reschedule_task", #"{"title":"Call Mom","due":"2026-11-27T09:30:00+01:00"}"#).status == .ok)
            #expect(try fx.task(2)?.due == "2026-11-27T09:30:00+01:00")
        }
        try roundTrip(fx) { () throws -> Void in
            // A time: pushed from its due (still ahead) by two hours.
            #expect(try fx.step("snooze_task", #"{"id":"task:2","hours":2}"#).status == .ok)
            #expect(try fx.task(2)?.due == "2026-11-26T21:00:00Z")
        }
        try roundTrip(fx) { () throws -> Void in
            // An overdue date: pushed from today, by the default day.
            #expect(try fx.step("snooze_task", #"{"id":"task:1"}"#).summary == #"snoozed task:1 "Pay the water bill" to 2026-11-27"#)
        }
        #expect(try fx.step("snooze_task", #"{"id":"task:1","hours":3}"#).status == .failed)
    }

    @Test func setPriority() throws {
        let fx = try baseline()
        try roundTrip(fx) { () throws -> Void in
            try fx.step("set_priority", #"{"title":"Call Mom","priority":"urgent"}"#)
            #expect(try fx.task(2)?.priority == 3)
        }
        #expect(try fx.step("set_priority", #"{"title":"Call Mom","priority":"soonish"}"#).status == .failed)
    }

    @Test func recurringCompletionSpawnsTheNextAndOneUndoRevertsBoth() throws {
        let fx = try baseline()
        try fx.step("set_recurrence", #"{"id":"task:1","rule":"FREQ=WEEKLY;INTERVAL=2"}"#)
        try roundTrip(fx) { () throws -> Void in
            let s = try fx.step("complete_task", #"{"id":"task:1"}"#)
            #expect(s.ref?["next"] == .string("task:3"))
            // On a schedule: 2026-11-20 + 2 weeks = 2026-12-04, not before today.
            let next = try #require(try fx.task(3))
            #expect(next.due == "2026-12-04")
            #expect(next.projectID == 1)
            #expect(try fx.store.recurrence(forTask: 3)?.rule == "FREQ=WEEKLY;INTERVAL=2")
            #expect(try fx.store.recurrence(forTask: 1) == nil)
        }
        #expect(try fx.store.recurrence(forTask: 1) != nil)
        #expect(try fx.task(3) == nil)
    }

    @Test func recurrenceAfterCompletionCountsFromToday() throws {
        let fx = try baseline()
        try fx.step("set_recurrence", #"{"id":"task:2","rule":"daily","mode":"completion"}"#)
        try fx.step("complete_task", #"{"id":"task:2"}"#)
        #expect(try fx.task(3)?.due == "2026-11-27T19:00:00Z")
    }

    @Test func setAndRemoveRecurrence() throws {
        let fx = try baseline()
        try roundTrip(fx) { try fx.step("set_recurrence", #"{"id":"task:1","rule":"monthly"}"#) }
        try fx.step("set_recurrence", #"{"id":"task:1","rule":"monthly"}"#)
        try roundTrip(fx) { () throws -> Void in
            try fx.step("set_recurrence", #"{"id":"task:1","rule":"FREQ=YEARLY","mode":"completion"}"#)
            #expect(try fx.store.recurrence(forTask: 1)?.mode == "completion")
        }
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("set_recurrence", #"{"id":"task:1","rule":"none"}"#).summary == #"task:1 "Pay the water bill" no longer repeats"#)
        }
        #expect(try fx.step("set_recurrence", #"{"id":"task:1","rule":"FREQ=HOURLY"}"#).status == .failed)
    }

    @Test func dependenciesRefuseCycles() throws {
        let fx = try baseline()
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("add_dependency", #"{"task":"Call Mom","blocked_by":"water bill"}"#).summary
                    == #"task:2 "Call Mom" is now blocked by task:1 "Pay the water bill""#)
        }
        try fx.step("add_dependency", #"{"task":"task:2","blocked_by":"task:1"}"#)
        #expect(try fx.step("add_dependency", #"{"task":"task:1","blocked_by":"task:2"}"#).error?.contains("cycle") == true)
        #expect(try fx.step("add_dependency", #"{"task":"task:1","blocked_by":"task:1"}"#).error?.contains("itself") == true)
    }
}
