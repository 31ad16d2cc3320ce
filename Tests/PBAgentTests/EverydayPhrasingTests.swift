import Foundation
import PBCore
import Testing
@testable import PBAgent

/// Requests as people type them to an assistant: fillers and chat words around the request,
/// undo said in other words, messages in other frames, entries named with a day, repeats every
/// other day. The fixed now is Wednesday 9 December 2026, 10:00 UTC.
@Suite("Everyday phrasings")
struct EverydayPhrasingTests {
    let planner = fixedPlanner("2026-12-09T10:00:00Z")

    @Test("fillers before a request and chat words after it are not part of it", arguments: [
        ("could you pls remind me to buy stamps tomorrow", "buy stamps"),
        ("sorry to bother you but could you remind me to book the vet", "book the vet"),
        ("just a quick one - remind me to ring the garage", "ring the garage"),
        ("right, so basically I need to email Jo about the invoice", "email Jo about the invoice"),
        ("anyway remind me to water the tomatoes", "water the tomatoes"),
        ("umm can u remind me to defrost the chicken tonight lol", "defrost the chicken"),
        ("remind me to post the parcel, cheers", "post the parcel"),
        ("just set me reminders about the school fees", "the school fees"),
    ])
    func fillers(_ request: String, _ title: String) {
        let p = planner.plan(request)
        #expect(p.tools == ["create_task"], "\(request)")
        #expect(p.arg(0, "title") == title, "\(request)")
    }

    @Test("a reminder said with notify or alert, a thing added on a day, a thing there is to be reminded of", arguments: [
        ("notify me about the dentist on friday", "the dentist", "2026-12-11"),
        ("alert me to call mom at 5pm", "call mom", "2026-12-09T17:00:00+00:00"),
        ("add dentist on friday", "dentist", "2026-12-11"),
        ("thursday at three pm there is a teachers meeting i need to be reminded of", "teachers meeting", "2026-12-10T15:00:00+00:00"),
        // A day that owns the thing, and the time said after it.
        ("remind me of tomorrow's meeting at ten am", "meeting", "2026-12-10T10:00:00+00:00"),
        ("set reminders for friday's pta meeting", "pta meeting", "2026-12-11"),
        // Counted back from the thing's time: on the clock, or on the calendar.
        ("notify me an hour before my 2pm appointment at the car dealership", "appointment at the car dealership", "2026-12-09T13:00:00+00:00"),
        ("remind me two days before mum's birthday on may 3", "mum's birthday", "2027-05-01"),
        ("remind me 30 minutes before the dentist tomorrow at 3pm", "dentist", "2026-12-10T14:30:00+00:00"),
    ])
    func remindersSaidOtherwise(_ request: String, _ title: String, _ due: String) {
        let p = planner.plan(request)
        #expect(p.tools == ["create_task"], "\(request)")
        #expect(p.arg(0, "title") == title, "\(request)")
        #expect(p.arg(0, "due") == due, "\(request)")
    }

    @Test("what is only added, or added with two dates, or a statement of what there is, is no task", arguments: [
        "add milk", "add new year with family next week", "there is a party tomorrow", "notify the team tomorrow",
    ])
    func notReminders(_ request: String) {
        #expect(planner.plan(request).tools != ["create_task"], "\(request)")
    }

    @Test("undo in other words", arguments: [
        "oops, revert that", "no wait, undo that", "scrap that", "forget that", "remove what you just added",
        "delete the task you just added",
    ])
    func undo(_ request: String) {
        #expect(planner.plan(request).tools == ["undo"], "\(request)")
    }

    @Test("'scrap the gym task' is still a deletion, not an undo")
    func scrapAnItem() {
        #expect(planner.plan("scrap the gym task").tools == ["delete_task"])
    }

    @Test("messages in other frames: send a text to, drop a line, shoot a message, a family name after a colon")
    func messages() {
        let a = planner.plan("send a text to Marcus saying the keys are under the mat")
        #expect(a.tools == ["draft_message"])
        #expect(a.arg(0, "to") == "Marcus")
        #expect(a.arg(0, "text") == "The keys are under the mat")
        let b = planner.plan("drop Jess a line to say thanks for the flowers")
        #expect(b.tools == ["draft_message"], "never a deletion of 'Jess a line'")
        #expect(b.arg(0, "text") == "Thanks for the flowers")
        #expect(planner.plan("shoot Kevin a message that practice is cancelled tonight").tools == ["draft_message"])
        let c = planner.plan("whatsapp mum: landing at 6, don't bother picking me up")
        #expect(c.tools == ["draft_message"])
        #expect(c.arg(0, "text") == "Landing at 6, don't bother picking me up", "the whole message, past its commas")
        let d = planner.plan("sms Aoife: can you grab milk on the way home?")
        #expect(d.arg(0, "text") == "Can you grab milk on the way home?", "a question to the recipient keeps its mark")
        #expect(planner.plan("text reminder: call the bank").tools == ["create_task"], "a reminder is no person")
    }

    @Test("every other day, every second month; a repeat stopped")
    func repeats() {
        let p = planner.plan("water the plants every other day")
        #expect(p.tools == ["create_task", "set_recurrence"])
        #expect(p.arg(0, "title") == "water the plants")
        #expect(p.arg(1, "rule") == "FREQ=DAILY;INTERVAL=2")
        let m = planner.plan("clean the oven every second month")
        #expect(m.tools == ["create_task", "set_recurrence"])
        if m.steps.count == 2 { #expect(m.arg(1, "rule") == "FREQ=MONTHLY;INTERVAL=2") }
        let s = planner.plan("stop repeating the piano lessons task")
        #expect(s.tools == ["set_recurrence"])
        #expect(s.arg(0, "rule") == "none")
        #expect(s.arg(0, "title") == "the piano lessons")
    }

    @Test("an entry named with a day: an event at a time, else a task due then")
    func datedEntries() {
        let e = planner.plan("dentist friday 3pm")
        #expect(e.tools == ["schedule"])
        #expect(e.arg(0, "start") == "2026-12-11T15:00:00+00:00")
        let t = planner.plan("piano recital on the 14th")
        #expect(t.tools == ["create_task"])
        #expect(t.arg(0, "title") == "piano recital")
        #expect(t.arg(0, "due") == "2026-12-14")
        #expect(planner.plan("march fifth is john's birthday please place this on the calendar").arg(0, "title") == "john's birthday")
        let r = planner.plan("tell me on tuesday to give jane a call")
        #expect(r.tools == ["create_task"])
        #expect(r.arg(0, "title") == "give jane a call")
    }

    @Test("things asked about with a day, sentences and past days are no entries", arguments: [
        "events today", "today's schedule", "movie times tonight", "the time in canada now", "dentist yesterday",
        "the tailor shuts at 5:30 on fridays", "busy day tomorrow", "nothing tomorrow",
    ])
    func notEntries(_ request: String) {
        #expect(!planner.plan(request).tools.contains { ["create_task", "schedule"].contains($0) }, "\(request)")
    }

    @Test("a clock time in a dump is not a label: the line after 'Friday:' lines stays in the note")
    func clockTimeIsNoLabel() {
        let p = planner.capturePlan("Friday: pay the cleaner\nthe tailor shuts at 5:30 on fridays")
        #expect(p.tools == ["create_task", "create_note"])
    }

    @Test("a hostile read's cases: no write from a question, a statement or a name with a quarter in it")
    func noWritesWhereNoneWasAsked() {
        #expect(planner.plan("when does the gym task stop repeating?").tools.allSatisfy { $0 != "set_recurrence" })
        #expect(planner.plan("stop repeating yourself").steps.isEmpty)
        #expect(planner.plan("never mind, forget that").tools == ["undo"], "one turn taken back")
        #expect(planner.plan("oops I deleted the wrong task").steps.isEmpty)
        #expect(planner.plan("basically done with the report").steps.isEmpty)
        for statement in ["Sam sick today", "flight delayed tomorrow", "pharmacy open sunday", "back on monday", "snow tomorrow",
                          "great aunt Mary's birthday saturday", "dentist 17th at 2pm"] {
            #expect(!planner.plan(statement).tools.contains { ["create_task", "schedule"].contains($0) }, "\(statement)")
        }
        let audi = planner.plan("service the Audi Q3 on friday")
        #expect(audi.arg(0, "due") == "2026-12-11", "the Q3 is the car's name; friday is the day")
        #expect(audi.arg(0, "title") == "service the Audi Q3")
    }

    @Test("a message keeps its closing chat words; one with no words of its own is a to-do to write it")
    func messageWords() {
        #expect(planner.plan("text Jess happy birthday xx").arg(0, "text") == "Happy birthday xx")
        #expect(planner.plan("text mum see you soon, cheers").arg(0, "text") == "See you soon, cheers")
        #expect(planner.plan("remind me to email my TA").arg(0, "title") == "email my TA")
        #expect(planner.plan("drop Dad a line").tools == ["create_task"], "never a deletion")
        let two = planner.plan("text dad: call me. Also remind me to buy milk tomorrow")
        #expect(two.tools == ["draft_message", "create_task"], "a colon message is one sentence")
    }

    @Test("work to finish by a day is a to-do; a day of the month by any ordinal; half an hour said with 1/2")
    func finishByADay() {
        let p = planner.plan("finish the report by friday")
        #expect(p.tools == ["create_task"])
        #expect(p.arg(0, "due") == "2026-12-11")
        #expect(planner.plan("finish the report").tools == ["complete_task"])
        #expect(planner.plan("pay rent on the twenty-first day of the month").arg(0, "due") == "2026-12-21")
        #expect(planner.plan("remind me in 1/2 an hour to check the oven").arg(0, "due") == "2026-12-09T10:30:00+00:00")
    }

    @Test("an evening's occasion at an hour from 7 said without am or pm is in the evening; other things keep the morning", arguments: [
        ("dinner with sam on friday at 7", "schedule", "start", "2026-12-11T19:00:00+00:00"),
        ("drinks at 8", "schedule", "start", "2026-12-09T20:00:00+00:00"),
        ("call mom friday at 7", "create_task", "due", "2026-12-11T07:00:00+00:00"),
        ("dinner with sam friday at 7am", "schedule", "start", "2026-12-11T07:00:00+00:00"),
    ])
    func eveningHours(_ request: String, _ tool: String, _ key: String, _ value: String) {
        let p = planner.plan(request)
        #expect(p.tools == [tool], "\(request)")
        #expect(p.arg(0, key) == value, "\(request)")
    }

    @Test("a dated occasion said as a statement, or a dated plan with 'set it', is a task due that day", arguments: [
        ("friday is mum's birthday, add it to my calendar", "mum's birthday", "2026-12-11"),
        ("the 12th of july is bola's birthday", "bola's birthday", "2027-07-12"),
        ("twelfth july is bola's birthday and my calendar to be updated with this date", "bola's birthday", "2027-07-12"),
        ("on third april we will go to watch the movie, set it", "watch the movie", "2027-04-03"),
    ])
    func statedOccasions(_ request: String, _ title: String, _ due: String) {
        let p = planner.plan(request)
        #expect(p.tools == ["create_task"], "\(request)")
        #expect(p.arg(0, "title") == title, "\(request)")
        #expect(p.arg(0, "due") == due, "\(request)")
    }

    @Test("time blocked off at a time is an event, called what it is for, else 'blocked'", arguments: [
        ("block off friday at 8am", "blocked"), ("please block off friday at eight am on my calendar", "blocked"),
        ("block out time friday at 3pm for the gym", "gym"),
    ])
    func blockedTime(_ request: String, _ title: String) {
        let p = planner.plan(request)
        #expect(p.tools == ["schedule"], "\(request)")
        #expect(p.arg(0, "title") == title, "\(request)")
    }

    @Test("a lead counted on the calendar by its own unit, after as well as before", arguments: [
        ("remind me a month before the party on march 15", "2027-02-15"),
        ("remind me 2 months before the party on march 15", "2027-01-15"),
        ("remind me a year before the party on march 15 2029", "2028-03-15"),
        ("remind me the day before my dentist on friday", "2026-12-10"),
        ("remind me 2 days after the party on saturday", "2026-12-14"),
    ])
    func leadsOnTheCalendar(_ request: String, _ due: String) {
        let p = planner.plan(request)
        #expect(p.tools == ["create_task"], "\(request)")
        #expect(p.arg(0, "due") == due, "\(request)")
    }

    @Test("a lead that is no length of time plans nothing, and says so")
    func unreadLead() {
        for request in ["remind me the evening before the dentist on friday", "remind me 1 hour 15 before the dentist tomorrow at 3pm"] {
            let p = planner.plan(request)
            #expect(p.steps.isEmpty, "\(request)")
            #expect(p.message?.contains("how long before or after") == true, "\(request)")
        }
    }

    @Test("a day that owns the thing: past, or followed by the day it is due, it names the thing; a part of the day keeps its evening", arguments: [
        ("remind me to send out last week's report on friday", "send out last week's report", "2026-12-11"),
        ("remind me to buy food for saturday's party on thursday", "buy food for saturday's party", "2026-12-10"),
        ("remind me of tonight's game at 8", "game", "2026-12-09T20:00:00+00:00"),
    ])
    func owningDays(_ request: String, _ title: String, _ due: String) {
        expectTask(request, title, due)
    }

    @Test("a past day owning the thing is no due")
    func pastOwner() {
        let p = planner.plan("pay last month's invoice")
        #expect(p.arg(0, "title") == "pay last month's invoice")
        #expect(p.arg(0, "due") == nil)
    }

    @Test("a clock time and the day said a few words on are one moment; an errand for an evening's occasion keeps the morning", arguments: [
        ("remind me 90 minutes before my 2pm call tomorrow", "call", "2026-12-10T12:30:00+00:00"),
        ("remind me an hour before my 2pm appointment on friday", "appointment", "2026-12-11T13:00:00+00:00"),
        ("buy a dress for the party at 10", "buy a dress for the party", "2026-12-10T10:00:00+00:00"),
    ])
    func timeAndDayApart(_ request: String, _ title: String, _ due: String) {
        expectTask(request, title, due)
    }

    /// The request's first step is a task of this title, due then.
    func expectTask(_ request: String, _ title: String, _ due: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = planner.plan(request)
        #expect(p.arg(0, "title") == title, "\(request)", sourceLocation: sourceLocation)
        #expect(p.arg(0, "due") == due, "\(request)", sourceLocation: sourceLocation)
    }

    @Test("a lead with nothing dated to count from plans nothing and says so; 'remind me to X before noon' is a to-do due then")
    func leadWithoutADate() {
        let p = planner.plan("remind me a month before the party")
        #expect(p.steps.isEmpty)
        #expect(p.message?.contains("nothing to count from") == true)
        #expect(planner.plan("remind me to call before noon").arg(0, "title") == "call")
    }
}
