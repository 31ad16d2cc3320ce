import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// Every construction of the grammar's table plans its own examples as it says, and pb-plan(1)
/// lists each one with them.
@Suite("Constructions")
struct ConstructionTests {
    @Test("each construction's examples plan the tools it names", arguments: (IntentGrammar.constructions + IntentGrammar.lateConstructions).flatMap { k in k.examples.map { (k.name, $0.request, $0.tools.map(\.rawValue)) } })
    func examples(_ name: String, _ request: String, _ tools: [String]) {
        #expect(fixedPlanner("2026-12-05T10:00:00Z").plan(request).tools == tools, "\(name)")
    }

    @Test("pb-plan(1) lists every construction with its examples")
    func documented() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/man1/pb-plan.1")
        let text = try String(contentsOf: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        for k in IntentGrammar.constructions + IntentGrammar.lateConstructions {
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

    @Test("a list is distributed only over a change verb and items the store holds by title")
    func listsAreNotRestatements() {
        let s = store([("clear the gutters", nil), ("water the plants", nil), ("drop off the parcel", nil), ("pick up milk", nil),
                       ("book dinner for our anniversary", nil), ("email the landlord", nil), ("write the report", nil)])
        #expect(!s.plan("clear the gutters and water the plants").tools.contains("delete_task"))
        #expect(!s.plan("drop off the parcel and pick up milk").tools.contains("delete_task"))
        #expect(s.plan("cancel dinner and email the landlord").tools.filter { $0 == "delete_task" }.count <= 1)
        #expect(!s.plan("finish the report and email the landlord").tools.allSatisfy { $0 == "complete_task" })
    }

    @Test("a task named by when it is due must be one its noun fits; a kept time is a day's and never past")
    func dueNamesAndKeptTimes() {
        let s = store([("buy milk", "2026-12-06"), ("pay rent", "2026-12-08T09:00:00+00:00"), ("team meeting", "2026-12-06T15:00:00+00:00")])
        #expect(s.plan("move tomorrow's meeting to friday").steps.first?.args["id"] == "task:3")
        #expect(s.plan("move tomorrow's call to monday").steps.first?.args["id"] == nil, "no call is due tomorrow")
        #expect(s.plan("push pay rent to next week").steps.first?.args["due_grain"] == "week")
        #expect(s.plan("snooze pay rent until the weekend").steps.first?.args["due_grain"] == "weekend")
        #expect(s.plan("move pay rent to today").steps.first?.args["due"] == "2026-12-05", "09:00 today is past: the day stands")
    }

    @Test("a single request is a duplicate only of an open task with the same title")
    func singleDuplicates() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        var targets = StoreTargets(tasks: [.init(ref: "task:1", title: "drive mum to the airport", open: true)])
        targets.dues["task:1"] = "2026-12-12"
        let p = Planner(parser: NaturalDateParser(now: now, timeZone: zone), openTasks: [StoredItem(ref: "task:1", text: "drive mum to the airport")], targets: targets)
        #expect(p.plan("remind me to drive mum from the airport on saturday").tools == ["create_task"])
        #expect(p.plan("remind me to drive mum to the airport on saturday").steps.isEmpty)
    }

    @Test("a message goes to a person: the one named in the sending sentence, else the one greeted; never a word like 'reminder'")
    func messagesGoToPeople() {
        #expect(fixedPlanner().plan("Sure, saturday works. send it to Sam").steps.first?.args["to"] == "Sam")
        #expect(fixedPlanner().plan("Team, standup moves to 10 tomorrow. send this to Priya on whatsapp").steps.first?.args["to"] == "Priya")
        #expect(fixedPlanner().plan("text reminder: call the bank tomorrow").tools == ["create_task"])
        #expect(fixedPlanner().plan("email Sam re: budget numbers are in").tools != ["draft_message"] || fixedPlanner().plan("email Sam re: budget numbers are in").steps.first?.args["to"] == "Sam")
        #expect(fixedPlanner().plan("reply to the landlord with photos of the damp by friday").tools == ["create_task"])
        #expect(fixedPlanner().plan("reply to the email saying I'm in").tools != ["draft_message"])
    }

    @Test("the spelling corrector leaves names, short words and titles alone", arguments: [
        "text yash that I'm running late", "renew the rego next week", "pay the util bill friday", "remind me to call mum tomo",
    ])
    func spellingLeavesWords(_ text: String) {
        #expect(fixedPlanner().plan(text).message?.hasPrefix("read ") != true)
    }

    @Test("chores that mention a day, events or a list are tasks, not a list emptied", arguments: [
        "clean the events tent before saturday", "empty the day bag", "clear everything off the kitchen counter",
        "clear out the events budget spreadsheet", "I need all my boxes removed from the garage by saturday",
    ])
    func choresStayTasks(_ text: String) {
        #expect(fixedPlanner().plan(text).tools == ["create_task"])
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

    @Test("a request cut short, emptying a list not named, or converting an amount plans nothing, and says why", arguments: [
        ("remind me to", "does not say what to write"), ("clear my list", "does not say which list"), ("delete all my tasks", "does not say which list"),
        ("whats 100 euros in pounds", "converting amounts"), ("i need you to", "stops before it says what to do"),
        ("i'd love you to", "stops before it says what to do"),
    ])
    func declined(_ text: String, _ why: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.isEmpty)
        #expect(p.message?.contains(why) == true)
    }

    @Test("to mark a day, or mark something as other than done, is never to complete a task", arguments: ["mark next monday as a holiday", "mark friday", "i need you to mark next monday"])
    func markedNotDone(_ text: String) {
        #expect(!fixedPlanner().plan(text).tools.contains("complete_task"))
        #expect(fixedPlanner().plan("mark the dentist as done").tools == ["complete_task"])
    }

    @Test("marked as paid, bought or sent, or \"mark as done X\", is a completion of X", arguments: [
        ("mark the gas bill as paid", "the gas bill"), ("mark milk bought", "milk"), ("mark as done the gas bill", "the gas bill"),
        ("mark the invoice as sent", "the invoice"),
    ])
    func markedDoneOtherwise(_ text: String, _ title: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["complete_task"])
        #expect(p.steps.first?.args["title"]?.stringValue == title)
    }

    @Test("a whole list to empty that is not named is asked for, with the store's lists as choices", arguments: ["delete all my tasks", "clear list", "delete all lists"])
    func emptyingAsked(_ text: String) {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        let s = Planner(parser: NaturalDateParser(now: now, timeZone: zone),
                        targets: StoreTargets(projects: [.init(ref: "project:1", title: "Groceries", open: true)]))
        let p = s.plan(text)
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == .clearProject)
        #expect(p.ask?.needs == .list)
        #expect(p.ask?.choices == ["Groceries"])
    }

    @Test("a request put to the assistant (\"I need you to ...\") is the request it puts, never a to-do of that wording", arguments: [
        ("i need you to delete milk from my shopping list", "delete_task"), ("i'd like you to remind me to call mum tomorrow", "create_task"),
        ("we want you to take the gas bill off my list", "delete_task"),
    ])
    func putToAssistant(_ text: String, _ tool: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools.first == tool)
        #expect(p.steps.first?.args["title"]?.stringValue?.hasPrefix("you") != true)
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

    @Test("emptying a list not named plans nothing, in the many ways people say it; a chore stays a task (a calendar: CancelEventTests)", arguments: [
        ("clear my list", true), ("delete all my tasks", true), ("make my list empty", true), ("i want all my reminders deleted", true),
        ("clear the gutters", false), ("empty the dishwasher", false), ("clean the kitchen", false), ("clear the events tent", false),
    ])
    func bulkClear(_ text: String, _ declined: Bool) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.isEmpty == declined, "\(p.steps.map(\.tool.rawValue))")
        if declined { #expect(p.message?.contains("which list") == true) }
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
