import Foundation
import PBText
import Testing
@testable import PBAgent

@Suite struct EventRecurrenceTests {
    let utc = TimeZone(secondsFromGMT: 0)!

    func date(_ text: String, _ zone: TimeZone? = nil) -> Date {
        CalendarEvent.parse(ICalendarFile.Property(name: "DTSTART", params: [:], value: text), zone: zone ?? utc)!.0
    }

    func days(_ rule: String, from start: String, before end: String, zone: TimeZone? = nil) -> [String] {
        let z = zone ?? utc
        let r = EventRecurrence(rule, zone: z)!
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = z
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return r.starts(from: date(start, z), before: date(end, z), zone: z).map { f.string(from: $0) }
    }

    @Test func weeklyOnSeveralDaysWithACount() {
        #expect(days("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4", from: "20261102T090000", before: "20270101") ==
                ["2026-11-02 09:00", "2026-11-04 09:00", "2026-11-09 09:00", "2026-11-11 09:00"])
    }

    @Test func everyOtherWeekOnTheFirstDaysWeekday() {
        #expect(days("FREQ=WEEKLY;INTERVAL=2", from: "20261105T100000", before: "20261215") ==
                ["2026-11-05 10:00", "2026-11-19 10:00", "2026-12-03 10:00"])
    }

    @Test func lastFridayOfTheMonth() {
        #expect(days("FREQ=MONTHLY;BYDAY=-1FR", from: "20261127T160000", before: "20270201") ==
                ["2026-11-27 16:00", "2026-12-25 16:00", "2027-01-29 16:00"])
    }

    @Test func monthsWithoutThe31stAreSkippedNotRolledOver() {
        #expect(days("FREQ=MONTHLY", from: "20270131T080000", before: "20270601") ==
                ["2027-01-31 08:00", "2027-03-31 08:00", "2027-05-31 08:00"])
        #expect(days("FREQ=MONTHLY;BYMONTHDAY=-1", from: "20270131T080000", before: "20270401") ==
                ["2027-01-31 08:00", "2027-02-28 08:00", "2027-03-31 08:00"])
    }

    @Test func aLeapDayBirthdayComesEveryFourYears() {
        #expect(days("FREQ=YEARLY", from: "20240229", before: "20330101") == ["2024-02-29 00:00", "2028-02-29 00:00", "2032-02-29 00:00"])
    }

    @Test func untilIsInclusiveAndDailyRulesCanBeNarrowedToWeekdays() {
        #expect(days("FREQ=DAILY;UNTIL=20261204;BYDAY=MO,TU,WE,TH,FR", from: "20261127T073000", before: "20270101") ==
                ["2026-11-27 07:30", "2026-11-30 07:30", "2026-12-01 07:30", "2026-12-02 07:30", "2026-12-03 07:30", "2026-12-04 07:30"])
    }

    @Test func theWallClockTimeHoldsAcrossADaylightSavingChange() {
        let london = TimeZone(identifier: "Europe/London")!
        #expect(days("FREQ=WEEKLY", from: "20261019T090000", before: "20261103", zone: london) ==
                ["2026-10-19 09:00", "2026-10-26 09:00", "2026-11-02 09:00"])
    }

    @Test func rulesItCannotFollowExactlyAreRefused() {
        #expect(EventRecurrence("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1", zone: utc) == nil)
        #expect(EventRecurrence("FREQ=HOURLY", zone: utc) == nil)
        #expect(EventRecurrence("FREQ=WEEKLY;BYDAY=2MO", zone: utc) == nil)
        #expect(EventRecurrence("INTERVAL=2", zone: utc) == nil)
        #expect(EventRecurrence("FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2", zone: utc) != nil)
        #expect(days("FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2", from: "20270131T080000", before: "20400101") == ["2027-01-31 08:00"])
    }

    @Test func anEventFileExpandsWithinTheWindowLessExceptionsAndMovedInstances() {
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:standup
            SUMMARY:Standup
            DTSTART:20261102T090000Z
            DTEND:20261102T091500Z
            RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
            EXDATE:20261125T090000Z
            BEGIN:VALARM
            SUMMARY:Alarm text
            TRIGGER:-PT5M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID:20261126T090000Z
            SUMMARY:Standup (moved)
            DTSTART:20261126T110000Z
            DTEND:20261126T111500Z
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID:20261127T090000Z
            SUMMARY:Standup
            STATUS:CANCELLED
            DTSTART:20261127T090000Z
            END:VEVENT
            END:VCALENDAR
            """
        func on(_ day: String) -> [String] {
            let start = date(day)
            return CalendarEvent.read(ics, file: "w.ics", zone: utc, window: DateInterval(start: start, duration: 86_400))
                .filter { $0.end > start && $0.start < start.addingTimeInterval(86_400) }
                .map { "\($0.title) \(ISOMoment.format($0.start, zone: utc))" }
        }
        #expect(on("20261124") == ["Standup 2026-11-24T09:00:00Z"])
        #expect(on("20261125") == [])
        #expect(on("20261126") == ["Standup (moved) 2026-11-26T11:00:00Z"])
        #expect(on("20261127") == [])
        #expect(on("20261128") == [])
        #expect(on("20261130") == ["Standup 2026-11-30T09:00:00Z"])
        // Without a window the rule is not expanded: the first occurrence, as before.
        #expect(CalendarEvent.read(ics, file: "w.ics", zone: utc).map(\.title) == ["Standup", "Standup (moved)"])
    }
}
