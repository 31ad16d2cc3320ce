import Foundation
import Testing
@testable import PBAgent

@Suite struct ICalendarFileTests {
    @Test func escapesText() {
        #expect(ICalendarFile.escape("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne")
        #expect(ICalendarFile.unescape("a\\;b\\,c\\\\d\\ne") == "a;b,c\\d\ne")
    }

    @Test func everyLineBreakIsEscapedAndNoOtherControlIsWritten() {
        #expect(ICalendarFile.escape("a\r\nb\rc\nd") == "a\\nb\\nc\\nd")
        #expect(ICalendarFile.escape("tab\tkept") == "tab\tkept")
        #expect(ICalendarFile.escape("bell\u{07} del\u{7F} nel\u{85} esc\u{1B}") == "bell\u{FFFD} del\u{FFFD} nel\u{FFFD} esc\u{FFFD}")
        // A line handed to the writer with a raw break in it still makes one content line.
        let folded = ICalendarFile.fold("ATTENDEE;CN=\"Bob\r\nBEGIN:VALARM\":mailto:b@example.org\nX:y")
        #expect(folded.components(separatedBy: "\r\n").dropLast().count == 1)
        #expect(!folded.dropLast(2).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func foldsAt75OctetsWithoutSplittingCharacters() {
        let line = "SUMMARY:" + String(repeating: "é", count: 60)
        let folded = ICalendarFile.fold(line)
        let lines = folded.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(ICalendarFile.unfold(folded).first?.value == String(repeating: "é", count: 60))
        #expect(ICalendarFile.fold("SHORT:x") == "SHORT:x\r\n")
    }

    @Test func removesComponentsByUIDKeepingOtherBytes() {
        let text = ICalendarFile.header()
            + ICalendarFile.component("VTODO", ["UID:a", "SUMMARY:A"])
            + ICalendarFile.component("VEVENT", ["UID:b", "SUMMARY:" + String(repeating: "x", count: 100)])
            + ICalendarFile.footer
        let kept = ICalendarFile.removing(uids: ["a"], from: text)
        #expect(ICalendarFile.componentCount(kept) == 1)
        #expect(kept == ICalendarFile.header() + ICalendarFile.component("VEVENT", ["UID:b", "SUMMARY:" + String(repeating: "x", count: 100)]) + ICalendarFile.footer)
    }

    @Test func readsEvents() {
        let ics = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Stand\n up\nDTSTART:20261127T090000Z\nDURATION:PT30M\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20261127\nEND:VEVENT\nEND:VCALENDAR\n"
        let events = CalendarEvent.read(ics, file: "w.ics", zone: TimeZone(secondsFromGMT: 0)!)
        #expect(events.count == 2)
        #expect(events[0].title == "Standup")
        #expect(events[0].end.timeIntervalSince(events[0].start) == 1800)
        #expect(events[1].allDay)
    }
}
