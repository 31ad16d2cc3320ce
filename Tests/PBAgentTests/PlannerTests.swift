import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// A planner at Thursday 2026-11-26 10:00 UTC, shared by the planner suites.
func fixedPlanner(_ now: String = "2026-11-26T10:00:00Z") -> Planner {
    let zone = TimeZone(secondsFromGMT: 0)!
    let date = DateValueFormat(timeZone: zone).parseInstant(now)!
    return Planner(parser: NaturalDateParser(now: date, timeZone: zone))
}

extension PlanRecord {
    var tools: [String] { steps.map(\.tool.rawValue) }
    func arg(_ step: Int, _ key: String) -> String? {
        switch steps[step].args[key] {
        case .string(let s)?: return s
        case .number(let d)?: return String(Int(d))
        default: return nil
        }
    }
}

@Suite("Planner")
struct PlannerTests {
    let planner = fixedPlanner()

    @Test("the acceptance sentence plans three tasks with their dates")
    func acceptance() {
        let p = planner.plan("Call Mom tonight, grab the birthday cake Saturday, and get the dentist booked before next week")
        #expect(p.tools == ["create_task", "create_task", "create_task"])
        #expect(p.arg(0, "title") == "Call Mom")
        #expect(p.arg(0, "due") == "2026-11-26T18:00:00+00:00")
        #expect(p.arg(0, "due_grain") == "part_of_day")
        #expect(p.arg(1, "title") == "grab the birthday cake")
        #expect(p.arg(1, "due") == "2026-11-28")
        #expect(p.arg(2, "title") == "get the dentist booked")
        #expect(p.arg(2, "due") == "2026-11-29")
        #expect(p.source == "grammar")
        #expect(p.now == "2026-11-26T10:00:00+00:00")
    }

    @Test("tasks after create project are filed into it by $1")
    func projectFiling() {
        let p = planner.plan("create project Move, then remind me to book the van and pack the kitchen")
        #expect(p.tools == ["create_project", "create_task", "create_task"])
        #expect(p.arg(1, "project") == "$1")
        #expect(p.arg(2, "project") == "$1")
    }

    @Test("a dollar sign in the user's words stays text through pb-exec")
    func dollarsAreText() throws {
        let p = planner.plan("create project called $$5")
        #expect(p.tools == ["create_project"])
        #expect(p.arg(0, "title") == "$$$5")
        // Through the executor, exactly as typed.
        let fx = try AgentFixture()
        let r = try PlanExecutor(store: fx.store, calendarDirectory: fx.home.path, defaultNow: fx.now).execute(p)
        #expect(r.status == .ok)
        #expect(try fx.store.project(1)?.title == "$$5")
        let q = planner.plan("remind me to pay $1 to Sam")
        #expect(q.arg(0, "title")?.hasPrefix("$") != true || q.arg(0, "title")?.hasPrefix("$$") == true)
        // A title that is just "$1": "mark $1 as done" must not complete step 1's item.
        try fx.step("create_task", #"{"title":"$$1"}"#)
        let m = planner.plan("mark $1 as done")
        #expect(m.tools == ["complete_task"])
        #expect(m.arg(0, "id") == "$$1" || m.arg(0, "title") == "$$1")
        let done = try PlanExecutor(store: fx.store, calendarDirectory: fx.home.path, defaultNow: fx.now).execute(m)
        #expect(done.status == .ok, "\(done.message)")
        #expect(try fx.task(1)?.status == "done")
    }

    @Test("a pronoun refers to the item made earlier in the plan")
    func pronounToStep() {
        let p = planner.plan("remind me to call the bank and make it urgent")
        #expect(p.tools == ["create_task", "set_priority"])
        #expect(p.arg(1, "id") == "$1")
        #expect(p.arg(1, "priority") == "high")
    }

    @Test("a pronoun refers to an existing item by its title")
    func pronounToTitle() {
        let p = planner.plan("move the report to Monday and make it urgent")
        #expect(p.tools == ["reschedule_task", "set_priority"])
        #expect(p.arg(1, "title") == "the report")
    }

    @Test("a pronoun with nothing before it is left out and asked which task")
    func pronounUnresolved() {
        let p = planner.plan("make it urgent")
        #expect(p.source == "fallback")
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == .setPriority)
        #expect(p.ask?.needs == .task)
        #expect(p.message?.contains("does not say which task") == true)
    }

    @Test("nothing matched: no steps, source fallback, a message")
    func fallback() {
        let p = planner.plan("play some jazz")
        #expect(p.steps.isEmpty)
        #expect(p.source == "fallback")
        #expect(p.message?.hasPrefix("nothing matched") == true)
    }

    @Test("a clause nothing read is named in the message, the rest is planned")
    func partial() {
        let p = planner.plan("buy milk. banana")
        #expect(p.tools == ["create_task"])
        #expect(p.message?.contains("banana") == true)
    }

    @Test("a multi-line dump is captured: tasks, then one note with the rest")
    func captureDump() {
        let p = planner.plan("- email Sam the slides by Friday\n- book the venue asap\n- budget looks tight this quarter")
        #expect(p.source == "capture")
        #expect(p.tools == ["create_task", "create_task", "create_note"])
        #expect(p.arg(1, "priority") == "high")
        #expect(p.arg(2, "body") == "budget looks tight this quarter")
        // A capture lists every rule, R1 to R9, fired or not.
        guard case .array(let rules)? = p.rules else { Issue.record("no rules"); return }
        let ids = rules.compactMap { rule -> String? in
            guard case .object(let r) = rule else { return nil }
            return r["id"]?.stringValue
        }
        #expect(ids.sorted() == (1...9).map { "R\($0)" })
    }

    @Test("three sentences on one line are a dump too")
    func threeSentences() {
        #expect(planner.looksLikeDump("Call Sam. Buy milk. The car is fine."))
        #expect(!planner.looksLikeDump("Call Sam and buy milk"))
    }

    @Test("a second task that says 'it' about the first is one task with it")
    func pronounTasksJoin() {
        let p = planner.plan("buy a cake and bring it to the party on Saturday")
        #expect(p.tools == ["create_task"])
        #expect(p.arg(0, "title") == "buy a cake and bring it to the party")
        #expect(p.arg(0, "due") == "2026-11-28")
        // Not across a new part of the request, nor when the second step acts on the first.
        #expect(planner.plan("remind me to call the bank and make it urgent").tools == ["create_task", "set_priority"])
    }

    @Test("meeting actions keep whose they are; a date label is the due date; a list label goes")
    func captureLabels() throws {
        // The Actions list of the bundled meeting notes, as written.
        let notes = try String(contentsOfFile: "Tests/Fixtures/samples/meeting-notes-2024-03-12.md", encoding: .utf8)
        let actions = String(notes[notes.range(of: "## Actions")!.lowerBound...])
        let p = fixedPlanner("2024-03-12T21:00:00Z").plan(actions)
        #expect(p.source == "capture")
        #expect(p.arg(0, "title") == "Joe: book Delta Plumbing for the stopcock and second tap")
        #expect(p.arg(0, "due") == "2024-03-31")
        #expect(p.arg(1, "title") == "Tom: draft the fee proposal for the AGM and send it round")
        #expect(p.arg(1, "due") == "2024-03-30")
        #expect(p.arg(3, "title") == "Amara: change the shed padlock code and text it to members")
        guard case .string(let body)? = p.steps.last?.args["body"] else { Issue.record("no note"); return }
        #expect(body.contains("Lucía: newsletter note about green waste"))
        let weekend = planner.plan("Weekend: clean the car, mow the lawn. Todo: fix the gate. Greta will order compost.", capture: true)
        #expect(weekend.tools == ["create_task", "create_task", "create_task", "create_task"])
        #expect(weekend.arg(0, "title") == "clean the car" && weekend.arg(1, "title") == "mow the lawn")
        #expect(weekend.arg(0, "due") == "2026-11-28" && weekend.arg(1, "due") == "2026-11-28")
        #expect(weekend.arg(2, "title") == "fix the gate")
        #expect(weekend.arg(3, "title") == "Greta: order compost")
    }

    @Test("the same text and now give the same plan")
    func deterministic() {
        let text = "add 3 tasks: buy milk, email Sam and book flights"
        #expect(planner.plan(text) == fixedPlanner().plan(text))
    }
}

@Suite("Planner: new lists")
struct PlannerNewListTests {
    @Test("a new list keeps the word said for it, so its title is grounded", arguments: [
        ("create packing checklist", "packing checklist"), ("create a shopping list", "shopping list"), ("make me a new checklist called camping", "camping checklist"),
    ])
    func newList(text: String, title: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["create_project"])
        #expect(p.arg(0, "title") == title)
    }
}
