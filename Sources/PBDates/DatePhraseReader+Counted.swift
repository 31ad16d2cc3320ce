import Foundation

/// Weekdays counted within a month or from today, a weekday of a named week, "the day after X",
/// and "the upcoming N days".
extension DatePhraseReader {

    /// "first", "2nd", "third", ..., "fifth", "last": which of a month's weekdays (-1 for last).
    func weekdayOrdinal(at i: Int) -> (n: Int, next: Int)? {
        if isWord(i, "last", "final") { return (-1, i + 1) }
        if let w = word(i), let n = DateVocabulary.ordinalWords[w], (1...5).contains(n) { return (n, i + 1) }
        if let n = number(i), (1...5).contains(n), let w = word(i + 1), glued(i + 1), DateVocabulary.ordinalSuffixes.contains(w) {
            return (n, i + 2)
        }
        return nil
    }

    /// The `n`th `weekday` of a month (n = -1: the last), or nil when the month has no such day.
    func nthWeekday(_ n: Int, _ weekday: Weekday, year: Int, month: Int) -> Date? {
        guard let first = cal.date(year: year, month: month, day: 1) else { return nil }
        if n < 0 {
            let lastDay = cal.date(year: year, month: month, day: cal.daysInMonth(year: year, month: month))!
            let back = (cal.weekday(lastDay).rawValue - weekday.rawValue + 7) % 7
            return cal.day(lastDay, plus: -back)
        }
        let d = cal.day(first, plus: cal.daysUntil(weekday, from: first) + 7 * (n - 1))
        return cal.calendar.component(.month, from: d) == month ? d : nil
    }

    /// [the] second monday of march [2015], the first friday in the month, the last sunday in may,
    /// the 3rd thursday of next month, the first monday of 2014 (of January; the last, of
    /// December). Without a year, the next such day on or after today; "the month" is this month,
    /// or next month once this month's has passed ("this month" stays).
    func monthWeekday(at i: Int) -> DatePiece? {
        let j = skipThe(i)
        // A day by count takes any ordinal ("the twenty-first day of the month"), a weekday one to five.
        let counted: (n: Int, next: Int)? = weekdayOrdinal(at: j).flatMap { o in isWord(o.next, "day") ? o : nil }
            ?? dayNumber(at: j).flatMap { d in d.ordinal && d.day <= 31 && isWord(d.next, "day") ? (d.day, d.next) : nil }
        guard let (n, afterOrdinal) = counted ?? weekdayOrdinal(at: j), let name = word(afterOrdinal),
              Weekday(word: name) != nil || name == "day", isWord(afterOrdinal + 1, "of", "in") else { return nil }
        // "the last day of the month", "the first day in october": a day of the month by count.
        let weekday = Weekday(word: name)
        func pick(year: Int, month: Int) -> Date? {
            if let weekday { return nthWeekday(n, weekday, year: year, month: month) }
            return cal.date(year: year, month: month, day: n < 0 ? cal.daysInMonth(year: year, month: month) : n)
        }
        guard let (year, month, roll, last) = countedMonth(at: afterOrdinal + 2, yearMonth: n < 0 ? 12 : 1) else { return nil }
        let today = cal.today
        guard var day = pick(year: year, month: month) else {
            let which = n < 0 ? "last" : ["first", "second", "third", "fourth", "fifth"][n - 1]
            return .failure("\(DateVocabulary.monthNames[month - 1]) \(year) has no \(which) \(weekday?.name ?? "day")", i, last)
        }
        if let roll, day < today {
            let next = cal.adding(1, roll, to: cal.date(year: year, month: month, day: 1)!)
            if let d = pick(year: cal.year(next), month: cal.calendar.component(.month, from: next)) { day = d }
        }
        var p = DatePiece.day(daySpan(day), i, last)
        p.isExplicitDate = true
        return p
    }

    /// The month something is counted in, at `k` (after "of" or "in"): "the month" (this one,
    /// rolled on to the next once the thing has passed), "this month", "next month", "last month",
    /// or a month's name with or without a year (the next one, rolled on by a year once past).
    /// With `yearMonth`, a year said instead ("the year", "next year", "2027") is that year's month
    /// `yearMonth`: January to count from its start, December from its end.
    func countedMonth(at k: Int, yearMonth: Int? = nil) -> (year: Int, month: Int, roll: Calendar.Component?, last: Int)? {
        let today = cal.today
        if let month = yearMonth {
            if isWord(k, "the", "this", "next", "last"), isWord(k + 1, "year") {
                let step = isWord(k, "next") ? 1 : isWord(k, "last") ? -1 : 0
                return (cal.year(today) + step, month, isWord(k, "the") ? .year : nil, k + 1)
            }
            if let y = number(k), digits(k) == 4, (1000...9999).contains(y) { return (y, month, nil, k) }
        }
        if isWord(k, "the", "this"), isWord(k + 1, "month") {
            return (cal.year(today), cal.calendar.component(.month, from: today), isWord(k, "the") ? .month : nil, k + 1)
        }
        if isWord(k, "next", "last"), isWord(k + 1, "month") {
            let start = cal.adding(isWord(k, "next") ? 1 : -1, .month, to: cal.startOfMonth(today))
            return (cal.year(start), cal.calendar.component(.month, from: start), nil, k + 1)
        }
        let j = skipThe(k)
        guard let w = word(j), let m = DateVocabulary.month(w) else { return nil }
        if let y = number(j + 1), digits(j + 1) == 4 { return (y, m, nil, j + 1) }
        let year = cal.year(today) + (m < cal.calendar.component(.month, from: today) ? 1 : 0)
        return (year, m, .year, j)
    }

    /// [the] first / second / ... / last week or weekend of|in a month or a year. The nth week of a
    /// month is its nth full week, the one that starts on the month's nth Monday (Sunday for
    /// --week-start sunday); the last week is the last full one. Counting from the week
    /// that holds the 1st (or, for the last, the month's last day) is the alternative when that
    /// differs. A weekend is the one of the month's nth or last Saturday. The first and last weeks
    /// of a year are January's first and December's last. A week or weekend already over rolls on
    /// as the month or year said does.
    func weekOfMonth(at i: Int) -> DatePiece? {
        let j = skipThe(i)
        guard let (n, next) = weekdayOrdinal(at: j), isWord(next, "week", "weekend"), isWord(next + 1, "of", "in") else { return nil }
        let weekend = isWord(next, "weekend")
        let k = next + 2
        let today = cal.today
        guard let (year, month, roll, last) = countedMonth(at: k, yearMonth: weekend ? nil : n < 0 ? 12 : 1) else { return nil }
        func span(year: Int, month: Int) -> DaySpan? {
            if weekend {
                guard let day = nthWeekday(n, .saturday, year: year, month: month) else { return nil }
                return DaySpan(start: day, end: cal.day(day, plus: 2), grain: .weekend)
            }
            let lastWeekday = Weekday(rawValue: (cal.weekStart.rawValue + 5) % 7 + 1)!
            guard let day = n < 0 ? nthWeekday(-1, lastWeekday, year: year, month: month).map({ cal.day($0, plus: -6) })
                                  : nthWeekday(n, cal.weekStart, year: year, month: month) else { return nil }
            // A full week of the month ends in it: "the fifth week of march" 2027 is none.
            guard cal.calendar.component(.month, from: cal.day(day, plus: 6)) == month else { return nil }
            var s = weekSpan(day)
            let first = cal.date(year: year, month: month, day: 1)!
            let edge = n < 0 ? cal.day(cal.adding(1, .month, to: first), plus: -1) : first
            let counted = cal.day(cal.startOfWeek(edge), plus: n < 0 ? 0 : 7 * (n - 1))
            if counted != s.start {
                s.alternatives = [DaySpanAlternative(weekSpan(counted), n < 0 ? "the week of the month's last day" : "counting from the week of the 1st")]
            }
            return s
        }
        guard var found = span(year: year, month: month) else {
            let which = n < 0 ? "last" : ["first", "second", "third", "fourth", "fifth"][n - 1]
            return .failure("\(DateVocabulary.monthNames[month - 1]) \(year) has no \(which) \(weekend ? "weekend" : "week")", i, last)
        }
        if let roll, found.end <= today {
            let later = cal.adding(1, roll, to: cal.date(year: year, month: month, day: 1)!)
            if let s = span(year: cal.year(later), month: cal.calendar.component(.month, from: later)) { found = s }
        }
        return .day(found, i, last)
    }

    /// "2 mondays from now", "three fridays from today", "thursday after next", "the monday after
    /// next", "the friday before last", "the third tuesday after christmas", "wednesday of next
    /// week", "sunday from last week", "last week's sunday", "saturday this week", "thurs next week".
    func countedWeekday(at i: Int) -> DatePiece? {
        let today = cal.today
        // N weekdays from now: the Nth of that weekday after today.
        if let (n, next) = count(at: i), n >= 1, n <= 52, let name = word(next), let weekday = Weekday(word: name),
           isWord(next + 1, "from", "away", "later", "hence", "ahead") {
            var last = next + 1
            if isWord(next + 1, "from") {
                guard isWord(next + 2, "now", "today") else { return nil }
                last = next + 2
            }
            let ahead = cal.daysUntil(weekday, from: today)
            let first = ahead == 0 ? 7 : ahead
            return .day(daySpan(cal.day(today, plus: first + 7 * (n - 1))), i, last)
        }
        // last week's sunday, next week's friday.
        if isWord(i, "this", "next", "last"), isWord(i + 1, "week"), symbol(i + 2) == "'", isWord(i + 3, "s"),
           let name = word(i + 4), let weekday = Weekday(word: name) {
            let step = isWord(i, "next") ? 1 : isWord(i, "last") ? -1 : 0
            let start = cal.day(cal.startOfWeek(today), plus: 7 * step)
            return .day(daySpan(cal.day(start, plus: cal.daysUntil(weekday, from: start))), i, i + 4)
        }
        let j = skipThe(i)
        // the third tuesday after christmas, the first monday before the 15th: counted from that day.
        if let (n, next) = weekdayOrdinal(at: j), n > 0, let name = word(next), let weekday = Weekday(word: name),
           isWord(next + 1, "after", "before"), let (d, last) = plainDay(at: next + 2) {
            if isWord(next + 1, "after") {
                let ahead = cal.daysUntil(weekday, from: d.start)
                return .day(daySpan(cal.day(d.start, plus: (ahead == 0 ? 7 : ahead) + 7 * (n - 1))), i, last)
            }
            let back = (cal.weekday(d.start).rawValue - weekday.rawValue + 7) % 7
            return .day(daySpan(cal.day(d.start, plus: -(back == 0 ? 7 : back) - 7 * (n - 1))), i, last)
        }
        guard let name = word(j), let weekday = Weekday(word: name) else { return nil }
        var k = j + 1
        if symbol(k) == ".", glued(k) { k += 1 }
        // thursday after next: a week after the coming one.
        if isWord(k, "after"), isWord(k + 1, "next") {
            let ahead = cal.daysUntil(weekday, from: today)
            return .day(daySpan(cal.day(today, plus: (ahead == 0 ? 7 : ahead) + 7)), i, k + 1)
        }
        // the friday before last: a week before the most recent one.
        if isWord(k, "before"), isWord(k + 1, "last") {
            let back = (cal.weekday(today).rawValue - weekday.rawValue + 7) % 7
            return .day(daySpan(cal.day(today, plus: (back == 0 ? -7 : -back) - 7)), i, k + 1)
        }
        // wednesday [of|from] this/next/last week.
        var w = k
        if isWord(w, "of", "from") { w += 1 }
        guard isWord(w, "this", "next", "last", "the"), isWord(w + 1, "week") || (isWord(w, "the") && isWord(w + 1, "week")) else { return nil }
        if isWord(w, "the"), k == w { return nil }
        let step = isWord(w, "next") ? 1 : isWord(w, "last") ? -1 : 0
        let start = cal.day(cal.startOfWeek(today), plus: 7 * step)
        return .day(daySpan(cal.day(start, plus: cal.daysUntil(weekday, from: start))), i, w + 1)
    }

    /// [the] day after / before X, for any day X ("the day after christmas", "the day before
    /// friday"). "The day after tomorrow" is read by `relativeDay`.
    func dayNextTo(at i: Int) -> DatePiece? {
        let j = skipThe(i)
        guard isWord(j, "day"), isWord(j + 1, "after", "before"), !isWord(j + 2, "tomorrow", "yesterday"),
              let anchor = onPrefixed(at: j + 2), let d = anchor.day, d.grain == .day, anchor.time == nil, anchor.error == nil else { return nil }
        var p = DatePiece.day(daySpan(cal.day(d.start, plus: isWord(j + 1, "after") ? 1 : -1)), i, anchor.last)
        p.part = anchor.part
        return p
    }

    /// [the] upcoming / coming / next / following N days or weeks: from today through the last
    /// of them ("the next 3 days" on a Thursday is Thursday to Saturday).
    func upcoming(at i: Int) -> DatePiece? {
        let j = skipThe(i)
        guard isWord(j, "upcoming", "coming", "next", "following"), let (n, next) = count(at: j + 1), (1...366).contains(n),
              let unit = word(next), ["day", "days", "week", "weeks"].contains(unit), !isWord(j + 1, "a", "an") else { return nil }
        let days = unit.hasPrefix("week") ? 7 * n : n
        let today = cal.today
        return .day(DaySpan(start: today, end: cal.day(today, plus: days), grain: .days), i, next)
    }
}
