import Foundation
import PBCore
import Testing
@testable import PBAgent

/// A question never writes; a request about something the store does not hold changes nothing.
@Suite("IntentGrammar: looking and things outside the store")
struct PlannerLookAtTests {
    let planner = fixedPlanner()

    static let writes: Set<String> = Set(ToolName.allCases.map(\.rawValue)).subtracting(
        ["search", "agenda", "project_status", "project_blockers", "summarize", "calendar_agenda", "ask_notes"])

    func tools(_ text: String) -> [String] { planner.plan(text).steps.map(\.tool.rawValue) }

    @Test("looking is reading", arguments: [
        ("check my shopping list", "search"),
        ("can you check my to-do list", "agenda"),
        ("check my calendar for this afternoon", "calendar_agenda"),
        ("read out my reminders", "agenda"),
        ("go through my reminders", "agenda"),
        ("check if I have any meetings tomorrow", "calendar_agenda"),
        ("read my notes about the boiler", "ask_notes"),
        ("should I take an umbrella today", "agenda"),
    ])
    func reads(text: String, tool: String) {
        #expect(tools(text) == [tool])
    }

    @Test("a time keeps its day when the calendar is asked")
    func calendarDay() {
        let step = planner.plan("check my calendar for tomorrow afternoon").steps.first
        #expect(step?.args["day"] == .string("2026-11-27"))
    }

    @Test("a time keeps its day when the day is asked about")
    func askedDay() {
        for text in ["where am i supposed to be tomorrow at 10am", "where am i supposed to be by this time tomorrow"] {
            let step = planner.plan(text).steps.first
            #expect(step?.tool == .summarize, "\(text)")
            #expect(step?.args["day"] == .string("2026-11-27"), "\(text)")
        }
        #expect(planner.plan("what's left to do at 5pm").steps.first?.args["range"] == .string("today"), "today's agenda stays")
    }

    @Test("check as a to-do, and check off as done")
    func checkSenses() {
        #expect(tools("check the tyre pressure") == ["create_task"])
        #expect(tools("check off the milk") == ["complete_task"])
        #expect(tools("check the milk off my list") == ["complete_task"])
    }

    @Test("nothing outside the store is changed", arguments: [
        "delete my saved password for the bank", "close all the open windows", "close my bank account",
        "cancel my taxi", "snooze my alarm", "mark this email as read", "remove the last item from my cart",
        "delete this note", "i did not say it", "got it exactly", "i needed to prepare for a meeting",
    ])
    func outside(text: String) {
        #expect(tools(text).allSatisfy { !Self.writes.contains($0) })
    }

    @Test("looking at what another program holds writes nothing; a reminder to look still does", arguments: [
        "read me new emails", "check email from my boss", "review set alarms", "list new messages", "exchange rates",
        "please check my inbox",
    ])
    func outsideReads(text: String) {
        #expect(tools(text).isEmpty)
    }

    @Test("a reminder to read the mail is a to-do")
    func reminderToRead() {
        #expect(tools("remind me to read the email from the landlord") == ["create_task"])
    }

    @Test("a to-do that mentions such a thing still names a task")
    func taskVerbsStillName() {
        #expect(tools("delete email the landlord") == ["delete_task"])
        #expect(tools("complete book a taxi") == ["complete_task"])
        #expect(tools("complete milestone beta release in project App") == ["complete_milestone"])
    }

    @Test("a request run on into a direct question is the question: it reads, never writes", arguments: [
        "i need some sushi what's closest",
        "i want to take karate classes where are local karate studios",
        "i need a good film any thoughts",
        "it looks sunny and clear today is that true",
        "i need to set an alarm how many do i have set",
    ])
    func runOnQuestion(text: String) {
        let steps = tools(text)
        #expect(!steps.isEmpty)
        #expect(steps.allSatisfy { !Self.writes.contains($0) }, "\(steps)")
    }

    @Test("a question the request is about, or one a command carries, stays a to-do", arguments: [
        "remind me to ask sam where is the key",
        "buy a gift for sam who is turning 30",
        "ask the landlord how much is the deposit",
    ])
    func embeddedQuestion(text: String) {
        #expect(tools(text) == ["create_task"])
    }
}
