import Foundation
import Testing
@testable import PBDates

/// Spoken date forms, against Wednesday 25 November 2026, 10:00 UTC.
@Suite("NaturalDateParser: spoken times, counted weekdays, holidays, zones")
struct SpokenDateTests {
    static let utc = TimeZone(secondsFromGMT: 0)!
    static let now = DateValueFormat(timeZone: utc).parseInstant("2026-11-25T10:00:00Z")!

    func read(_ text: String, zone: TimeZone = utc) -> String? {
        let p = NaturalDateParser(now: Self.now, timeZone: zone)
        guard let m = p.firstMatch(in: text) else { return nil }
        if let e = m.error { return "error: \(e)" }
        return DateValueFormat(timeZone: zone).value(m.value!, grain: m.grain)
    }

    @Test("spoken and clock times", arguments: [
        ("ten forty pm", "2026-11-25T22:40:00+00:00"),
        ("half past 4", "2026-11-25T16:30:00+00:00"),
        ("a quarter to 3pm", "2026-11-25T14:45:00+00:00"),
        ("10 to noon", "2026-11-25T11:50:00+00:00"),
        ("five to midnight", "2026-11-25T23:55:00+00:00"),
        ("eleven-oh-five", "2026-11-25T11:05:00+00:00"),
        ("nine tonight", "2026-11-25T21:00:00+00:00"),
        ("at 830 in the morning", "2026-11-26T08:30:00+00:00"),
        ("8p", "2026-11-25T20:00:00+00:00"),
        ("11:45a", "2026-11-25T11:45:00+00:00"),
        ("14h", "2026-11-25T14:00:00+00:00"),
        ("16h30", "2026-11-25T16:30:00+00:00"),
        ("10 tomorrow", "2026-11-26T10:00:00+00:00"),
        ("6 on saturday", "2026-11-28T18:00:00+00:00"),
    ])
    func times(text: String, value: String) { #expect(read(text) == value) }

    @Test("numbers that are not times", arguments: ["3 tasks", "five people came", "at one point", "flat 3a", "from 9 to 5"])
    func notTimes(text: String) {
        #expect(NaturalDateParser(now: Self.now, timeZone: Self.utc).firstMatch(in: text) == nil)
    }

    @Test("a count before a day stays a count")
    func counts() {
        let p = NaturalDateParser(now: Self.now, timeZone: Self.utc)
        #expect(p.firstMatch(in: "buy 2 tomorrow")?.phrase == "tomorrow")
        #expect(p.firstMatch(in: "invite six tonight")?.phrase == "tonight")
        #expect(p.firstMatch(in: "dinner 8 tomorrow")?.phrase == "8 tomorrow")
    }

    @Test("14h is a time, 2h a duration")
    func hoursSuffix() { #expect(read("in 2h") == "2026-11-25T12:00:00+00:00") }

    @Test("weekdays counted in a month, from today, in a week", arguments: [
        ("second monday of march 2015", "2015-03-09"),
        ("the first friday in the month", "2026-12-04"),
        ("last sunday in may", "2027-05-30"),
        ("the 3rd thursday of next month", "2026-12-17"),
        ("2 mondays from now", "2026-12-07"),
        ("thursday after next", "2026-12-03"),
        ("friday of this week", "2026-11-27"),
        ("wednesday next week", "2026-12-02"),
        ("tue", "2026-12-01"),
        ("sat.", "2026-11-28"),
    ])
    func weekdays(text: String, value: String) { #expect(read(text) == value) }

    @Test("no fifth monday is an error, not a rollover")
    func noFifth() { #expect(read("the fifth monday of february 2027")?.hasPrefix("error:") == true) }

    @Test("holidays, with offsets and years", arguments: [
        ("christmas", "2026-12-25"),
        ("christmas eve", "2026-12-24"),
        ("new year's day", "2027-01-01"),
        ("two weeks after christmas", "2027-01-08"),
        ("the day after boxing day", "2026-12-27"),
        ("easter 2027", "2027-03-28"),
        ("good friday 2026", "2026-04-03"),
        ("thanksgiving", "2026-11-26"),
        ("memorial day", "2027-05-31"),
    ])
    func holidays(text: String, value: String) { #expect(read(text) == value) }

    @Test("a holiday's name used as an adjective is no date")
    func adjective() {
        let p = NaturalDateParser(now: Self.now, timeZone: Self.utc)
        #expect(p.firstMatch(in: "buy christmas presents") == nil)
        #expect(p.firstMatch(in: "paint easter eggs")?.phrase == nil)
        #expect(p.firstMatch(in: "presents for christmas")?.phrase == "christmas")
    }

    @Test("a zone named in the text is converted to the user's zone, and reported")
    func zones() {
        #expect(read("3pm PST") == "2026-11-25T23:00:00+00:00")
        #expect(read("10:30 CET tomorrow") == "2026-11-26T09:30:00+00:00")
        #expect(read("noon IST") == "2026-11-26T06:30:00+00:00")
        #expect(read("11 am GMT+0900") == "2026-11-26T02:00:00+00:00")
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(read("3pm GMT", zone: berlin) == "2026-11-25T16:00:00+01:00")
        let m = NaturalDateParser(now: Self.now, timeZone: Self.utc).firstMatch(in: "9am pacific time")!
        #expect(m.zone?.secondsFromGMT(for: m.value!) == -8 * 3600)
    }

    @Test("the upcoming days are a range from today")
    func upcoming() {
        let m = NaturalDateParser(now: Self.now, timeZone: Self.utc).firstMatch(in: "upcoming 3 days")!
        let f = DateValueFormat(timeZone: Self.utc)
        #expect(m.grain == .days)
        #expect(f.value(m.value!, grain: m.grain) == "2026-11-25")
        #expect(f.end(m.valueEnd!, grain: m.grain) == "2026-11-27")
    }
}
