import Foundation
import PBCore
import Testing
@testable import PBAgent

/// find_slot and schedule (issue 16). The fixture's now is Thursday 26 November 2026, 18:00 UTC.
@Suite struct SchedulingToolsTests {
    static let utc = TimeZone(secondsFromGMT: 0)!

    func day(_ s: String) -> Date { ISOMoment.parse(s, zone: Self.utc)!.date }

    @Test func freeTimeSkipsBusyStretchesWeekendsAndThePast() {
        let free = FreeTime(zone: Self.utc)
        let busy = [DateInterval(start: day("2026-11-27T10:00:00Z"), end: day("2026-11-27T12:30:00Z"))]
        let days = ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-30"].map(day)
        let s = free.stretches(days: days, busy: busy, minutes: 60, notBefore: day("2026-11-26T16:20:00Z"))
        let text = s.map { ISOMoment.format($0.start, zone: Self.utc) + "/" + ISOMoment.format($0.end, zone: Self.utc) }
        // Thursday 16:30-17:00 is too short; Saturday is off; Friday has two stretches.
        #expect(text == ["2026-11-27T09:00:00Z/2026-11-27T10:00:00Z", "2026-11-27T12:30:00Z/2026-11-27T17:00:00Z",
                         "2026-11-30T09:00:00Z/2026-11-30T17:00:00Z"])
        #expect(FreeTime.hours("08:30-16:00")! == (510, 960))
        #expect(FreeTime.hours("17:00-09:00") == nil)
    }

    @Test func workingHoursKeepTheirWallClockAcrossDaylightSaving() {
        let london = TimeZone(identifier: "Europe/London")!
        let free = FreeTime(zone: london)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = london
        let monday = cal.date(from: DateComponents(year: 2027, month: 3, day: 29))!
        let w = free.window(monday)!
        #expect(ISOMoment.format(w.start, zone: london) == "2027-03-29T09:00:00+01:00")
    }

    @Test func findSlotReadsRepeatsAndOwnEventsThenScheduleWritesOneUndoableEvent() throws {
        let fx = try AgentFixture()
        fx.now = "2026-11-26T08:00:00Z"
        let dir = fx.path("cal")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ics = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:standup@t\r\nDTSTART;TZID=Europe/Berlin:20261102T100000\r\n\
        DTEND;TZID=Europe/Berlin:20261102T120000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        try ics.write(toFile: dir + "/work.ics", atomically: true, encoding: .utf8)
        let plan = #"{"steps":[{"tool":"find_slot","args":{"minutes":120,"dir":"\#(dir)","to":"2026-11-27"}},"# +
            #"{"tool":"schedule","args":{"title":"Write the report","start":"$1.start","minutes":120,"attendees":["Sam","ana@example.org"]}},"# +
            #"{"tool":"find_slot","args":{"minutes":120,"dir":"\#(dir)","to":"2026-11-27"}}]}"#
        let r = try fx.exec(plan)
        #expect(r.status == .ok)
        // 09:00-11:00 UTC is the standup (10:00-12:00 in Berlin): the first free two hours start at 11:00.
        #expect(r.steps[0].ref?["start"] == .string("2026-11-26T11:00:00Z"))
        #expect(r.steps[1].summary == "scheduled \"Write the report\" 2026-11-26 11:00-13:00 with Sam, ana@example.org")
        // The event just written is busy for the next search.
        #expect(r.steps[2].ref?["start"] == .string("2026-11-26T13:00:00Z"))
        let own = fx.path("calendar/pocketbrains.ics")
        let text = try String(contentsOfFile: own, encoding: .utf8)
        #expect(text.contains("SUMMARY:Write the report"))
        #expect(text.contains("ATTENDEE;CN=\"Sam\""))
        #expect(ICalendarFile.unfold(text).contains { $0.name == "ATTENDEE" && $0.value == "mailto:ana@example.org" })
        // The same event twice is refused.
        let again = try fx.step("schedule", #"{"title":"write the report","start":"2026-11-26T11:00:00Z"}"#)
        #expect(again.status == .failed)
        try fx.undo()
        #expect(!FileManager.default.fileExists(atPath: own))
    }

    /// The message of the malformed-input failure a plan ends with, or what happened instead.
    func refusal(_ fx: AgentFixture, _ json: String, contacts: String? = nil) -> String {
        var ex = PlanExecutor(store: fx.store, calendarDirectory: fx.home.path, defaultNow: fx.now)
        if let contacts {
            let file = fx.path("contacts.vcf")
            FileManager.default.createFile(atPath: file, contents: Data(contacts.utf8))
            ex.contactsPath = file
        }
        do {
            let r = try ex.execute(try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8)))
            return "ran: \(r.status) \(r.message)"
        } catch let e as ToolFailure {
            return e.code == .badInput ? e.message : "exit \(e.code): \(e.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aControlCharacterInAnAttendeeTitleOrLocationRefusesThePlanAndNamesTheField() throws {
        func plan(_ args: String) -> String {
            #"{"steps":[{"tool":"create_task","args":{"title":"book a room"}},{"tool":"schedule","args":{"start":"2026-11-27T13:00:00Z",\#(args)}}]}"#
        }
        let eve = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Eve Stone\r\nEMAIL:eve@example.org\\nATTENDEE:mailto:spy@example.net\r\nEND:VCARD\r\n"
        let eveName = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Eve\\nBEGIN:VALARM\r\nN:Stone;Eve;;;\r\nEMAIL:eve@example.org\r\nEND:VCARD\r\n"
        let cases: [(String, String?, String)] = [
            (plan(#""title":"lunch","attendees":["bob@example.org\r\nATTENDEE:mailto:spy@example.net"]"#), nil,
             "step 2: schedule: attendees: control character U+000D in an address"),
            (plan(#""title":"lunch","attendees":["Bob\nATTENDEE:mailto:spy@example.net <bob@example.org>"]"#), nil,
             "step 2: schedule: attendees: control character U+000A in an address"),
            (plan(#""title":"lunch","attendees":["Bob Marsh\u0085"]"#), nil,
             "step 2: schedule: attendees: control character U+0085 in a name"),
            (plan(#""title":"lunch","attendees":"Bob <bob@example.org mailto:spy@example.net>""#), nil,
             "step 2: schedule: attendees: white space in an address (one address is expected)"),
            (plan(#""title":"lunch","attendees":["Eve"]"#), eve,
             "step 2: schedule: attendees: control character U+000A in the email address of Eve Stone in the contacts"),
            (plan(#""title":"lunch","attendees":["Stone"]"#), eveName,
             "step 2: schedule: attendees: control character U+000A in the name of a contact"),
            (plan(#""title":"lunch\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M","attendees":["bob@example.org"]"#), nil,
             "step 2: schedule: title: control character U+000D in a title"),
            (plan(#""title":"lunch","location":"Room 1\u001b[2J""#), nil,
             "step 2: schedule: location: control character U+001B in a location"),
        ]
        for (json, contacts, message) in cases {
            let fx = try AgentFixture()
            #expect(refusal(fx, json, contacts: contacts) == message)
            // Nothing of the plan stays: no calendar, no task, no journal entry.
            #expect(!FileManager.default.fileExists(atPath: fx.path("calendar/pocketbrains.ics")))
            #expect(try fx.count("tasks") == 0)
            #expect(try fx.count("journal") == 0)
        }
    }

    @Test func textValuesAreEscapedAndATabInATitleIsKept() throws {
        let fx = try AgentFixture()
        let r = try fx.step("schedule", #"{"title":"a\\b; c, d\te","start":"2026-11-27T13:00:00Z","notes":"line one\r\nline two\rthree\u0007"}"#)
        #expect(r.status == .ok)
        let text = try String(contentsOfFile: fx.path("calendar/pocketbrains.ics"), encoding: .utf8)
        #expect(text.contains("\r\nSUMMARY:a\\\\b\\; c\\, d\te\r\n"))
        #expect(text.contains("\r\nDESCRIPTION:line one\\nline two\\nthree\u{FFFD}\r\n"))
        // Every line ends in CRLF, and no line carries another control.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
    }

    @Test func aPlanThatAsksFirstIsADryRunUntilConfirmed() throws {
        let fx = try AgentFixture()
        let json = #"{"confirm":"schedule it?","steps":[{"tool":"schedule","args":{"title":"Focus","start":"2026-11-30T09:00:00Z"}}]}"#
        let asked = try fx.exec(json)
        #expect(asked.dryRun == true)
        #expect(asked.message.hasPrefix("asks first: schedule it?"))
        #expect(!FileManager.default.fileExists(atPath: fx.path("calendar/pocketbrains.ics")))
        let plan = try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8))
        var ex = PlanExecutor(store: fx.store, calendarDirectory: nil, dryRun: false, defaultNow: fx.now)
        ex.confirmed = true
        #expect(try ex.execute(plan).dryRun == nil)
        #expect(FileManager.default.fileExists(atPath: fx.path("calendar/pocketbrains.ics")))
    }

    @Test("calendar requests", arguments: [
        ("schedule a meeting with Sam next Tuesday at 3pm", ["schedule"]),
        ("book 2 hours for the report this week", ["find_slot", "schedule"]),
        ("find a free slot tomorrow", ["find_slot"]),
        ("lunch with Ana friday at 1", ["schedule"]),
        ("call mom tomorrow", ["create_task"]),
        ("book the dentist", ["create_task"]),
    ])
    func planned(text: String, tools: [String]) {
        #expect(fixedPlanner().plan(text).steps.map(\.tool.rawValue) == tools)
    }

    @Test func theSlotPlanRefersToItsSearchAndAsks() {
        let p = fixedPlanner().plan("book 2 hours for the report this week")
        #expect(p.steps[1].args["start"] == .string("$1.start"))
        #expect(p.steps[1].args["minutes"] == .number(120))
        #expect(p.confirm != nil)
        let m = fixedPlanner().plan("schedule a meeting with Sam next Tuesday at 3pm").steps[0].args
        #expect(m["start"] == .string("2026-12-01T15:00:00+00:00"))
        #expect(m["attendees"] == .array([.string("Sam")]))
        #expect(m["title"] == .string("meeting with Sam"))
    }
}
