import Foundation
import PBCore
import Testing
@testable import PBAgent

@Suite("IntentGrammar")
struct PlannerIntentGrammarTests {
    let grammar = fixedPlanner().grammar

    func read(_ text: String) -> (ToolName?, [String: JSONValue]) {
        guard let i = grammar.parse(text)?.first else { return (nil, [:]) }
        return (i.tool, i.args)
    }

    @Test("capture rules", arguments: [
        ("remind me to call the bank", "call the bank"),
        ("add a task to renew the car insurance", "renew the car insurance"),
        ("todo: fix the leaking tap", "fix the leaking tap"),
        ("I need to email the landlord", "email the landlord"),
        ("don't forget to feed the fish", "feed the fish"),
        ("put oat milk on my shopping list", "oat milk"),
    ])
    func capture(text: String, title: String) {
        let (tool, args) = read(text)
        #expect(tool == .createTask)
        #expect(args["title"] == .string(title))
    }

    @Test("notes: note, jot down")
    func notes() {
        #expect(read("note: the wifi password is on the router").1["body"] == .string("the wifi password is on the router"))
        #expect(read("jot down that Sam prefers Tuesdays").0 == .createNote)
    }

    @Test("command frames", arguments: [
        ("reschedule the team lunch to Monday", ToolName.rescheduleTask),
        ("snooze the report for 2 hours", .snoozeTask),
        ("set priority of the tax return to high", .setPriority),
        ("make the passport renewal urgent", .setPriority),
        ("make water the plants repeat every week", .setRecurrence),
        ("add milestone design approved to project Website", .addMilestone),
        ("complete milestone design approved", .completeMilestone),
        ("append \"call back after 5\" to note Plumber", .appendNote),
        ("search for boiler", .search),
        ("create project Garden", .createProject),
        ("fix the fence is blocked by buy wood", .addDependency),
    ])
    func commands(text: String, tool: ToolName) {
        #expect(read(text).0 == tool)
    }

    @Test("paraphrases over lemmas", arguments: [
        ("finish the tax return", ToolName.completeTask),
        ("tick the laundry off", .completeTask),
        ("postpone the team meeting to Monday", .rescheduleTask),
        ("delay the invoice by a week", .snoozeTask),
        ("drop the cinema trip", .deleteTask),
        ("cancel the gym booking", .deleteTask),
    ])
    func paraphrases(text: String, tool: ToolName) {
        #expect(read(text).0 == tool)
    }

    @Test("a past tense completes the present-tense task")
    func statements() {
        #expect(read("paid the water bill").1["title"] == .string("pay the water bill"))
        #expect(read("tidied the garage").1["title"] == .string("tidy the garage"))
        #expect(read("the gutters are done").0 == .completeTask)
    }

    @Test("questions route to the agenda, project tools or ask_notes")
    func questions() {
        #expect(read("what's due today?").1["range"] == .string("today"))
        #expect(read("what's on this week").1["range"] == .string("week"))
        #expect(read("what is blocking project Kitchen").1["project"] == .string("Kitchen"))
        #expect(read("how is project Garden going?").0 == .projectStatus)
        let (tool, args) = read("what did the plumber say about the boiler?")
        #expect(tool == .askNotes)
        #expect(args["question"] == .string("what did the plumber say about the boiler?"))
    }

    @Test("urgency cues set priority and leave the title")
    func cues() {
        #expect(read("remind me to take the bins out urgent").1 == ["title": .string("take the bins out"), "priority": .string("high")])
        #expect(read("book the vet!").1["priority"] == .string("high"))
    }

    @Test("an impossible date is left out of the due and kept in the title")
    func impossibleDate() {
        let (_, args) = read("remind me to pay the bill on Feb 30")
        #expect(args["due"] == nil)
        #expect(args["title"] == .string("pay the bill on Feb 30"))
    }

    @Test("out of scope and gibberish read as nothing")
    func nothing() {
        #expect(grammar.parse("what's the weather tomorrow?") == nil)
        #expect(grammar.parse("asdf qwerty") == nil)
    }
}
