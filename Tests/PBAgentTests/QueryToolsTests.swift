import Foundation
import Testing
import PBCore
@testable import PBAgent

@Suite struct QueryToolsTests {
    func fixture() throws -> AgentFixture {
        let fx = try AgentFixture()
        try fx.exec(#"""
        {"steps":[{"tool":"create_project","args":{"title":"Garden"}},
          {"tool":"create_task","args":{"title":"Buy bulbs","due":"2026-11-20","project":"$1"}},
          {"tool":"create_task","args":{"title":"Plant bulbs","due":"2026-11-26","project":"$1"}},
          {"tool":"create_task","args":{"title":"Call Mom","due":"2026-11-26T19:00:00Z"}},
          {"tool":"create_task","args":{"title":"Grab the cake","due":"2026-11-28"}},
          {"tool":"create_task","args":{"title":"Book dentist","due":"2026-12-02"}},
          {"tool":"add_dependency","args":{"task":"Plant bulbs","blocked_by":"Buy bulbs"}},
          {"tool":"add_milestone","args":{"project":"$1","title":"Spring colour","due":"2027-03-01"}},
          {"tool":"create_note","args":{"title":"Bulb varieties","body":"tulips and daffodils"}}]}
        """#)
        return fx
    }

    @Test func agendaTodayWeekOverdue() throws {
        let fx = try fixture()
        let today = try fx.step("agenda")
        #expect(today.summary == #"1 overdue: task:1 "Buy bulbs"; 2 due today: task:2 "Plant bulbs", task:3 "Call Mom""#)
        #expect(try fx.step("agenda", #"{"range":"week"}"#).summary?.contains(#"3 due this week"#) == true)
        #expect(try fx.step("agenda", #"{"range":"overdue"}"#).summary == #"1 overdue: task:1 "Buy bulbs""#)
        #expect(try fx.step("agenda", #"{"range":"month"}"#).status == .failed)
        #expect(try fx.count("journal") == 9)
    }

    @Test("a week's agenda asked on a Saturday or Sunday runs through the coming week")
    func agendaWeekOnAWeekend() throws {
        var fx = try fixture()
        fx.now = "2026-11-28T10:00:00Z"  // Saturday: Grab the cake (today) and Book dentist (Wednesday)
        let saturday = try fx.step("agenda", #"{"range":"week"}"#)
        #expect(saturday.summary?.contains(#"2 due this week: task:4 "Grab the cake", task:5 "Book dentist""#) == true)
        #expect(until(saturday) == "2026-12-06")
        fx.now = "2026-11-27T10:00:00Z"  // Friday: to this Sunday only
        #expect(until(try fx.step("agenda", #"{"range":"week"}"#)) == "2026-11-29")
    }

    func until(_ r: StepResult) -> String? {
        if case .object(let o)? = r.data, case .string(let s)? = o["until"] { return s }
        return nil
    }

    @Test func searchFindsTitlesAndBodies() throws {
        let fx = try fixture()
        let s = try fx.step("search", #"{"query":"bulbs"}"#)
        #expect(s.ref?["count"] == .number(3))
        #expect(s.refID == "task:1")
        #expect(try fx.step("search", #"{"query":"daffodils"}"#).refID == "note:1")
        #expect(try fx.step("search", #"{"query":"bulbs","kind":"note"}"#).refID == "note:1")
        #expect(try fx.step("search", #"{"query":"zebra"}"#).summary == "nothing matches 'zebra'")
    }

    @Test func searchStemsRanksAndFollowsEveryWrite() throws {
        let fx = try fixture()
        // Stemmed both ways: "booking" finds "Book dentist", "planting" finds "Plant bulbs".
        #expect(try fx.step("search", #"{"query":"booking"}"#).refID == "task:5")
        #expect(try fx.step("search", #"{"query":"planting bulbs"}"#).refID == "task:2")
        // FTS5 syntax in the words is only words.
        #expect(try fx.step("search", #"{"query":"bulbs AND (\"NEAR"}"#).ref?["count"] == .number(3))
        #expect(try fx.step("search", #"{"query":"colour","kind":"milestone"}"#).refID == "milestone:1")
        #expect(try fx.step("search", #"{"query":"the cake"}"#).ref?["count"] == .number(1))
        // Finished items rank under open ones with the same words.
        try fx.step("complete_task", #"{"title":"Buy bulbs"}"#)
        #expect(try fx.step("search", #"{"query":"bulbs","kind":"task"}"#).refID == "task:2")
        // Renames, appends, deletes and their undo all reach the index (triggers, same transaction).
        try fx.step("update_task", #"{"title":"Call Mom","new_title":"Phone grandma"}"#)
        #expect(try fx.step("search", #"{"query":"grandma"}"#).refID == "task:3")
        #expect(try fx.step("search", #"{"query":"mom"}"#).summary == "nothing matches 'mom'")
        try fx.step("append_note", #"{"title":"Bulb varieties","text":"crocus by the gate"}"#)
        #expect(try fx.step("search", #"{"query":"gates"}"#).refID == "note:1")
        try fx.undo()
        #expect(try fx.step("search", #"{"query":"crocus"}"#).summary == "nothing matches 'crocus'")
        try fx.step("delete_task", #"{"title":"Book dentist"}"#)
        #expect(try fx.step("search", #"{"query":"dentist"}"#).summary == "nothing matches 'dentist'")
        try fx.undo()
        #expect(try fx.step("search", #"{"query":"dentist"}"#).refID == "task:5")
        #expect(try fx.count("item_words") == 8)
    }

    @Test func searchLoadsManyHitsOfEveryKind() throws {
        // More hits of one kind than one batch of ids (500), and hits of two kinds.
        let fx = try fixture()
        let steps = (1...1203).map { #"{"tool":"create_task","args":{"title":"Paint fence panel \#($0)"}}"# }
            + [#"{"tool":"create_note","args":{"title":"Fence stain","body":"oak colour, two coats"}}"#]
        try fx.exec(#"{"steps":["# + steps.joined(separator: ",") + "]}")
        let all = try fx.step("search", #"{"query":"fence","limit":"1000"}"#)
        #expect(all.ref?["count"] == .number(1000))
        #expect(try fx.step("search", #"{"query":"fence","kind":"note"}"#).refID == "note:2")
        let tasks = try fx.step("search", #"{"query":"panel 1203","kind":"task"}"#)
        #expect(tasks.refID == "task:1208", "\(tasks.summary ?? "")")
    }

    @Test func projectStatusAndBlockers() throws {
        let fx = try fixture()
        #expect(try fx.step("project_status", #"{"project":"garden"}"#).summary
                == #"project:1 "Garden": 2 open (1 overdue), 0 done, 1 blocked; next milestone "Spring colour" due 2027-03-01"#)
        #expect(try fx.step("project_blockers", #"{"project":"project:1"}"#).summary
                == #"project:1 "Garden": task:2 "Plant bulbs" waits on task:1 "Buy bulbs"; overdue: task:1 "Buy bulbs""#)
        try fx.step("complete_task", #"{"title":"buy bulbs"}"#)
        #expect(try fx.step("project_blockers", #"{"project":"Garden"}"#).summary == #"project:1 "Garden": nothing is blocking it"#)
    }

    @Test func summarizeADayOrAProject() throws {
        let fx = try fixture()
        try fx.step("complete_task", #"{"title":"Call Mom"}"#)
        #expect(try fx.step("summarize").summary
                == #"2026-11-26: 1 due, 1 done, 1 overdue, due: task:2 "Plant bulbs", done: task:3 "Call Mom""#)
        #expect(try fx.step("summarize", #"{"project":"Garden"}"#).summary?.hasSuffix(#"Next: task:1 "Buy bulbs", task:2 "Plant bulbs""#) == true)
    }
}
