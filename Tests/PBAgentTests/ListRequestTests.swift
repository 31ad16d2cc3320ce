import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// Lists are projects: making one however it is said, adding to one that was opened, and deleting
/// one with what is on it (delete_project), which undo puts back whole.
@Suite struct ListRequestTests {

    func planner(_ fx: AgentFixture?) throws -> Planner {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-11-26T18:00:00Z")!
        return Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: try fx.map { try StoreTargets($0.store) })
    }

    @Test("delete_project takes the list, its tasks, milestones and links; undo puts every row back")
    func deleteProjectAndUndo() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}},"# +
                    #"{"tool":"create_task","args":{"title":"eggs","project":"$1"}},{"tool":"add_milestone","args":{"project":"$1","title":"party"}},"# +
                    #"{"tool":"create_task","args":{"title":"call mom"}},{"tool":"link_items","args":{"from":"$2","to":"$5"}}]}"#)
        let s = try fx.step("delete_project", #"{"title":"shopping list"}"#)
        #expect(s.status == .ok, "\(s.error ?? "")")
        #expect(s.summary == "deleted project:1 \"shopping list\" and its 2 tasks")
        #expect(try fx.count("projects") == 0)
        #expect(try fx.count("tasks") == 1, "call mom, on no list, stays")
        #expect(try fx.count("milestones") == 0)
        #expect(try fx.count("links") == 0)
        try fx.undo()
        #expect(try fx.count("projects") == 1)
        #expect(try fx.count("tasks") == 3)
        #expect(try fx.count("milestones") == 1)
        #expect(try fx.count("links") == 1)
        #expect(try fx.task(2)?.projectID == 1)
    }

    @Test("a list said by name is deleted as the list when the store holds it, asked first; as a task when only a task has the name")
    func deletingANamedList() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"camping checklist"}},{"tool":"create_task","args":{"title":"old shopping list"}}]}"#)
        let p = try planner(fx)
        let camping = p.plan("get rid of the camping checklist please")
        #expect(camping.steps.map(\.tool.rawValue) == ["delete_project"])
        #expect(camping.confirm == "delete \"camping checklist\" with every task on it?")
        #expect(try planner(fx).plan("can you delete the old shopping list?").steps.map(\.tool.rawValue) == ["delete_task"])
        #expect(p.plan("delete my party list").steps.isEmpty, "R9: the store holds no such list")
        #expect(try planner(nil).plan("delete my shopping list").steps.map(\.tool.rawValue) == ["delete_task"], "unread store: the reading that takes less")
        #expect(p.plan("delete the list").steps.isEmpty, "no list is named")
    }

    @Test("a list goes only by its whole name: a part of it or a misspelling fails and changes nothing")
    func wholeNameOnly() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}}]}"#)
        for loose in ["shopping", "shoping list", "party shopping list"] {
            let s = try fx.step("delete_project", #"{"title":"\#(loose)"}"#)
            #expect(s.status == .failed, "\(loose)")
        }
        #expect(try fx.count("projects") == 1)
        #expect(try fx.step("delete_project", #"{"title":"the Shopping List"}"#).status == .ok)
    }

    @Test("a request about a list never clears the calendar: it empties the list named", arguments: [
        "delete everything on my shopping list", "remove everything from the shopping list", "clear my shopping list", "empty my shopping list",
    ])
    func listNotCalendar(_ text: String) throws {
        let p = try planner(nil).plan(text)
        #expect(p.steps.map(\.tool.rawValue) == ["clear_project"])
        #expect(p.steps.first?.args == ["title": "shopping list"])
    }

    @Test("a new list however it is said, named; a day said for it is no part of its name", arguments: [
        ("help me start my kitchen list", "kitchen list"), ("create a new list by tomorrow called packing", "packing list"),
        ("make a list called holiday by friday", "holiday list"),
    ])
    func newLists(_ text: String, _ title: String) throws {
        let p = try planner(nil).plan(text)
        #expect(p.steps.map(\.tool.rawValue) == ["create_project"])
        #expect(p.steps.first?.args["title"]?.stringValue == title)
    }

    @Test("a new list with no name is asked its name, not made as \"list\"", arguments: [
        "new list please", "add a new list", "open up a new list", "create a new list by tomorrow", "fresh list",
    ])
    func unnamedNewLists(_ text: String) throws {
        let p = try planner(nil).plan(text)
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == .createProject)
        #expect(p.ask?.needs == .what)
    }

    @Test("a list opened to add to it gets the item, filed into it when the store has it")
    func openedToAdd() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"grocery list"}}]}"#)
        let p = try planner(fx).plan("open grocery list and add milk")
        #expect(p.steps.map(\.tool.rawValue) == ["create_task"])
        #expect(p.steps.first?.args == ["title": "milk", "project": "project:1"])
    }

    @Test("an item taken off a list is the item, not a list named after it")
    func itemOffAList() {
        let p = fixedPlanner().plan("remove apple from my list")
        #expect(p.tools == ["delete_task"])
        #expect(p.steps.first?.args == ["title": "apple"])
    }

    @Test("clear_project empties a list, or only its done tasks; the list, its milestones and other tasks stay; undo puts them back")
    func clearProjectAndUndo() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}},"# +
                    #"{"tool":"create_task","args":{"title":"eggs","project":"$1"}},{"tool":"add_milestone","args":{"project":"$1","title":"party"}},"# +
                    #"{"tool":"create_task","args":{"title":"call mom"}}]}"#)
        try fx.exec(#"{"steps":[{"tool":"complete_task","args":{"title":"eggs"}}]}"#)
        #expect(try fx.step("clear_project", #"{"title":"shopping"}"#).status == .failed, "by its whole name only")
        let done = try fx.step("clear_project", #"{"title":"shopping list","done":true}"#)
        #expect(done.status == .ok, "\(done.error ?? "")")
        #expect(done.summary == "emptied project:1 \"shopping list\": deleted 1 done task: \"eggs\"")
        #expect(try fx.count("tasks") == 2)
        let all = try fx.step("clear_project", #"{"title":"shopping list"}"#)
        #expect(all.summary == "emptied project:1 \"shopping list\": deleted 1 task: \"milk\"")
        #expect(try fx.count("projects") == 1)
        #expect(try fx.count("milestones") == 1)
        #expect(try fx.count("tasks") == 1, "call mom, on no list, stays")
        let empty = try fx.step("clear_project", #"{"title":"shopping list"}"#)
        #expect(empty.status == .ok)
        #expect(empty.summary?.contains("had no tasks; nothing was deleted") == true)
        try fx.undo()
        try fx.undo()
        try fx.undo()
        #expect(try fx.count("tasks") == 3)
        #expect(try fx.task(2)?.projectID == 1)
    }

    @Test("a list emptied by name is one clear_project, asked first; a list not named, or not held, is not emptied", arguments: [
        ("clear my shopping list", "shopping list", false), ("please clean my shopping list", "shopping list", false),
        ("delete everything on the packing list", "packing list", false), ("empty the camping checklist", "camping checklist", false),
        ("clear the done items off my grocery list", "grocery list", true), ("remove all completed tasks from my shopping list", "shopping list", true),
    ] as [(String, String, Bool)])
    func emptyingANamedList(_ text: String, _ title: String, _ done: Bool) throws {
        let p = try planner(nil).plan(text)
        #expect(p.steps.map(\.tool.rawValue) == ["clear_project"])
        var args: [String: JSONValue] = ["title": .string(title)]
        if done { args["done"] = .bool(true) }
        #expect(p.steps.first?.args == args)
        #expect(p.confirm?.contains("(the list stays)") == true)
    }

    @Test("emptying or deleting a list not named asks which; one the store does not hold plans nothing")
    func emptyingNoList() throws {
        for (text, tool) in [("clear my list", ToolName.clearProject), ("clear the list", .clearProject), ("clear my to-do list", .clearProject),
                             ("delete my list", .deleteProject)] {
            let p = try planner(nil).plan(text)
            #expect(p.steps.isEmpty, "\(text)")
            #expect(p.ask?.tool == tool, "\(text)")
            #expect(p.ask?.needs == .list, "\(text)")
            #expect(p.message?.contains("does not say which list") == true, "\(text)")
        }
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"camping checklist"}}]}"#)
        #expect(try planner(fx).plan("clear my shopping list").steps.isEmpty, "R9: no such list")
        #expect(try planner(fx).plan("clear my camping checklist").steps.map(\.tool.rawValue) == ["clear_project"])
    }

    @Test("an item taken off a named list is that list's item only")
    func itemOfThatList() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"eggs","project":"$1"}},"# +
                    #"{"tool":"create_project","args":{"title":"party list"}},{"tool":"create_task","args":{"title":"milk","project":"$3"}}]}"#)
        let plan = try planner(nil).plan("remove milk from my shopping list")
        #expect(plan.steps.first?.args == ["title": "milk", "in_project": "shopping list"])
        let s = try fx.step("delete_task", #"{"title":"milk","in_project":"shopping list"}"#)
        #expect(s.status == .failed, "the shopping list holds no milk")
        #expect(try fx.count("tasks") == 2)
        #expect(try fx.step("delete_task", #"{"title":"milk","in_project":"party list"}"#).status == .ok)
        #expect(try fx.count("tasks") == 1)
    }

    @Test("everything, said of nothing, is not deleted; everything in a named project empties it; a list goes by its whole name")
    func everythingOfWhat() throws {
        for text in ["delete everything", "clear everything", "clear it all"] {
            let p = try planner(nil).plan(text)
            #expect(p.steps.isEmpty, "\(text)")
            #expect(p.message?.contains("what to delete was not said") == true, "\(text)")
        }
        #expect(try planner(nil).plan("delete everything in the work project").steps.first?.args == ["title": "work project"])
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"work shopping list"}}]}"#)
        let p = try planner(fx).plan("clear my shopping list")
        #expect(p.steps.isEmpty, "only a longer name is held")
    }

    @Test("what a later clause adds with no list of its own goes on the list the sentence named")
    func addedToTheListNamed() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"eggs","project":"$1"}}]}"#)
        let p = try planner(fx).plan("clear my shopping list and add milk")
        #expect(p.steps.map(\.tool.rawValue) == ["clear_project", "create_task"])
        #expect(p.steps.last?.args == ["title": "milk", "project": "project:1"])
        #expect(try planner(nil).plan("add milk").steps.isEmpty, "alone, an addition names no list")
    }

    @Test("a chore that names a list the store holds by its whole name empties that list; any other chore stays a task")
    func heldListEmptied() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"Groceries"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}}]}"#)
        let p = try planner(fx)
        #expect(p.plan("clear my groceries").steps.map(\.tool.rawValue) == ["clear_project"])
        #expect(p.plan("clear my groceries").confirm?.contains("\"Groceries\"") == true)
        #expect(p.plan("clear out the garage").steps.map(\.tool.rawValue) == ["create_task"])
        #expect(try planner(nil).plan("clear my groceries").steps.map(\.tool.rawValue) == ["create_task"], "the store unread: a chore")
    }

    @Test("an item of a list goes only from the list of that whole name; emptying a list and adding to it adds anew")
    func wholeListForItems() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"work shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}}]}"#)
        #expect(try fx.step("delete_task", #"{"title":"milk","in_project":"shopping list"}"#).status == .failed)
        #expect(try planner(fx).plan("remove milk from my shopping list").steps.isEmpty, "R9: no list of that whole name")
        let gx = try AgentFixture()
        try gx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"shopping list"}},{"tool":"create_task","args":{"title":"milk","project":"$1"}}]}"#)
        #expect(try planner(gx).plan("clear my shopping list and add milk").steps.map(\.tool.rawValue) == ["clear_project", "create_task"])
    }

    @Test("the next task found by when it is due asks before it is deleted")
    func nextTaskAsks() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"team meeting prep","due":"2026-11-27T12:00:00Z"}}]}"#)
        for text in ["cancel the next one", "cancel my next meeting"] {
            let p = try planner(fx).plan(text)
            #expect(p.steps.map(\.tool.rawValue) == ["delete_task"], "\(text)")
            #expect(p.confirm?.contains("\"team meeting prep\"") == true, "\(text)")
        }
    }
}
