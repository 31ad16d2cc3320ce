import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// Taking events out of PocketBrains' own calendar: the cancel_event tool, its undo, and how the
/// planner comes to it (a title the store holds as an event, or emptying the calendar).
@Suite struct CancelEventTests {

    /// Three events written by `schedule`, and a work calendar in the folder that is only read.
    func scheduled() throws -> AgentFixture {
        let fx = try AgentFixture()
        fx.now = "2026-12-02T08:00:00Z"
        try fx.exec(#"{"steps":[{"tool":"schedule","args":{"title":"Vet appointment","start":"2026-12-03T09:00:00Z"}},"# +
                    #"{"tool":"schedule","args":{"title":"Dentist","start":"2026-12-04T15:00:00Z"}},"# +
                    #"{"tool":"schedule","args":{"title":"Dinner with mom","start":"2026-12-04T19:00:00Z"}}]}"#)
        let work = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:team@t\r\nDTSTART:20261204T100000Z\r\n"
            + "DTEND:20261204T110000Z\r\nSUMMARY:Team meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try work.write(toFile: fx.path("work.ics"), atomically: true, encoding: .utf8)
        return fx
    }

    /// A planner reading the fixture's store, at 08:00 UTC on 2 December.
    func storePlanner(_ fx: AgentFixture) throws -> Planner {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-02T08:00:00Z")!
        return Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: try StoreTargets(fx.store))
    }

    func own(_ fx: AgentFixture) throws -> String {
        (try? String(contentsOfFile: fx.path("calendar/pocketbrains.ics"), encoding: .utf8)) ?? ""
    }

    func titles(_ fx: AgentFixture) throws -> [String] {
        EventTools.ownEvents(try own(fx), zone: TimeZone(secondsFromGMT: 0)!).map(\.title)
    }

    @Test("one event by title, and undo puts it back where it stood, byte for byte")
    func oneByTitle() throws {
        let fx = try scheduled()
        let before = try own(fx)
        let s = try fx.step("cancel_event", #"{"title":"vet"}"#)
        #expect(s.status == .ok, "\(s.error ?? "")")
        #expect(try titles(fx) == ["Dentist", "Dinner with mom"])
        try fx.undo()
        #expect(try own(fx) == before)
    }

    @Test("every event of a day, none of another day, and the file as it was after undo")
    func allOfADay() throws {
        let fx = try scheduled()
        let before = try own(fx)
        // A day with no event takes nothing out and is not a failure.
        let none = try fx.step("cancel_event", #"{"all":true,"on":"2026-12-10"}"#)
        #expect(none.status == .ok)
        #expect(none.summary?.contains("nothing was taken out") == true)
        #expect(try own(fx) == before)
        let s = try fx.step("cancel_event", #"{"all":true,"on":"2026-12-04"}"#)
        #expect(s.summary?.contains("\"Dentist\" 2026-12-04 15:00, \"Dinner with mom\" 2026-12-04 19:00") == true)
        #expect(try titles(fx) == ["Vet appointment"])
        try fx.undo()
        #expect(try own(fx) == before)
    }

    @Test("a title and a day pick among events; the day alone without all, or a span backwards, is refused")
    func titleAndDay() throws {
        let fx = try scheduled()
        #expect(try fx.step("cancel_event", #"{"title":"dentist","on":"2026-12-03"}"#).status == .failed, "no dentist on the 3rd")
        #expect(try fx.step("cancel_event", #"{"on":"2026-12-04"}"#).status == .failed)
        #expect(try fx.step("cancel_event", #"{"all":true,"on":"2026-12-05","until":"2026-12-04"}"#).status == .failed)
        #expect(try fx.step("cancel_event", #"{"title":"dentist","on":"2026-12-04"}"#).status == .ok)
        #expect(try titles(fx) == ["Vet appointment", "Dinner with mom"])
    }

    @Test("an event of another calendar is named, never taken out")
    func otherCalendarsAreRead() throws {
        let fx = try scheduled()
        let work = try String(contentsOfFile: fx.path("work.ics"), encoding: .utf8)
        let s = try fx.step("cancel_event", #"{"title":"team meeting"}"#)
        #expect(s.status == .failed)
        #expect(s.error?.contains("\"Team meeting\" is in work.ics, which PocketBrains only reads") == true)
        #expect(try String(contentsOfFile: fx.path("work.ics"), encoding: .utf8) == work)
    }

    @Test("two events that fit the title fail the step and are named; with all both go")
    func ambiguous() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"schedule","args":{"title":"Dentist","start":"2026-12-11T15:00:00Z"}}]}"#)
        let s = try fx.step("cancel_event", #"{"title":"dentist"}"#)
        #expect(s.status == .failed)
        #expect(s.error?.contains("2026-12-11 15:00") == true)
        #expect(try fx.step("cancel_event", #"{"title":"dentist","all":true}"#).status == .ok)
        #expect(try titles(fx) == ["Vet appointment", "Dinner with mom"])
    }

    @Test("the planner takes off the calendar what the store holds as an event, and deletes what it holds as a task")
    func plannerReadsTheStore() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"book the plumber"}}]}"#)
        let p = try storePlanner(fx)
        let vet = p.plan("cancel the vet appointment tomorrow")
        #expect(vet.tools == ["cancel_event"])
        #expect(vet.steps.first?.args == ["title": "vet appointment", "on": "2026-12-03"])
        #expect(p.plan("remove the dentist from my calendar").steps.first?.args == ["title": "dentist"])
        #expect(p.plan("remove book the plumber from my calendar").tools == ["delete_task"], "a task, not an event")
        #expect(p.plan("remove the gym from my calendar").tools.isEmpty, "R9: the store holds no such event")
    }

    @Test("emptying the calendar is one cancel_event over the day or span said, asked first", arguments: [
        ("clean my entire calendar", nil, nil), ("clear my calendar for saturday", "2026-11-28", nil),
        ("make my calendar empty", nil, nil), ("clear all events for this month", "2026-11-26", "2026-11-30"),
        ("i want all my events deleted", nil, nil), ("remove all events from my calendar", nil, nil),
        ("delete all appointments for tomorrow", "2026-11-27", nil), ("clear my day on the twenty ninth", "2026-11-29", nil),
        ("make sure my calendar is completely clear tomorrow", "2026-11-27", nil), ("on the twenty ninth clear my calendar", "2026-11-29", nil),
        ("i am busy tomorrow so delete all calendar events", "2026-11-27", nil), ("i need everything deleted from calendar please", nil, nil),
    ] as [(String, String?, String?)])
    func clearing(_ text: String, _ on: String?, _ until: String?) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["cancel_event"])
        var args: [String: JSONValue] = ["all": .bool(true)]
        if let on { args["on"] = .string(on) }
        if let until { args["until"] = .string(until) }
        #expect(p.steps.first?.args == args)
        #expect(p.confirm?.contains("out of PocketBrains' calendar?") == true)
    }

    @Test("days said but not read whole clear nothing, and are asked for", arguments: [
        "clear everything off my calendar for the rest of the year", "clear my calendar on the 31st of february",
        "clear my calendar on the fifth at noon", "clear my calendar next tuesday at 3pm", "clear my calendar from friday to monday",
        "clear my calendar tomorrow and friday",
    ])
    func unreadSpan(_ text: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.isEmpty)
        #expect(p.ask?.tool == .cancelEvent)
        #expect(p.ask?.needs == .when)
        #expect(p.ask?.question.hasPrefix("Which days should be cleared?") == true)
    }

    @Test("next takes out the first single event still to come, of the title when one is given; undo puts it back")
    func nextToCome() throws {
        let fx = try scheduled()
        fx.now = "2026-12-04T16:00:00Z"
        let before = try own(fx)
        #expect(try fx.step("cancel_event", #"{"next":true,"all":true}"#).status == .failed, "one or every one, not both")
        #expect(try fx.step("cancel_event", #"{"next":true,"title":"vet"}"#).status == .failed, "the vet is past")
        let s = try fx.step("cancel_event", #"{"next":true}"#)
        #expect(s.status == .ok)
        #expect(s.summary?.contains("\"Dinner with mom\" 2026-12-04 19:00") == true, "the dentist at 15:00 has started")
        #expect(try titles(fx) == ["Vet appointment", "Dentist"])
        try fx.undo()
        #expect(try own(fx) == before)
        fx.now = "2026-12-20T08:00:00Z"
        let none = try fx.step("cancel_event", #"{"next":true}"#)
        #expect(none.status == .ok)
        #expect(none.summary?.contains("no single event still to come") == true)
    }

    @Test("the next event, said as people say it, is one cancel_event with next, asked first", arguments: [
        ("cancel my next appointment", nil), ("dismiss my next event", nil), ("do remove next event from the calendar", nil),
        ("whatever the next event is in the calendar delete it", nil), ("find my next event and delete it please", nil),
        ("delete the next meeting from my calendar", "meeting"), ("cancel my next dentist appointment", "dentist"),
    ] as [(String, String?)])
    func nextEventSaid(_ text: String, _ title: String?) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["cancel_event"])
        var args: [String: JSONValue] = ["next": .bool(true)]
        if let title { args["title"] = .string(title) }
        #expect(p.steps.first?.args == args)
        #expect(p.confirm?.contains("the next event") == true, "asked first, with a title or without")
    }

    @Test("the next meeting is a task called so only while the calendar holds no meeting to come")
    func nextMeetingTaskOrEvent() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"team meeting","due":"2026-12-05T09:00:00Z"}}]}"#)
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-02T08:00:00Z")!
        let task = Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: try StoreTargets(fx.store)).plan("cancel my next meeting")
        #expect(task.tools == ["delete_task"])
        #expect(task.steps.first?.args["id"] != nil)
        try fx.exec(#"{"steps":[{"tool":"schedule","args":{"title":"Board meeting","start":"2026-12-08T15:00:00Z"}}]}"#)
        let event = Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: try StoreTargets(fx.store)).plan("cancel my next meeting")
        #expect(event.tools == ["cancel_event"])
        #expect(event.steps.first?.args["title"] == "meeting")
        #expect(event.steps.first?.args["uid"] != nil, "pinned to the board meeting the question names")
    }

    @Test("the next event or appointment is never a to-do due sooner; the question names the event")
    func nextEventIsNoToDo() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"pay rent","due":"2026-12-02T11:00:00Z"}},"# +
                    #"{"tool":"create_task","args":{"title":"book vet appointment","due":"2026-12-02T12:00:00Z"}}]}"#)
        let p = try storePlanner(fx)
        for text in ["dismiss my next event", "cancel my next appointment", "find my next event and delete it"] {
            let plan = p.plan(text)
            #expect(plan.tools == ["cancel_event"], "\(text)")
            #expect(plan.confirm?.contains("\"Vet appointment\" 2026-12-03T09:00:00+00:00") == true, "\(text)")
        }
        #expect(p.plan("cancel my next vet appointment").tools == ["cancel_event"])
    }

    @Test("an event named by its kind alone is the next one, asked first and pinned; a to-do with the word in it is never taken")
    func kindAloneIsTheNextEvent() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"book vet appointment","due":"2026-12-02T12:00:00Z"}},"# +
                    #"{"tool":"create_task","args":{"title":"event planning"}},{"tool":"create_task","args":{"title":"call the dentist"}}]}"#)
        let p = try storePlanner(fx)
        for text in ["cancel my appointment", "delete the event", "cancel the event"] {
            let plan = p.plan(text)
            #expect(plan.tools == ["cancel_event"], "\(text)")
            #expect(plan.steps.first?.args["uid"] != nil, "\(text)")
            #expect(plan.confirm?.contains("\"Vet appointment\"") == true, "\(text)")
        }
        #expect(!p.plan("the dentist is cancelled").tools.contains("complete_task"), "no call to the dentist was made")
    }

    @Test("a pinned next event is the one taken out, though another was put before it since")
    func pinnedNextEvent() throws {
        let fx = try scheduled()
        let uid = EventTools.ownEvents(try own(fx), zone: TimeZone(secondsFromGMT: 0)!).first { $0.title == "Dentist" }!.uid
        try fx.exec(#"{"steps":[{"tool":"schedule","args":{"title":"Board review","start":"2026-12-02T16:00:00Z"}}]}"#)
        let s = try fx.step("cancel_event", #"{"next":true,"uid":"\#(uid)"}"#)
        #expect(s.status == .ok)
        #expect(try titles(fx).contains("Board review"))
        #expect(!(try titles(fx).contains("Dentist")))
        #expect(try fx.step("cancel_event", #"{"next":true,"uid":"no-such@pocketbrains"}"#).status == .failed)
    }

    @Test("what was called off and is to be deleted is deleted, not first marked done")
    func calledOff() {
        let p = fixedPlanner().plan("the dentist is cancelled, delete it")
        #expect(p.tools == ["delete_task"])
        #expect(p.steps.first?.args == ["title": "the dentist"])
    }

    @Test("the next event not to be cancelled, or only to be reminded of, is no cancel")
    func nextEventNotNow() {
        #expect(fixedPlanner().plan("don't cancel my next meeting").tools.contains("cancel_event") == false)
        #expect(fixedPlanner().plan("remind me to cancel my next appointment").tools == ["create_task"])
    }

    @Test("what is named first is what 'it' takes out", arguments: [
        ("find dinner with mom on my calendar and delete it", "cancel_event", ["title": "dinner with mom"]),
        ("i don't need the tesco item any more, delete it", "delete_task", ["title": "the tesco item"]),
        ("i am no longer attending the wedding on the thirtieth so remove it from my calendar", "cancel_event", ["title": "wedding", "on": "2026-11-30"]),
        ("look for apple on my list and remove it", "delete_task", ["title": "apple"]),
    ] as [(String, String, [String: JSONValue])])
    func referred(_ text: String, _ tool: String, _ args: [String: JSONValue]) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == [tool])
        #expect(p.steps.first?.args == args)
    }

    @Test("meetings are the events called so, not every event")
    func meetings() {
        let p = fixedPlanner().plan("cancel all meetings tomorrow")
        #expect(p.steps.first?.args == ["all": .bool(true), "title": "meetings", "on": "2026-11-27"])
        #expect(p.confirm?.contains("called \"meetings\" on 2026-11-27") == true)
    }

    @Test("a repeating event is left alone, by title or with its day cleared, and said so")
    func series() throws {
        let fx = try scheduled()
        let path = fx.path("calendar/pocketbrains.ics")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let piano = "BEGIN:VEVENT\r\nUID:piano@t\r\nDTSTART:20261204T170000Z\r\nDTEND:20261204T180000Z\r\nRRULE:FREQ=WEEKLY;COUNT=5\r\nSUMMARY:Piano\r\nEND:VEVENT\r\n"
        text = text.replacingOccurrences(of: "END:VCALENDAR", with: piano + "END:VCALENDAR")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let byTitle = try fx.step("cancel_event", #"{"title":"piano"}"#)
        #expect(byTitle.status == .failed)
        #expect(byTitle.error?.contains("repeats") == true)
        let day = try fx.step("cancel_event", #"{"all":true,"on":"2026-12-04"}"#)
        #expect(day.summary?.contains("left alone, as they repeat: \"Piano\"") == true)
        #expect(try titles(fx) == ["Vet appointment", "Piano"])
    }

    @Test("an event goes back with the line ends the user gave the file since")
    func lineEnds() throws {
        let fx = try scheduled()
        let path = fx.path("calendar/pocketbrains.ics")
        try fx.step("cancel_event", #"{"title":"dentist"}"#)
        let lf = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
        try lf.write(toFile: path, atomically: true, encoding: .utf8)
        try fx.undo()
        let back = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!back.contains("\r"))
        #expect(try titles(fx) == ["Vet appointment", "Dentist", "Dinner with mom"])
    }

    @Test("a calendar file cut short is refused, so no event is taken out that undo could not put back")
    func truncated() throws {
        let fx = try scheduled()
        let path = fx.path("calendar/pocketbrains.ics")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cut = String(text[..<text.range(of: "END:VCALENDAR")!.lowerBound])
        try cut.write(toFile: path, atomically: true, encoding: .utf8)
        let s = try fx.step("cancel_event", #"{"title":"dentist"}"#)
        #expect(s.status == .failed)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == cut)
    }

    @Test("said as an event's whole title, the event, though a task's title holds the word too")
    func wholeTitleWins() throws {
        let fx = try scheduled()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"Call dentist"}}]}"#)
        let p = try storePlanner(fx)
        #expect(p.plan("cancel the dentist").steps.first?.tool == .cancelEvent)
        #expect(p.plan("delete call dentist").steps.first?.tool == .deleteTask)
    }

    @Test("a model's plan that clears a day is asked first as well")
    func modelPlansAskToo() {
        let r = PlanReconciler(dates: fixedPlanner().dates)
        let plan = PlanRecord(text: "x", now: "2026-11-26T10:00:00Z",
                              steps: [PlanStep(n: 1, tool: .cancelEvent, args: ["all": .bool(true), "on": "2026-11-27"])], source: "endpoint")
        let out = r.reconcile(plan, request: "clear tomorrow", capture: false, listAll: false)
        #expect(out.confirm == "take every event on 2026-11-27 out of PocketBrains' calendar? (other calendars are only read)")
    }
}
