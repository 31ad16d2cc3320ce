import Foundation
import PBCore
import Testing
@testable import PBAgent

/// Every construction of the grammar's table plans its own examples as it says, and pb-plan(1)
/// lists each one with them.
@Suite("Constructions")
struct ConstructionTests {
    @Test("each construction's examples plan the tools it names", arguments: IntentGrammar.constructions.flatMap { k in k.examples.map { (k.name, $0.request, $0.tools.map(\.rawValue)) } })
    func examples(_ name: String, _ request: String, _ tools: [String]) {
        #expect(fixedPlanner("2026-12-05T10:00:00Z").plan(request).tools == tools, "\(name)")
    }

    @Test("pb-plan(1) lists every construction with its examples")
    func documented() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/man1/pb-plan.1")
        let text = try String(contentsOf: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        for k in IntentGrammar.constructions {
            #expect(text.contains(k.name), "pb-plan(1) does not name \"\(k.name)\"")
            for e in k.examples { #expect(text.contains(e.request), "pb-plan(1) lacks the example \"\(e.request)\"") }
        }
    }

    @Test("a priority label keeps the rest's reading; a snooze to a day keeps no title of the day")
    func slots() {
        let p = fixedPlanner("2026-12-05T10:00:00Z").plan("urgent: renew the car tax by the 27th")
        #expect(p.steps.first?.args["priority"] == .string("high"))
        #expect(p.steps.first?.args["title"] == .string("renew the car tax"))
        let s = fixedPlanner("2026-12-05T10:00:00Z").plan("snooze the boiler call until tuesday")
        #expect(s.steps.first?.args["title"] == .string("the boiler call"))
        #expect(s.steps.first?.args["due"] == .string("2026-12-08"))
        #expect(fixedPlanner().plan("snooze the report for 2 days").tools == ["snooze_task"], "a duration stays a snooze")
        #expect(fixedPlanner().plan("tomorrow is a holiday").steps.isEmpty, "a day said first needs a request after it")
    }
}

/// The constructions over a whole sentence or request: a verb over a list, a message written
/// out and then sent on, and a move that keeps the time a task had.
@Suite("Sentence constructions")
struct SentenceConstructionTests {
    func store(_ tasks: [(String, String?)]) -> Planner {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        var targets = StoreTargets(tasks: tasks.enumerated().map { .init(ref: "task:\($0.offset + 1)", title: $0.element.0, open: true) })
        for (i, t) in tasks.enumerated() { if let due = t.1 { targets.dues["task:\(i + 1)"] = due } }
        return Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: targets)
    }

    @Test("one verb over a list is one change per item, never new tasks")
    func lists() {
        let s = store([("call mom", nil), ("book dentist", nil), ("buy milk", nil), ("pay rent", nil)])
        #expect(s.plan("delete pay rent, call mom and buy milk").tools == ["delete_task", "delete_task", "delete_task"])
        #expect(s.plan("complete call mom and book dentist").tools == ["complete_task", "complete_task"])
        #expect(s.plan("mark pay rent and buy milk as done").tools == ["complete_task", "complete_task"])
        #expect(s.plan("delete pay rent and call the bank").tools == ["delete_task", "create_task"], "the store holds no 'call the bank'")
        // Without the store, only a list of three or more with commas.
        #expect(fixedPlanner().plan("delete pay rent, call mom and buy milk").tools == ["delete_task", "delete_task", "delete_task"])
        #expect(fixedPlanner().plan("cancel the dentist and call mum").tools == ["delete_task", "create_task"])
    }

    @Test("a message written out and sent on is one draft to the person greeted, on the channel said")
    func addressed() {
        let p = fixedPlanner().plan("Hey Sam, thanks for dinner last night, lets do it again in january! send it to him on whatsapp")
        #expect(p.tools == ["draft_message"])
        #expect(p.steps.first?.args == ["to": "Sam", "channel": "whatsapp", "text": "Hey Sam, thanks for dinner last night, lets do it again in january"])
        let q = fixedPlanner().plan("Hi Priya, the deck is attached. Send this to her now")
        #expect(q.steps.first?.args["to"] == "Priya")
        #expect(q.steps.first?.args["text"] == "Hi Priya, the deck is attached")
        #expect(fixedPlanner().plan("Thanks, send it to him").tools != ["draft_message"])
    }

    @Test("a task named by when it is due is the one the store has due then, by its id")
    func namedByDue() {
        let s = store([("HeatRight call", "2026-12-07T10:00:00+00:00"), ("ring the plumber", "2026-12-06T09:30:00+00:00")])
        let p = s.plan("move tomorrow morning's task to friday")
        #expect(p.steps.first?.args == ["id": "task:2", "due": "2026-12-11T09:30:00+00:00", "due_grain": "minute"])
        #expect(s.plan("move monday's task to friday").steps.first?.args["id"] == "task:1")
        #expect(s.plan("move wednesday's task to friday").steps.isEmpty, "no task is due then: R9 says so")
    }

    @Test("a request cut short, emptying a whole list, or converting an amount plans nothing, and says why", arguments: [
        ("remind me to", "stops before"), ("clear my list", "whole list"), ("delete all my tasks", "whole list"),
        ("whats 100 euros in pounds", "converting amounts"),
    ])
    func declined(_ text: String, _ why: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.isEmpty)
        #expect(p.extra["message"]?.stringValue?.contains(why) == true)
    }

    @Test("a task put on a named list is filed into the store's project of that name, and is a task of its own otherwise")
    func namedLists() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        let s = Planner(parser: NaturalDateParser(now: now, timeZone: zone),
                        targets: StoreTargets(projects: [.init(ref: "project:1", title: "School supplies", open: true),
                                                         .init(ref: "project:2", title: "Grocery list", open: true)]))
        #expect(s.plan("add pencils to the school supplies list").steps.first?.args == ["title": "pencils", "project": "project:1"])
        #expect(s.plan("on my grocery list please add oranges").steps.first?.args == ["title": "oranges", "project": "project:2"])
        #expect(s.plan("grocery list add eggs").steps.first?.args["project"] == "project:2")
        #expect(s.plan("add a mop to the hardware store list").steps.first?.args == ["title": "a mop"], "no such list: a task of its own")
        #expect(fixedPlanner().plan("put oat milk on my shopping list").steps.first?.args == ["title": "oat milk"])
    }

    @Test("emptying a whole calendar or list plans nothing, in the many ways people say it; a chore stays a task", arguments: [
        ("clean my entire calendar", true), ("clear my calendar for saturday", true), ("make my calendar empty", true),
        ("clear all events for this month", true), ("i want all my events deleted", true), ("remove all events from my calendar", true),
        ("clear the gutters", false), ("empty the dishwasher", false), ("clean the kitchen", false),
    ])
    func bulkClear(_ text: String, _ declined: Bool) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.isEmpty == declined, "\(p.steps.map(\.tool))")
        if declined { #expect(p.extra["message"]?.stringValue?.contains("whole list") == true) }
    }

    @Test("a name typed in lower case is a person when the contacts know it")
    func lowerCasePeople() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        let p = Planner(parser: NaturalDateParser(now: now, timeZone: zone), people: ["priya", "priya shah"])
        #expect(p.plan("coffee with priya tomorrow at 11 to go over the mockups").steps.first?.args["attendees"] == .array(["priya"]))
        #expect(p.plan("lunch with the team tomorrow at 1").steps.first?.args["attendees"] == nil)
        #expect(fixedPlanner().plan("coffee with priya tomorrow at 11").steps.first?.args["attendees"] == nil, "no contacts, no people")
    }

    @Test("a move to another day keeps the task's time, unless a time is said")
    func keepsTime() {
        let s = store([("vet", "2026-12-08T09:00:00+00:00"), ("bins", "2026-12-08")])
        #expect(s.plan("bump the vet to friday").steps.first?.args["due"] == "2026-12-11T09:00:00+00:00")
        #expect(s.plan("move the vet to friday at 2pm").steps.first?.args["due"] == "2026-12-11T14:00:00+00:00")
        #expect(s.plan("move the bins to friday").steps.first?.args["due"] == "2026-12-11", "a task with a day only keeps a day")
    }
}
