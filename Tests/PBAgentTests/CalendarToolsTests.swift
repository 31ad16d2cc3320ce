import Foundation
import Testing
import PBCore
@testable import PBAgent

@Suite struct CalendarToolsTests {
    @Test func exportWritesEscapedFoldedCRLFAndNeverTwice() throws {
        let fx = try AgentFixture()
        let long = "Pick up the cake; the big one, with Happy birthday and candles, from the bakery on the corner of Rua Augusta"
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"\#(long)","due":"2026-11-28","priority":3}},{"tool":"create_task","args":{"title":"Call Mom","due":"2026-11-26T19:00:00+01:00"}}]}"#)
        let path = fx.path("tasks.ics")
        let s = try fx.step("export_ics", #"{"path":"\#(path)"}"#)
        #expect(s.summary == "exported 2 items to \(path)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(text.contains("DUE;VALUE=DATE:20261128\r\n"))
        #expect(text.contains("DUE:20261126T180000Z\r\n"))
        #expect(text.contains("PRIORITY:1\r\n"))
        let summary = ICalendarFile.unfold(text).first { $0.name == "SUMMARY" }!.value
        #expect(summary == ICalendarFile.escape(long))
        #expect(summary.contains("cake\\; the big one\\, with"))
        // Again: nothing new; a new task: only that one.
        #expect(try fx.step("export_ics", #"{"path":"\#(path)"}"#).summary == "nothing new to export to \(path) (2 already there)")
        try fx.step("create_task", #"{"title":"Book dentist"}"#)
        #expect(try fx.step("export_ics", #"{"path":"\#(path)"}"#).summary == "exported 1 item to \(path) (2 already there)")
        #expect(ICalendarFile.componentCount(try String(contentsOfFile: path, encoding: .utf8)) == 3)
    }

    @Test func undoRemovesExactlyThoseEntries() throws {
        let fx = try AgentFixture()
        let path = fx.path("out.ics")
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.step("export_ics", #"{"path":"\#(path)"}"#)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        try fx.step("create_task", #"{"title":"B"}"#)
        try fx.step("export_ics", #"{"path":"\#(path)"}"#)
        #expect(try fx.undo().status == .reverted)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
        #expect(try fx.count("exports") == 1)
        try fx.undo() // create B
        try fx.undo() // the first export: the file was made by it, and is removed
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func dryRunAndFailedStepsLeaveTheFileAlone() throws {
        let fx = try AgentFixture()
        let path = fx.path("dry.ics")
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.exec(#"{"steps":[{"tool":"export_ics","args":{"path":"\#(path)"}}]}"#, dryRun: true)
        #expect(!FileManager.default.fileExists(atPath: path))
        let r = try fx.exec(#"{"steps":[{"tool":"export_ics","args":{"path":"\#(path)"}},{"tool":"complete_task","args":{"title":"zzz"}}]}"#)
        #expect(r.status == .failed)
        #expect(FileManager.default.fileExists(atPath: path)) // step 1 stays in place
    }

    @Test func exportsMilestonesAsEvents() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"Garden"}},{"tool":"add_milestone","args":{"project":"$1","title":"Beds dug","due":"2026-12-01"}}]}"#)
        let path = fx.path("g.ics")
        try fx.step("export_ics", #"{"path":"\#(path)","project":"Garden"}"#)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("BEGIN:VEVENT\r\nUID:pb-milestone-1@pocketbrains\r\n"))
        #expect(text.contains("DTEND;VALUE=DATE:20261202\r\n"))
    }

    @Test func calendarAgendaFindsEventsFreeTimeAndTasks() throws {
        let fx = try AgentFixture()
        let cal = fx.home.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: cal, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Standup\r\nDTSTART:20261127T090000Z\r\nDTEND:20261127T093000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Dentist\\, Dr Silva\r\nDTSTART:20261127T140000Z\r\nDURATION:PT1H30M\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Other day\r\nDTSTART:20261128T140000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(to: cal.appendingPathComponent("work.ics"), atomically: true, encoding: .utf8)
        try fx.step("create_task", #"{"title":"Grab the cake","due":"2026-11-27"}"#)
        let s = try fx.step("calendar_agenda", #"{"dir":"\#(cal.path)","day":"2026-11-27","end":"18:00"}"#)
        #expect(s.summary == #"2026-11-27: 2 events (09:00-09:30 Standup, 14:00-15:30 Dentist, Dr Silva); free 08:00-09:00, 09:30-14:00, 15:30-18:00; 1 task due: task:1 "Grab the cake""#)
        #expect(try fx.step("calendar_agenda", #"{"dir":"/nonexistent/cal"}"#).error == "no calendar folder /nonexistent/cal")
    }

    @Test func calendarAgendaShowsTodaysOccurrenceOfARepeatingMeeting() throws {
        let fx = try AgentFixture()
        let cal = fx.home.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: cal, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1on1\r\nSUMMARY:One-to-one\r\nDTSTART:20261001T150000Z\r\nDURATION:PT45M\r\nRRULE:FREQ=WEEKLY;INTERVAL=2\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(to: cal.appendingPathComponent("team.ics"), atomically: true, encoding: .utf8)
        // 1 October 2026 is a Thursday: every other Thursday after it falls on 10 December, not 3 December.
        let on = try fx.step("calendar_agenda", #"{"dir":"\#(cal.path)","day":"2026-12-10","start":"09:00","end":"17:00"}"#)
        #expect(on.summary == "2026-12-10: 1 event (15:00-15:45 One-to-one); free 09:00-15:00, 15:45-17:00; no tasks due")
        let off = try fx.step("calendar_agenda", #"{"dir":"\#(cal.path)","day":"2026-12-03","start":"09:00","end":"17:00"}"#)
        #expect(off.summary?.hasPrefix("2026-12-03: no events") == true)
    }
}
