import Foundation
import PBCore
import Testing
@testable import PBAgent

/// The morning brief and the status snapshot made from it (issue 16).
@Suite struct MorningBriefTests {
    static let utc = TimeZone(secondsFromGMT: 0)!

    func clock(_ s: String) throws -> AgentClock { try AgentClock(text: s) }

    /// A store with work spread over three days: made on Monday 30 November, briefed on
    /// Wednesday 2 December 2026.
    func week(_ fx: AgentFixture) throws {
        fx.now = "2026-11-30T09:00:00Z"
        try fx.exec(#"""
        {"steps":[{"tool":"create_task","args":{"title":"file the tax return","due":"2026-12-01"}},
                  {"tool":"create_task","args":{"title":"call mum","due":"2026-12-02"}},
                  {"tool":"create_task","args":{"title":"buy milk","due":"2026-12-02"}},
                  {"tool":"create_task","args":{"title":"book the dentist","due":"2026-12-02T15:00:00Z","priority":"high"}},
                  {"tool":"create_task","args":{"title":"water the plants"}},
                  {"tool":"create_task","args":{"title":"renew the passport","due":"2026-12-20"}}]}
        """#)
        fx.now = "2026-12-01T17:00:00Z"
        try fx.step("complete_task", #"{"id":"task:3"}"#)
        fx.now = "2026-12-02T07:30:00Z"
        try fx.step("complete_task", #"{"id":"task:2"}"#)
        try fx.step("complete_task", #"{"id":"task:5"}"#)
    }

    @Test func countsOverdueDueDoneAndYesterday() throws {
        let fx = try AgentFixture()
        try week(fx)
        let b = try MorningBrief.make(store: fx.store, home: fx.home.path, clock: try clock("2026-12-02T08:00:00Z"), calendarDirectory: nil, workHours: nil)
        #expect(b.day == "2026-12-02")
        #expect(b.overdue.map(\.title) == ["file the tax return"])
        // Due today: the open one first; "buy milk" was done early, yesterday, and still counts as done.
        #expect(b.dueOpen.map(\.title) == ["book the dentist"])
        #expect(Set(b.dueDone.map(\.title)) == ["call mum", "buy milk"])
        #expect(b.doneToday.map(\.title) == ["call mum", "water the plants"])
        #expect(b.doneYesterday.map(\.title) == ["buy milk"])
        #expect(b.headline == "3 due today · 2 already done · 1 overdue · 1 more done today · free 09:00-17:00")
        let text = b.text()
        #expect(text.hasPrefix("Wednesday 2 December 2026: 3 due today"))
        #expect(text.contains("! task:1  file the tax return  (due 2026-12-01)"))
        #expect(text.contains("○ task:4  book the dentist  (high)"))
        #expect(text.contains("Done yesterday\n  ✓ task:3  buy milk"))
    }

    @Test func theDayIsTheClocksDayInItsZone() throws {
        let fx = try AgentFixture()
        try week(fx)
        // 23:30 on the 1st in New York is already the 2nd in UTC: the brief is for the 1st there.
        let b = try MorningBrief.make(store: fx.store, home: fx.home.path, clock: try clock("2026-12-01T23:30:00-05:00"), calendarDirectory: nil, workHours: nil)
        #expect(b.day == "2026-12-01")
        #expect(b.dueToday.map(\.title) == ["file the tax return"])
        #expect(b.free == [], "the working day is over")
    }

    @Test func eventsAndFreeTimeFromTheFolderAndTheOwnCalendar() throws {
        let fx = try AgentFixture()
        let dir = fx.path("cal")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ics = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:standup@t\r\nDTSTART;TZID=Europe/Berlin:20261102T100000\r\n\
        DTEND;TZID=Europe/Berlin:20261102T103000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:bday@t\r\nDTSTART;VALUE=DATE:20261202\r\nSUMMARY:Ana's birthday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        try ics.write(toFile: dir + "/work.ics", atomically: true, encoding: .utf8)
        fx.now = "2026-12-02T07:00:00Z"
        try fx.step("schedule", #"{"title":"Lunch with Sam","start":"2026-12-02T12:00:00Z","minutes":90,"location":"Luigi's"}"#)
        let b = try MorningBrief.make(store: fx.store, home: fx.home.path, clock: try clock("2026-12-02T08:00:00Z"), calendarDirectory: dir,
                                      workHours: "08:30-17:30")
        #expect(b.events.map(\.title) == ["Ana's birthday", "Standup", "Lunch with Sam"])
        #expect(b.events[0].busy == false, "an all-day event does not fill the day")
        let free = b.free!.map { CalendarTools.hhmm($0.start, Self.utc) + "-" + CalendarTools.hhmm($0.end, Self.utc) }
        // Standup 09:00-09:30 UTC (10:00 Berlin), lunch 12:00-13:30.
        #expect(free == ["08:30-09:00", "09:30-12:00", "13:30-17:30"])
        #expect(b.headline == "nothing due today · 3 events · next 09:00 Standup · free 08:30-09:00")
        #expect(b.text().contains("12:00-13:30  Lunch with Sam (Luigi's)"))
        #expect(b.text().contains("all day      Ana's birthday [free]"))
    }

    @Test func aWeekendHasNoWorkingTimeAndNoStoreIsAnEmptyDay() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-brief-\(UUID().uuidString)").path
        let b = try MorningBrief.make(store: nil, home: home, clock: try clock("2026-12-05T08:00:00Z"), calendarDirectory: nil, workHours: nil)
        #expect(b.free == nil)
        #expect(b.headline == "nothing due today")
        #expect(!FileManager.default.fileExists(atPath: home), "a brief writes nothing")
        #expect(throws: AgentError.self) {
            try MorningBrief.make(store: nil, home: home, clock: try clock("2026-12-05T08:00:00Z"), calendarDirectory: nil, workHours: "9-5")
        }
    }

    @Test func theSnapshotIsRewrittenAfterEveryChangeAndUndo() throws {
        let fx = try AgentFixture()
        let path = StatusSnapshot.path(home: fx.home.path)
        fx.now = "2026-12-02T08:00:00Z"
        func snapshot() throws -> [String: JSONValue] {
            guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path))) else { return [:] }
            return o
        }
        // A dry run changes nothing, so writes no snapshot.
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"call mum","due":"2026-12-02"}}]}"#, dryRun: true)
        #expect(!FileManager.default.fileExists(atPath: path))
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"call mum","due":"2026-12-02"}},{"tool":"create_task","args":{"title":"pay rent","due":"2026-12-01"}}]}"#)
        var s = try snapshot()
        #expect(s["text"] == .string("1 due · 1 overdue"))
        #expect(s["class"] == .string("overdue"))
        #expect(s["day"] == .string("2026-12-02"))
        guard case .object(let next)? = s["next_task"] else { Issue.record("no next_task"); return }
        #expect(next["title"] == .string("pay rent"))
        try fx.step("complete_task", #"{"id":"task:2"}"#)
        try fx.step("complete_task", #"{"id":"task:1"}"#)
        s = try snapshot()
        #expect(s["text"] == .string("all done"))
        #expect(s["class"] == .string("clear"))
        try fx.undo()
        s = try snapshot()
        #expect(s["text"] == .string("1 due"))
        #expect(s["class"] == .string("due"))
        // Nothing else is left beside it: the write went through a temporary file and a rename.
        let names = try FileManager.default.contentsOfDirectory(atPath: fx.home.path).filter { $0.hasPrefix(".status") }
        #expect(names.isEmpty)
    }
}

@Suite struct BriefRequestTests {
    @Test("a request for the day at a glance plans the brief", arguments: [
        "brief me", "give me my morning briefing", "what does my day look like?", "how's my day looking", "my daily brief please", "morning rundown",
    ])
    func brief(text: String) {
        #expect(fixedPlanner().plan(text).tools == ["brief"])
    }

    @Test("a brief as a thing to write or a verb with an object is not the brief", arguments: [
        "write the brief for the client", "send Sam the brief",
    ])
    func notBrief(text: String) {
        #expect(!fixedPlanner().plan(text).tools.contains("brief"))
    }
}
