import Foundation
import Testing
@testable import PBAgent

/// Requests as they are said to a voice assistant: a wake word first, a question with no question
/// word, a thing of the calendar named by its kind. No store is read (as `pb-plan --no-store`).
@Suite("IntentGrammar: requests said to an assistant")
struct PlannerAssistantPhrasingTests {
    let planner = fixedPlanner()

    @Test("a wake word after a greeting, or alone before a request, is filler; a name before a statement is not", arguments: [
        ("hey olly on the twentieth clear my calendar", "cancel_event"),
        ("hi siri, remind me to call mum tomorrow", "create_task"),
        ("ok google add milk to my shopping list", "create_task"),
        ("olly remind me to water the plants", "create_task"),
    ])
    func wakeWords(text: String, tool: String) {
        #expect(planner.plan(text).tools == [tool], "\(text)")
    }

    @Test("the wake word is no part of what is written")
    func wakeWordNotInTitle() {
        let plan = planner.plan("olly remind me to water the plants")
        #expect(plan.arg(0, "title") == "water the plants")
        #expect(planner.plan("olly needs a lift friday").tools.allSatisfy { $0 != "delete_task" })
    }

    @Test("a question with no question word reads what is held", arguments: [
        ("events happening between eight am and five pm today", "calendar_agenda"),
        ("my weekly plan", "calendar_agenda"),
        ("to do list for today please", "agenda"),
        ("on my calendar are there any birthdays", "calendar_agenda"),
        ("provide the contents of the list", "search"),
        ("need information about events before shift ends", "calendar_agenda"),
        ("describe my shopping list", "search"),
    ])
    func questionsWithoutAQuestionWord(text: String, tool: String) {
        #expect(planner.plan(text).tools == [tool], "\(text)")
    }

    @Test("between two times of a day said, the calendar of that day is read")
    func betweenTwoTimes() {
        let step = planner.plan("events happening between eight am and five pm today").steps.first
        #expect(step?.args["day"] == .string("2026-11-26"), "eight am is past, but today was said")
    }

    @Test("crossing a thing off a named list takes it off that list")
    func crossedOff() {
        for text in ["cross out bread from shopping list", "cross bread off my shopping list"] {
            let plan = planner.plan(text)
            #expect(plan.tools == ["delete_task"], "\(text)")
            #expect(plan.arg(0, "title") == "bread", "\(text)")
            #expect(plan.arg(0, "in_project") == "shopping list", "\(text)")
        }
    }

    @Test("a date said after a list's name says which list, not its name; a date in the name stays")
    func listsWithADateAfter() {
        #expect(planner.plan("clear my gym list for today").arg(0, "title") == "gym list")
        #expect(planner.plan("clear my christmas list").arg(0, "title") == "christmas list")
        #expect(planner.plan("i want you to delete my shopping list from last month").arg(0, "title") == "shopping list")
    }

    @Test("a list is no question: 'today's schedule' asks, 'i'm done with today's to do list' does not")
    func statementsAboutLists() {
        #expect(planner.plan("today's schedule").tools == ["calendar_agenda"])
        #expect(planner.plan("i'm done with today's to do list").tools != ["agenda"])
        #expect(planner.plan("delete my list of appointments for tomorrow").tools != ["cancel_event"], "a list of them is no event")
    }

    @Test("taking out an appointment or meeting on a day said, or a thing called an event, cancels an event")
    func eventsByTheirKind() {
        let plan = planner.plan("remove the dentist appointment on friday")
        #expect(plan.tools == ["cancel_event"])
        #expect(plan.arg(0, "title") == "dentist appointment")
        #expect(plan.arg(0, "on") == "2026-11-27")
        #expect(planner.plan("delete my meeting with sam tomorrow").tools == ["cancel_event"])
        #expect(planner.plan("remove the birthday event on sunday").arg(0, "title") == "birthday")
        #expect(planner.plan("delete the meeting notes").tools == ["delete_task"], "notes are no event")
        #expect(planner.plan("cancel the dentist appointment").tools == ["delete_task"], "no day said: the store decides")
        let cleared = planner.plan("clear off the vet appointment tomorrow")
        #expect(cleared.tools == ["cancel_event"])
        #expect(cleared.arg(0, "title") == "vet appointment")
        #expect(planner.plan("clear the meeting room tomorrow").tools == ["create_task"], "a room is no event")
    }

    @Test("what the hostile probe found: crossing without off, news of a cancellation, an event off a to-do list, a new year's list")
    func probed() {
        #expect(planner.plan("cross stitch a pillow for mum").tools == ["create_task"])
        #expect(planner.plan("tick box on the form").tools != ["complete_task"])
        #expect(planner.plan("cross out the milk").tools == ["complete_task"])
        let news = planner.plan("the dentist appointment on friday was cancelled")
        #expect(news.tools == ["cancel_event"])
        #expect(news.arg(0, "on") == "2026-11-27")
        #expect(planner.plan("remove the dentist appointment on friday from my to-do list").tools == ["delete_task"])
        #expect(planner.plan("my new year's resolution list").arg(0, "title") != "year's resolution list")
    }

    @Test("a new list named, said alone, makes it; a new list with no name is asked")
    func newListsSaidAlone() {
        let plan = planner.plan("my new work schedule list")
        #expect(plan.tools == ["create_project"])
        #expect(plan.arg(0, "title") == "work schedule list")
        #expect(planner.plan("a new list to be created by tomorrow").ask?.needs == .what)
    }
}
