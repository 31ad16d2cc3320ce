import Foundation
import Testing
@testable import PBAgent

@Suite struct CalendarZonesTests {
    let utc = TimeZone(secondsFromGMT: 0)!

    func event(_ dtstart: String, extra: String = "") -> String {
        "BEGIN:VCALENDAR\n\(extra)BEGIN:VEVENT\nUID:x\nSUMMARY:Committee\n\(dtstart)\nDURATION:PT1H\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    func start(_ ics: String) -> String? {
        CalendarEvent.read(ics, file: "c.ics", zone: utc).first.map { ISOMoment.format($0.start, zone: utc) }
    }

    @Test func aTZIDIsTheZoneTheTimeIsWrittenIn() {
        // 19:00 in Berlin on 12 March 2024 (CET, UTC+1) is 18:00 UTC, whatever zone reads it.
        #expect(start(event("DTSTART;TZID=Europe/Berlin:20240312T190000"))?.hasPrefix("2024-03-12T18:00") == true)
        #expect(start(event("DTSTART;TZID=\"Europe/Berlin\":20240312T190000"))?.hasPrefix("2024-03-12T18:00") == true)
        #expect(start(event("DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20240312T190000"))?.hasPrefix("2024-03-12T18:00") == true)
        // Outlook writes Windows names.
        #expect(start(event("DTSTART;TZID=W. Europe Standard Time:20240312T190000"))?.hasPrefix("2024-03-12T18:00") == true)
        // Summer time: 19:00 in New York on 1 July is 23:00 UTC.
        #expect(start(event("DTSTART;TZID=America/New_York:20240701T190000"))?.hasPrefix("2024-07-01T23:00") == true)
    }

    @Test func aVTIMEZONEMayNameItsLocation() {
        let zone = "BEGIN:VTIMEZONE\nTZID:Custom Zone 1\nX-LIC-LOCATION:Europe/London\nBEGIN:STANDARD\nTZOFFSETTO:+0000\nEND:STANDARD\nEND:VTIMEZONE\n"
        #expect(start(event("DTSTART;TZID=Custom Zone 1:20240701T090000", extra: zone))?.hasPrefix("2024-07-01T08:00") == true)
    }

    @Test func anUnknownZoneIsReadAsLocalAndReported() {
        let r = CalendarEvent.reading(event("DTSTART;TZID=Mars/Olympus Mons:20240312T190000"), file: "c.ics", zone: utc)
        #expect(r.events.map { ISOMoment.format($0.start, zone: utc) }.first?.hasPrefix("2024-03-12T19:00") == true)
        #expect(r.unresolvedZones == ["Mars/Olympus Mons"])
        #expect(CalendarEvent.reading(event("DTSTART:20240312T190000Z"), file: "c.ics", zone: utc).unresolvedZones.isEmpty)
    }

    @Test func repeatsKeepTheirWallClockInTheirOwnZone() {
        // Weekly at 09:00 New York time across the change to summer time (10 March 2024).
        let ics = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:w\nSUMMARY:Standup\nDTSTART;TZID=America/New_York:20240305T090000\nDURATION:PT15M\nRRULE:FREQ=WEEKLY\nEND:VEVENT\nEND:VCALENDAR\n"
        func on(_ day: String) -> [String] {
            let d = ISOMoment.parse(day, zone: utc)!.date
            return CalendarEvent.read(ics, file: "w.ics", zone: utc, window: DateInterval(start: d, duration: 86_400))
                .map { ISOMoment.format($0.start, zone: utc) }
        }
        #expect(on("2024-03-05").first?.hasPrefix("2024-03-05T14:00") == true)
        #expect(on("2024-03-12").first?.hasPrefix("2024-03-12T13:00") == true)
    }
}
