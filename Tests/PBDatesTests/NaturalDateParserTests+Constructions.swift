import Foundation
import Testing
@testable import PBDates

/// Constructions people say and write that a planner must read: amounts counted from a named day,
/// weeks of a month, periods after next and before last, a bare ordinal day, abbreviations, starts
/// and middles of periods, and texting spellings. Now is Wednesday 25 November 2026, 10:00 UTC.
extension NaturalDateParserTests {

    @Test("an amount counted from a named day: 'a week from tomorrow', '3 days from friday', 'a week today', 'tomorrow week'")
    func amountsFromADay() {
        #expect(read("a week from tomorrow") == "2026-12-03 day")
        #expect(read("3 days from friday") == "2026-11-30 day")
        #expect(read("2 weeks from monday") == "2026-12-14 day")
        #expect(read("a week today") == "2026-12-02 day")
        #expect(read("a fortnight tomorrow") == "2026-12-10 day")
        #expect(read("tomorrow week") == "2026-12-03 day")
        #expect(read("a week from now") == "2026-12-02 day")
        #expect(read("3 days from the meeting") == nil)
        #expect(read("take the pills 30 minutes before") == nil, "before something unsaid: no date")
        #expect(read("10 days before the trip") == nil)
    }

    @Test("the nth or last week of a month is its nth or last full week; the week holding the 1st or the last day is the alternative")
    func weeksOfAMonth() {
        let first = parser().firstMatch(in: "the first week of december")!
        #expect(format.date(first.value!) == "2026-12-07")
        #expect(first.grain == .week)
        #expect(first.alternatives.map { format.date($0.value) } == ["2026-11-30"])
        let m = parser().firstMatch(in: "second week of january")!
        #expect(format.date(m.value!) == "2027-01-11")
        #expect(m.alternatives.map { format.date($0.value) } == ["2027-01-04"])
        #expect(read("last week of december") == "2026-12-21 week")
        #expect(parser().firstMatch(in: "last week of december")!.alternatives.map { format.date($0.value) } == ["2026-12-28"])
        #expect(read("the last week of the year") == "2026-12-21 week")
        #expect(read("the first week of next month") == "2026-12-07 week")
        #expect(read("the first week of december", parser(weekStart: .sunday)) == "2026-12-06 week")
        #expect(read("the 3rd week of march 2027") == "2027-03-15 week")
        #expect(read("the week of december 7th") == "2026-12-07 week")
        #expect(read("the first weekend of december") == "2026-12-05 weekend")
        #expect(read("last weekend of january") == "2027-01-30 weekend")
        #expect(read("last week") == "2026-11-16 week", "a week of nothing named is still last week")
    }

    @Test("after next and before last: the week, month, year and weekday two steps away")
    func twoStepsAway() {
        #expect(read("the month after next") == "2027-01-01 month")
        #expect(read("the year after next") == "2028-01-01 year")
        #expect(read("week after next") == "2026-12-07 week")
        #expect(read("the week before last") == "2026-11-09 week")
        #expect(read("the month before last") == "2026-09-01 month")
        #expect(read("the friday before last") == "2026-11-13 day")
        #expect(read("wednesday before last") == "2026-11-11 day")
        #expect(read("march after next") == "2028-03-01 month")
        #expect(read("the third tuesday after christmas") == "2027-01-12 day")
        #expect(read("the first monday before new year's day") == "2026-12-28 day")
    }

    @Test("a bare ordinal day: '15th at noon', 'pay rent on 1st'; not '5th floor' or 'my 3rd attempt'")
    func bareOrdinalDays() {
        #expect(read("15th at noon") == "2026-12-15T12:00:00+00:00 hour")
        #expect(read("pay rent on 1st") == "2026-12-01 day")
        #expect(read("due by 30th") == "2026-11-30 day")
        #expect(read("meet on 5th floor") == nil)
        #expect(read("my 3rd attempt") == nil)
        #expect(read("the 21st birthday party") == nil)
    }

    @Test("'20 to 4' and '25 after 4' said alone are times; never inside a range or a count")
    func minutesToAnHourAlone() {
        #expect(read("20 to 4") == "2026-11-25T15:40:00+00:00 minute")
        #expect(read("25 after 4") == "2026-11-25T16:25:00+00:00 minute")
        #expect(read("from 20 to 4") == nil)
        #expect(read("add 20 to 4 tins") == nil)
    }

    @Test("'sat', 'sun', 'wed' after a word of when, or alone; never 'put on sun cream'")
    func shortWeekdaysAfterAWordOfWhen() {
        #expect(read("on sat") == "2026-11-28 day")
        #expect(read("call the plumber by wed") == "2026-12-02 day")
        #expect(read("sun") == "2026-11-29 day")
        #expect(read("put on sun cream") == nil)
        #expect(read("read the chapter on sun") == nil)
        #expect(read("by sun") == "2026-11-29 day")
        #expect(read("we sat on the bench") == nil)
    }

    @Test("a month alone, or a month or a year after by / until / since / before: its span")
    func monthsAndYearsAfterAWordOfWhen() {
        #expect(read("March") == "2027-03-01 month")
        #expect(read("finish the tax return by june") == "2027-06-01 month")
        #expect(read("until april") == "2027-04-01 month")
        #expect(read("the month of may") == "2027-05-01 month")
        #expect(read("we march on") == nil)
        #expect(read("you may go") == nil)
        #expect(read("buy bread from may's bakery") == nil)
        #expect(read("2030") == nil, "a number as often as a year")
        #expect(read("be home by 2030") == nil, "2030 may be 20:30")
        #expect(read("since 1999") == "1999-01-01 year")
        #expect(read("buy 2000 sheets") == nil)
        #expect(read("by 2000 people") == nil)
    }

    @Test("EOD, COB, EOW, EOM, EOY; the start, beginning and middle of a period")
    func abbreviationsStartsAndMiddles() {
        #expect(read("send the report by EOD") == "2026-11-25 day")
        #expect(read("by end of day") == "2026-11-25 day")
        #expect(read("by the end of the day") == "2026-11-25 day")
        #expect(read("close of business friday") == "2026-11-27 day")
        #expect(read("buy corn on the cob") == nil)
        #expect(read("the EOY party is on the 18th") == "2026-12-18 day", "EOY names the party")
        #expect(read("prepare the EOD report") == nil)
        #expect(read("EOW") == "2026-11-29 day")
        #expect(read("EOM") == "2026-11-30 day")
        #expect(read("eoy") == "2026-12-31 day")
        #expect(read("beginning of march") == "2027-03-01 day")
        #expect(read("at the start of next month") == "2026-12-01 day")
        #expect(read("start of next week") == "2026-11-30 day")
        #expect(read("mid march") == "2027-03-15 day")
        #expect(read("mid-december") == "2026-12-15 day")
        #expect(read("the mid year review") == nil)
        #expect(read("beginning of november") == "2027-11-01 day", "this November's first is past")
        #expect(read("mid-november") == "2027-11-15 day")
        #expect(read("the middle of next month") == "2026-12-15 day")
        #expect(read("a fresh start of term") == nil)
    }

    @Test("a day of a month said by which month; a year before its quarter; quarters of an hour; the ides of March; '3 15 pm', 'at 7.30'; last christmas")
    func moreWaysToSayADay() {
        #expect(read("the 20th of next month") == "2026-12-20 day")
        #expect(read("the 5th of this month") == "2026-11-05 day", "this month's, though past")
        #expect(read("the first of the month") == "2026-12-01 day", "this month's first is past")
        #expect(read("first of next month") == "2026-12-01 day")
        #expect(read("friday 27th") == "2026-11-27 day")
        #expect(read("friday 13th") == "2027-08-13 day", "the next 13th that is a Friday")
        #expect(read("sunday the 3rd") == "2027-01-03 day")
        #expect(read("visit mum the weekend of the 5th") == "2026-12-05 weekend")
        #expect(read("the fifth week of march")?.contains("no fifth week") == true, "a full week must end in its month")
        #expect(read("the first monday of 2027") == "2027-01-04 day")
        #expect(read("the last friday of next year") == "2027-12-31 day")
        #expect(read("2027 Q2") == "2027-04-01 quarter")
        #expect(read("in a quarter of an hour") == "2026-11-25T10:15:00+00:00 minute")
        #expect(read("in three quarters of an hour") == "2026-11-25T10:45:00+00:00 minute")
        #expect(read("this week-end") == "2026-11-28 weekend")
        #expect(read("the ides of march") == "2027-03-15 day")
        #expect(read("3 15 pm") == "2026-11-25T15:15:00+00:00 minute")
        #expect(read("buy 3 15 packs") == nil)
        #expect(read("meet at 5 30") == "2026-11-25T17:30:00+00:00 minute")
        #expect(read("thursday at 7.30") == "2026-11-26T07:30:00+00:00 minute")
        #expect(read("buy apples at 1.50 each") == nil)
        #expect(read("in about 2 hours") == "2026-11-25T12:00:00+00:00 hour")
        #expect(read("in another hour") == "2026-11-25T11:00:00+00:00 hour")
        #expect(read("last christmas") == "2025-12-25 day")
        #expect(read("march of 2027") == "2027-03-01 month")
        #expect(read("march '27") == "2027-03-01 month")
        #expect(read("2027-03") == "2027-03-01 month")
        #expect(read("03/2027") == "2027-03-01 month")
        #expect(read("add milk, we're out at the moment") == nil)
        #expect(read("2027-03-15") == "2027-03-15 day", "a day of the month is a day")
        #expect(read("in 2 more minutes") == "2026-11-25T10:02:00+00:00 minute")
        #expect(read("in few hours") == "2026-11-25T13:00:00+00:00 hour")
        #expect(read("3 in the AM") == "2026-11-26T03:00:00+00:00 hour")
        #expect(read("at 3 o'clock pm") == "2026-11-25T15:00:00+00:00 hour")
        #expect(read("a few more people") == nil)
        #expect(read("next easter") == "2027-03-28 day")
    }

    @Test("this time tomorrow, same time next week: now's clock on that day")
    func thisTimeOnAnotherDay() {
        #expect(read("this time tomorrow") == "2026-11-26T10:00:00+00:00 minute")
        #expect(read("same time next week") == "2026-12-02T10:00:00+00:00 minute")
    }

    @Test("texting spellings of tomorrow: 2moro, 2morrow (pb-plan puts other misspellings right before it reads dates)")
    func textingSpellings() {
        #expect(read("2moro") == "2026-11-26 day")
        #expect(read("call mum 2morrow at 6") == "2026-11-26T18:00:00+00:00 hour")
        #expect(read("2 morrow") == nil)
    }
}
