import Foundation
import Testing
@testable import PBDates

/// Fixed "now": Wednesday 25 November 2026, 10:00 UTC.
@Suite struct NaturalDateParserTests {
    static let utc = TimeZone(secondsFromGMT: 0)!
    static let now = DateValueFormat(timeZone: utc).parseInstant("2026-11-25T10:00:00Z")!
    let format = DateValueFormat(timeZone: utc)

    func parser(weekStart: Weekday = .monday, order: DateOrder = .dayMonthYear, now: Date = Self.now) -> NaturalDateParser {
        NaturalDateParser(now: now, timeZone: Self.utc, weekStart: weekStart, dateOrder: order)
    }

    /// The first match as "value grain" (value per grain, as pb-date writes it).
    func read(_ text: String, _ p: NaturalDateParser? = nil) -> String? {
        guard let m = (p ?? parser()).firstMatch(in: text) else { return nil }
        if let e = m.error { return "error: \(e)" }
        return "\(format.value(m.value!, grain: m.grain)) \(m.grain.rawValue)"
    }

    @Test func acceptancePhrase() {
        let text = "Call Mom tonight, grab the birthday cake Saturday, and get the dentist booked before next week"
        let ms = parser().matches(in: text)
        #expect(ms.map(\.phrase) == ["tonight", "Saturday", "before next week"])
        #expect(ms.map { format.value($0.value!, grain: $0.grain) } == ["2026-11-25T18:00:00+00:00", "2026-11-28", "2026-11-29"])
        #expect(ms.map(\.grain) == [.partOfDay, .day, .day])
        #expect(ms[0].valueEnd.map(format.instant) == "2026-11-26T00:00:00+00:00")
    }

    @Test func relativeDays() {
        #expect(read("today") == "2026-11-25 day")
        #expect(read("Tomorrow") == "2026-11-26 day")
        #expect(read("yesterday") == "2026-11-24 day")
        #expect(read("the day after tomorrow") == "2026-11-27 day")
        #expect(read("day before yesterday") == "2026-11-23 day")
    }

    @Test func weekdays() {
        #expect(read("friday") == "2026-11-27 day")
        #expect(read("this friday") == "2026-11-27 day")
        #expect(read("wednesday") == "2026-12-02 day")   // today is Wednesday: a week ahead
        #expect(read("this wednesday") == "2026-11-25 day")
        #expect(read("last friday") == "2026-11-20 day")
        // "next friday": the Friday of next week, with the coming Friday as the alternative.
        let m = parser().firstMatch(in: "next friday")!
        #expect(format.date(m.value!) == "2026-12-04")
        #expect(m.alternatives.map { format.date($0.value) } == ["2026-11-27"])
        #expect(m.alternatives.first?.reason == "the coming friday")
    }

    @Test("British 'friday week' and 'a week on friday' are a week after the coming Friday; 'sat' counts before a part of the day")
    func weekAfterTheComingDay() {
        #expect(read("friday week") == "2026-12-04 day")
        #expect(read("a week on friday") == "2026-12-04 day")
        #expect(read("a week on wednesday") == "2026-12-09 day", "today is Wednesday: the coming one is a week ahead")
        #expect(read("get the car washed tuesday week") == "2026-12-08 day")
        #expect(parser().firstMatch(in: "tuesday weekly")?.phrase == "tuesday", "only the word week")
        #expect(read("sat morning") == "2026-11-28T06:00:00+00:00 part-of-day")
        #expect(parser().firstMatch(in: "we sat down") == nil)
    }

    @Test("quarters: by number (Q3, the third quarter, 4th qtr of 2018), this/next/last quarter, the end of one; never a quarter past three")
    func quarters() {
        #expect(read("this quarter") == "2026-10-01 quarter")
        #expect(read("next qtr") == "2027-01-01 quarter")
        #expect(read("last quarter") == "2026-07-01 quarter")
        #expect(read("Q1") == "2027-01-01 quarter", "Q1 2026 is over: next year's")
        #expect(read("q4") == "2026-10-01 quarter", "Q4 2026 is under way")
        #expect(read("the 3rd qtr") == "2027-07-01 quarter")
        #expect(read("4th quarter 2018") == "2018-10-01 quarter")
        #expect(read("the second quarter of next year") == "2027-04-01 quarter")
        #expect(read("Q2 2027") == "2027-04-01 quarter")
        #expect(read("by end of Q1") == "2027-03-31 day")
        #expect(read("at the end of the quarter") == "2026-12-31 day")
        #expect(read("end of next quarter") == "2027-03-31 day")
        #expect(read("a quarter past 3pm") == "2026-11-25T15:15:00+00:00 minute")
        #expect(parser().firstMatch(in: "the quarter final") == nil)
        #expect(parser().firstMatch(in: "a quarter of the cake") == nil)
    }

    @Test("about a time (3ish), fractions of a unit (1/2 hour, 2 and a half hours), a time before 'Fri, Sep 20', days of a month by count, a weekday of a named week")
    func looserPhrases() {
        #expect(read("at 3ish") == "2026-11-25T15:00:00+00:00 hour")
        #expect(read("call around 5-ish pm") == "2026-11-25T17:00:00+00:00 hour")
        #expect(parser().firstMatch(in: "bring 10ish chairs") == nil)
        #expect(read("in 1/2 hour") == "2026-11-25T10:30:00+00:00 minute")
        #expect(read("in 2 and a half hours") == "2026-11-25T12:30:00+00:00 minute")
        #expect(read("at 7:30 PM on Fri, Sep 20", parser(order: .monthDayYear)) == "2027-09-20T19:30:00+00:00 minute")
        #expect(read("lunch at noon on Mon, Dec 14") == "2026-12-14T12:00:00+00:00 hour", "an abbreviated Monday before a date")
        #expect(read("sat 12 december") == "2026-12-12 day")
        #expect(parser().firstMatch(in: "we sat 12 people") == nil)
        #expect(read("pay rent on the last day of the month") == "2026-11-30 day")
        #expect(read("the first day of the month") == "2026-12-01 day", "this month's first is past")
        #expect(read("the last day in october 2015") == "2015-10-31 day")
        #expect(read("sunday from last week") == "2026-11-22 day")
        #expect(read("last week's sunday") == "2026-11-22 day")
    }

    @Test("a day said as people speak it: a counting word after a month, an ordinal word after a word of when")
    func spokenDaysOfTheMonth() {
        #expect(read("clear all events from march seven") == "2027-03-07 day")
        #expect(read("on january twenty five set meeting for twelve") == "2027-01-25 day")
        #expect(read("march twenty-five") == "2027-03-25 day")
        #expect(parser().firstMatch(in: "may two people come") == nil)
        #expect(read("clear my day on the twenty ninth") == "2026-11-29 day")
        #expect(read("remove it on the twentieth") == "2026-12-20 day", "this month's twentieth is past")
        #expect(read("by the fifth, please") == "2026-12-05 day")
        for phrase in ["meet on the third floor", "for the first time", "on the first try", "by the second half", "after the third attempt",
                       "march seven soldiers", "june one more time"] {
            #expect(parser().firstMatch(in: phrase) == nil, "\(phrase): a word that can be a noun follows")
        }
        #expect(parser().firstMatch(in: "the second one") == nil, "no word of when before it")
    }

    @Test func everyOtherFridayIsARecurrence() {
        let m = parser().firstMatch(in: "water the plants every other friday")!
        #expect(m.phrase == "every other friday")
        #expect(format.date(m.value!) == "2026-11-27")
        #expect(m.recurrence == DateRecurrence(interval: 2, weekday: .friday))
        #expect(parser().firstMatch(in: "every monday")!.recurrence?.interval == 1)
    }

    @Test func relativeAmounts() {
        #expect(read("in 3 days") == "2026-11-28 day")
        #expect(read("in two weeks") == "2026-12-09 day")
        #expect(read("in twenty-one days") == "2026-12-16 day")
        #expect(read("in 2 months") == "2027-01-25 day")
        #expect(read("in a year") == "2027-11-25 day")
        #expect(read("in a fortnight") == "2026-12-09 day")
        #expect(read("a fortnight from now") == "2026-12-09 day")
        #expect(read("5 days ago") == "2026-11-20 day")
        #expect(read("three weeks ago") == "2026-11-04 day")
        #expect(read("in 2 hours") == "2026-11-25T12:00:00+00:00 hour")
        #expect(read("in half an hour") == "2026-11-25T10:30:00+00:00 minute")
    }

    @Test func amountsCountedFromADayFractionsAndShortUnits() {
        #expect(read("2 days after tomorrow") == "2026-11-28 day")
        #expect(read("a week before friday") == "2026-11-20 day")
        #expect(read("3 days before the meeting") == nil)
        #expect(read("in 1.5 hours") == "2026-11-25T11:30:00+00:00 minute")
        #expect(read("in 5m") == "2026-11-25T10:05:00+00:00 minute")
        #expect(read("in 1d 2hr 5min") == "2026-11-26T12:05:00+00:00 minute")
        #expect(read("in 5 m") == nil)   // a letter apart from its number is no unit
    }

    @Test func moreWrittenDates() {
        #expect(read("May twenty-fourth") == "2027-05-24 day")
        #expect(read("the thirty first of December") == "2026-12-31 day")
        #expect(read("May eighth, 2010") == "2010-05-08 day")
        #expect(read("you may first call Bob") == nil)
        // After a word only a date follows, "march first" is the 1st of March.
        #expect(read("dinner on march first") == "2027-03-01 day")
        #expect(read("we march first, then rest") == nil)
        // Two-digit years only where nothing else can follow.
        #expect(read("3 Aug 96") == "1996-08-03 day")
        #expect(read("Aug 9, 96.") == "1996-08-09 day")
        #expect(read("buy 3 Aug 12 eggs") == "2027-08-03 day")
        #expect(read("3 Aug 10 am") == "2027-08-03T10:00:00+00:00 hour")
        #expect(read("10 August 88 AD") == "2027-08-10 day")
        // Year first with a month name; day/month name/year.
        #expect(read("2024 Aug") == "2024-08-01 month")
        #expect(read("the deadline is 2018 March 18") == "2018-03-18 day")
        #expect(read("2012/Aug/10") == "2012-08-10 day")
        #expect(read("8/Oct/2012") == "2012-10-08 day")
    }

    @Test func rangesLendTheirMonthAndYear() {
        let p = parser()
        #expect(p.matches(in: "10 - 22 August 2012").map { format.value($0.value!, grain: $0.grain) } == ["2012-08-10", "2012-08-22"])
        #expect(read("Aug 10 - Nov 12, 2013") == "2013-08-10 day")
        #expect(read("10 August - 12 September 2013") == "2013-08-10 day")
        #expect(read("May 8 - 10, 2010") == "2010-05-08 day")
        #expect(read("February 20 - 29, 2022") == "error: 'February 20 - 29, 2022' is not a date: february 2022 has 28 days")
        #expect(read("Feb 20 - 30 people") == "2027-02-20 day")
    }

    @Test func endsOfPeriods() {
        #expect(read("end of the week") == "2026-11-29 day")
        #expect(read("by the end of the month") == "2026-11-30 day")
        #expect(read("by the end of next month") == "2026-12-31 day")
        #expect(read("end of the year") == "2026-12-31 day")
        #expect(read("before next week") == "2026-11-29 day")
        #expect(parser().firstMatch(in: "by the end of next month")!.phrase == "by the end of next month")
    }

    @Test func weeksWeekendsMonths() {
        let w = parser().firstMatch(in: "this weekend")!
        #expect(w.grain == .weekend)
        #expect(format.date(w.value!) == "2026-11-28")
        #expect(format.end(w.valueEnd!, grain: .weekend) == "2026-11-29")
        let n = parser().firstMatch(in: "next weekend")!
        #expect(format.date(n.value!) == "2026-12-05")
        #expect(n.alternatives.map { format.date($0.value) } == ["2026-11-28"])
        #expect(read("next week") == "2026-11-30 week")
        #expect(read("next month") == "2026-12-01 month")
        #expect(read("in March") == "2027-03-01 month")
        #expect(read("March 2027") == "2027-03-01 month")
    }

    @Test func explicitDates() {
        #expect(read("2026-01-27") == "2026-01-27 day")
        #expect(read("27 Jan") == "2027-01-27 day")
        #expect(read("Jan 27th") == "2027-01-27 day")
        #expect(read("January 27, 2027") == "2027-01-27 day")
        #expect(read("the 27th of January 2027") == "2027-01-27 day")
        #expect(read("27/01/2027") == "2027-01-27 day")
        #expect(read("Dec 1") == "2026-12-01 day")
        #expect(read("on the 30th") == "2026-11-30 day")
        #expect(read("Tuesday, January 27, 2027") == "2027-01-27 day")
    }

    @Test func dateOrder() {
        #expect(read("03/04/2026") == "2026-04-03 day")
        #expect(read("03/04/2026", parser(order: .monthDayYear)) == "2026-03-04 day")
        #expect(read("26/04/03", parser(order: .yearMonthDay)) == "2026-04-03 day")
        #expect(read("2026/04/03", parser(order: .monthDayYear)) == "2026-04-03 day")
        let m = parser().firstMatch(in: "03/04/2026")!
        #expect(m.alternatives.map(\.reason) == ["read as month/day"])
        #expect(read("01/27/2027")?.hasPrefix("error: ") == true)
        #expect(read("01/27/2027", parser(order: .monthDayYear)) == "2027-01-27 day")
    }

    @Test func impossibleDatesAreErrors() {
        for text in ["Feb 30", "30 February", "31/04/2026", "2026-02-29", "April 31st"] {
            let m = parser().firstMatch(in: "see you \(text)")
            #expect(m?.value == nil, "\(text)")
            #expect(m?.error != nil, "\(text)")
            #expect(m?.phrase == text)
        }
        #expect(parser().firstMatch(in: "Feb 30")!.error == "'Feb 30' is not a date: february has at most 29 days")
        #expect(parser().firstMatch(in: "31/04/2026")!.error == "'31/04/2026' is not a date: april has 30 days")
        #expect(read("29 Feb") == "2028-02-29 day")
        #expect(read("at 25:00")?.hasPrefix("error: ") == true)
    }

    @Test func timesOfDay() {
        #expect(read("at 5pm") == "2026-11-25T17:00:00+00:00 hour")
        #expect(read("17:30") == "2026-11-25T17:30:00+00:00 minute")
        #expect(read("noon") == "2026-11-25T12:00:00+00:00 hour")
        #expect(read("midnight") == "2026-11-26T00:00:00+00:00 hour")
        #expect(read("5 in the afternoon") == "2026-11-25T17:00:00+00:00 hour")
        #expect(read("at 9:30 a.m.") == "2026-11-26T09:30:00+00:00 minute")   // already past today
        #expect(read("tonight") == "2026-11-25T18:00:00+00:00 part-of-day")
        #expect(read("this afternoon") == "2026-11-25T12:00:00+00:00 part-of-day")
        #expect(read("this morning") == "2026-11-25T06:00:00+00:00 part-of-day")
        #expect(read("3 tasks") == nil)
    }

    @Test func combinations() {
        let t = parser().firstMatch(in: "tomorrow at 9")!
        #expect(format.instant(t.value!) == "2026-11-26T09:00:00+00:00")
        #expect(t.alternatives.map { format.instant($0.value) } == ["2026-11-26T21:00:00+00:00"])
        #expect(read("next Monday morning") == "2026-11-30T06:00:00+00:00 part-of-day")
        #expect(read("friday at 3pm") == "2026-11-27T15:00:00+00:00 hour")
        #expect(read("at 3pm on friday") == "2026-11-27T15:00:00+00:00 hour")
        #expect(read("tonight at 8") == "2026-11-25T20:00:00+00:00 hour")
        #expect(read("Jan 27 at 17:30") == "2027-01-27T17:30:00+00:00 minute")
        #expect(read("2026-11-30T09:00") == "2026-11-30T09:00:00+00:00 minute")
    }

    @Test func byteOffsetsAreUTF8() {
        let text = "café ☕ meeting tomorrow at 9"
        let m = parser().firstMatch(in: text)!
        #expect(m.phrase == "tomorrow at 9")
        #expect(m.start == 18)   // "café" is 5 bytes, "☕" 3
        #expect(m.end == 31)
        #expect(String(decoding: Array(text.utf8)[m.start..<m.end], as: UTF8.self) == m.phrase)
    }

    @Test func weekStartMovesWeeks() {
        // Sunday 29 November 2026.
        let sunday = DateValueFormat(timeZone: Self.utc).parseInstant("2026-11-29T10:00:00Z")!
        #expect(read("next week", parser(now: sunday)) == "2026-11-30 week")
        #expect(read("next week", parser(weekStart: .sunday, now: sunday)) == "2026-12-06 week")
        #expect(read("next friday", parser(now: sunday)) == "2026-12-04 day")
        #expect(read("next friday", parser(weekStart: .sunday, now: sunday)) == "2026-12-11 day")
        #expect(read("end of the week", parser(weekStart: .sunday)) == "2026-11-28 day")
        #expect(read("before next week", parser(weekStart: .sunday)) == "2026-11-28 day")
    }

    @Test func wordsThatAreNotDates() {
        for text in ["may I ask", "24/7 support", "version 1.2.3", "mon dieu", "a few notes", "good morning"] {
            #expect(parser().matches(in: text).isEmpty, "\(text)")
        }
    }

    @Test func timeZoneShiftsTheDay() {
        let lisbonLate = DateValueFormat(timeZone: Self.utc).parseInstant("2026-11-25T23:30:00Z")!
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let p = NaturalDateParser(now: lisbonLate, timeZone: tokyo)
        let m = p.firstMatch(in: "tomorrow at 9")!
        #expect(DateValueFormat(timeZone: tokyo).instant(m.value!) == "2026-11-27T09:00:00+09:00")
    }
}
