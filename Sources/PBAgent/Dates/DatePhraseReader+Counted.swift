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
    /// the 3rd thursday of next month. Without a year, the next such day on or after today; "the
    /// month" is this month, or next month once this month's has passed ("this month" stays).
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
        var k = afterOrdinal + 2
        let today = cal.today
        var year = cal.year(today)
        var month = cal.calendar.component(.month, from: today)
        // What to roll on by once the day has passed: none, a month ("the month"), a year.
        var roll: Calendar.Component?
        var last: Int
        if isWord(k, "the", "this"), isWord(k + 1, "month") {
            if isWord(k, "the") { roll = .month }
            last = k + 1
        } else if isWord(k, "next", "last"), isWord(k + 1, "month") {
            let start = cal.adding(isWord(k, "next") ? 1 : -1, .month, to: cal.startOfMonth(today))
            year = cal.year(start)
            month = cal.calendar.component(.month, from: start)
            last = k + 1
        } else {
            if isWord(k, "the") { k += 1 }
            guard let w = word(k), let m = DateVocabulary.month(w) else { return nil }
            month = m
            last = k
            if let y = number(k + 1), digits(k + 1) == 4 {
                year = y
                last = k + 1
            } else {
                roll = .year
                if m < cal.calendar.component(.month, from: today) { year += 1 }
            }
        }
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

    /// "2 mondays from now", "three fridays from today", "thursday after next", "the monday after
    /// next", "wednesday of next week", "sunday from last week", "last week's sunday", "saturday
    /// this week", "thurs next week".
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
        guard let name = word(j), let weekday = Weekday(word: name) else { return nil }
        var k = j + 1
        if symbol(k) == ".", glued(k) { k += 1 }
        // thursday after next: a week after the coming one.
        if isWord(k, "after"), isWord(k + 1, "next") {
            let ahead = cal.daysUntil(weekday, from: today)
            return .day(daySpan(cal.day(today, plus: (ahead == 0 ? 7 : ahead) + 7)), i, k + 1)
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
