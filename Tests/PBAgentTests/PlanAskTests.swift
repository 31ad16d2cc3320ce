import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// A request understood but not naming what it acts on is asked back (`ask`), never guessed and
/// never written as a stand-in ("a task called 'an item'").
@Suite struct PlanAskTests {

    func planner(_ fx: AgentFixture? = nil) throws -> Planner {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-01T10:00:00Z")!
        return Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: try fx.map { try StoreTargets($0.store) })
    }

    func asked(_ text: String, _ fx: AgentFixture? = nil) throws -> PlanRecord {
        try planner(fx).plan(text)
    }

    @Test("an item taken out but not named: which task", arguments: [
        "delete that item", "please delete this item", "remove that item from my list", "this item should be removed from list",
        "erase that item from my list", "i want you to remove the item from the list", "delete that",
    ])
    func whichTask(_ text: String) throws {
        let p = try asked(text)
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == .deleteTask)
        #expect(p.ask?.needs == .task)
    }

    @Test("a list taken out or emptied but not named: which list", arguments: [
        ("delete the list", ToolName.deleteProject), ("please remove the list", .deleteProject), ("throw away my to do list please", .deleteProject),
        ("clear the list", .clearProject), ("clear my list", .clearProject), ("please clear the list", .clearProject),
    ])
    func whichList(_ text: String, _ tool: ToolName) throws {
        let p = try asked(text)
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == tool)
        #expect(p.ask?.needs == .list)
    }

    @Test("something to be made but not what: what to write, with what was said", arguments: [
        ("add a new item", ToolName.createTask), ("add this to a list", .createTask), ("new item for list", .createTask),
        ("put the item on the list", .createTask), ("set a reminder", .createTask), ("remind me", .createTask),
        ("create a new list", .createProject), ("new list please", .createProject), ("make me a new checklist", .createProject),
        ("schedule an event", .schedule), ("add an event to my calendar tomorrow", .schedule),
    ])
    func whatToWrite(_ text: String, _ tool: ToolName) throws {
        let p = try asked(text)
        #expect(p.steps.isEmpty, "\(p.steps)")
        #expect(p.ask?.tool == tool)
        #expect(p.ask?.needs == .what)
    }

    @Test("what was said besides is kept: the due of a reminder, the list to file into")
    func keepsWhatWasSaid() throws {
        let due = try asked("new reminder at three pm")
        #expect(due.ask?.args?["due"] == .string("2026-12-01T15:00:00+00:00"))
        let list = try asked("add an item to my shopping list")
        #expect(list.ask?.args?["list"] == .string("shopping list"), "the list as said")
        let groceries = try asked("add to my groceries")
        #expect(groceries.ask?.args?["list"] == .string("groceries"))
    }

    @Test("a named thing is never asked about; a request that goes on is not cut at its first words", arguments: [
        "add a task to renew the car insurance", "remove milk from my list", "take out the trash", "delete my shopping list",
        "remind me of my appointment on the fifteenth", "add milk to my shopping list", "create a list called packing",
    ])
    func namedIsNotAsked(_ text: String) throws {
        let p = try asked(text)
        #expect(p.ask == nil)
        #expect(!p.steps.isEmpty)
    }

    @Test("\"scratch that\" is still an undo, and the next event still the next event")
    func idiomsStay() throws {
        #expect(try asked("scratch that").steps.map(\.tool.rawValue) == ["undo"])
        #expect(try asked("cancel my appointment").steps.map(\.tool.rawValue) == ["cancel_event"])
    }

    @Test("with a store, the choices are its lists, open tasks or events to come, at most eight")
    func choicesFromTheStore() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_project","args":{"title":"packing list"}},"# +
                    #"{"tool":"create_task","args":{"title":"milk","project":"$1"}},{"tool":"create_task","args":{"title":"call mom"}}]}"#)
        let list = try asked("clear the list", fx)
        #expect(list.ask?.choices == ["shopping list", "packing list"])
        let task = try asked("delete that item", fx)
        #expect(task.ask?.choices == ["milk", "call mom"])
        #expect(try asked("add a new item", fx).ask?.choices == nil, "what to write has no candidates")
        for i in 1...9 { try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"task \#(i)"}}]}"#) }
        #expect(try asked("delete that item", fx).ask?.choices == nil, "eleven open tasks are too many to list")
    }

    @Test("pb-exec writes nothing for a plan that asks, and carries the question into the result")
    func execCarriesTheAsk() throws {
        let fx = try AgentFixture()
        let plan = try asked("clear the list", fx)
        let line = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        let result = try fx.exec(line)
        #expect(result.ask == plan.ask)
        #expect(result.steps.isEmpty)
        #expect(result.group == nil)
        #expect(ExecCommand.humanSummary(result).contains("? Which list should be emptied?"))
    }
}

@Suite struct PlanAskChoiceTests {
    @Test("an item taken off a named list is asked among that list's tasks; two of one title are told apart")
    func choicesOfTheList() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}},"# +
                    #"{"tool":"create_task","args":{"title":"milk"}},{"tool":"create_task","args":{"title":"bread","project":"$1"}}]}"#)
        let p = try PlanAskTests().asked("remove that item from my shopping list", fx)
        #expect(p.ask?.choices == ["milk", "bread"])
        let all = try PlanAskTests().asked("delete that item", fx).ask?.choices
        #expect(all == ["milk (task:1)", "milk (task:2)", "bread"], "\(String(describing: all))")
    }
}

@Suite struct PlanAskFurtherTests {
    @Test("stand-ins said other ways are asked too, with the tool they name", arguments: [
        ("remind me to do it", ToolName.createTask), ("remind me about it", .createTask), ("remind me later", .createTask), ("jot this down", .createNote),
        ("make a note", .createNote), ("add a few things to my shopping list", .createTask), ("set a reminder at thre pm", .createTask),
        ("schedule something", .schedule), ("schedule it for friday at 3pm", .schedule), ("add an appointment on friday at 3pm", .schedule),
        ("delete that event", .cancelEvent), ("cancel this event", .cancelEvent), ("mark it done", .completeTask), ("make it urgent", .setPriority),
    ])
    func asked(_ text: String, _ tool: ToolName) throws {
        let p = try PlanAskTests().asked(text)
        #expect(p.steps.isEmpty, "\(p.steps)")
        #expect(p.ask?.tool == tool)
    }

    @Test("an event's time is kept as its start; a task's due as its due")
    func timesKept() throws {
        #expect(try PlanAskTests().asked("book something for friday at 3pm").ask?.args?["start"] == "2026-12-04T15:00:00+00:00")
        #expect(try PlanAskTests().asked("remind me of it on friday").ask?.args?["due"] == "2026-12-04")
    }

    @Test("a task to do something with a list is that task; a to-do list is a list's name; an alarm and \"cancel it\" are not asked", arguments: [
        ("add a task to print the guest list", "create_task"), ("add a to-do to check the list", "create_task"), ("create a to do list", "create_project"),
    ])
    func notAsked(_ text: String, _ tool: String) throws {
        let p = try PlanAskTests().asked(text)
        #expect(p.ask == nil)
        #expect(p.steps.map(\.tool.rawValue) == [tool])
    }

    @Test("\"cancel it\" alone and an alarm are never asked about")
    func stopAndAlarm() throws {
        #expect(try PlanAskTests().asked("please would you cancel it").ask == nil)
        #expect(try PlanAskTests().asked("set an alarm").ask == nil)
    }

    @Test("a list named by its id, as a session writes it, is the list's own tool, asked first")
    func listById() throws {
        let p = try PlanAskTests().asked("delete project:3")
        #expect(p.steps.map(\.tool.rawValue) == ["delete_project"])
        #expect(p.steps.first?.args == ["id": "project:3"])
        #expect(p.confirm != nil)
        #expect(try PlanAskTests().asked("clear project:2").steps.map(\.tool.rawValue) == ["clear_project"])
    }

    @Test("an event named by its UID, as a session writes \"delete that event\", is cancelled by it, asked first")
    func eventByUID() throws {
        let p = try PlanAskTests().asked("delete event:pb-event-1@pocketbrains")
        #expect(p.steps.map(\.tool.rawValue) == ["cancel_event"])
        #expect(p.steps.first?.args == ["uid": "pb-event-1@pocketbrains"])
        #expect(p.confirm?.contains("out of PocketBrains' calendar") == true)
    }

    @Test("pb-exec refuses a plan with an ask beside steps: they would run before it is answered")
    func askWithSteps() throws {
        let fx = try AgentFixture()
        #expect(throws: RecordError.self) {
            try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"sneaky"}}],"ask":{"tool":"delete_task","needs":"task","question":"Which?"}}"#)
        }
        #expect(try fx.count("tasks") == 0)
    }
}

@Suite struct PlanAskModelTests {
    @Test("R7 rejects a stand-in a model's plan names, as the grammar asks instead of writing it", arguments: [
        (ToolName.createTask, "new item"), (.createProject, "new list"), (.createTask, "a thing"), (.schedule, "event"),
    ])
    func standInRejected(_ tool: ToolName, _ title: String) throws {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-01T10:00:00Z")!
        let r = PlanReconciler(dates: DateSlot(parser: NaturalDateParser(now: now, timeZone: zone)))
        let plan = PlanRecord(text: "add it", steps: [PlanStep(n: 1, tool: tool, args: ["title": .string(title)])])
        #expect(r.reconcile(plan, request: "add \(title)", capture: false, listAll: false).steps.isEmpty)
        let kept = PlanRecord(text: "take notes", steps: [PlanStep(n: 1, tool: .createTask, args: ["title": "take notes"])])
        #expect(r.reconcile(kept, request: "take notes", capture: false, listAll: false).steps.count == 1, "a thing to do about notes stays")
    }

    @Test("\"delete this note\" is not asked as a task: no task tool acts on a note")
    func otherKinds() throws {
        #expect(try PlanAskTests().asked("delete this note").ask == nil)
    }
}
