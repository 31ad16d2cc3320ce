import Foundation

/// The date grammar over tokens: recognisers for each kind of phrase ("atoms"), the prefixes
/// "on", "by" and "before", and the merging of adjacent atoms into one phrase.
///
/// Every recogniser starts at a token index and returns the piece it read, or nil; the longest
/// wins. Defaults for ambiguous phrases are decided here and documented in pb-date(1).
struct DatePhraseReader {
    let tokens: [DateToken]
    let cal: DateCalendar
    let order: DateOrder

    // MARK: token access

    func word(_ i: Int) -> String? { i >= 0 && i < tokens.count && tokens[i].kind == .word ? tokens[i].text : nil }

    func symbol(_ i: Int) -> String? { i >= 0 && i < tokens.count && tokens[i].kind == .symbol ? tokens[i].text : nil }

    func number(_ i: Int) -> Int? { i >= 0 && i < tokens.count ? tokens[i].number : nil }

    func digits(_ i: Int) -> Int { i >= 0 && i < tokens.count && tokens[i].kind == .number ? tokens[i].text.count : 0 }

    func glued(_ i: Int) -> Bool { i < tokens.count && tokens[i].glued }

    func isWord(_ i: Int, _ options: String...) -> Bool { word(i).map(options.contains) ?? false }

    /// An optional "the" at `i`: the index after it.
    func skipThe(_ i: Int) -> Int { isWord(i, "the") ? i + 1 : i }

    // MARK: phrases

    /// The longest phrase starting at `i`: an atom with its prefix, merged with the atoms after it.
    func phrase(at i: Int) -> DatePiece? {
        guard var piece = prefixed(at: i) else { return nil }
        while true {
            var j = piece.last + 1
            if symbol(j) == "," { j += 1 }
            guard let next = onPrefixed(at: j), let m = piece.merged(with: next) else { break }
            piece = m
        }
        // A part of the day alone ("morning") is an ordinary word, not a date.
        if piece.day == nil, piece.time == nil, piece.instant == nil, piece.error == nil { return nil }
        return piece
    }

    /// "by X" (a deadline on X) and "before X" (the day before X, or the last day before a
    /// period: "before next week" is the end of this week), then "on X" or a bare atom.
    func prefixed(at i: Int) -> DatePiece? {
        if isWord(i, "by", "before", "until", "till", "til"), var p = onPrefixed(at: i + 1) {
            p.first = i
            if isWord(i, "before") { p = before(p) }
            return p
        }
        return onPrefixed(at: i)
    }

    func onPrefixed(at i: Int) -> DatePiece? {
        if isWord(i, "on"), var p = atom(at: i + 1), p.day != nil || p.error != nil {
            p.first = i
            return p
        }
        return atom(at: i)
    }

    /// "before friday" means by Thursday (alternative: friday itself, read as "by"); "before next
    /// week/month/year/the weekend" means the last day before that period starts.
    func before(_ p: DatePiece) -> DatePiece {
        guard let d = p.day, p.time == nil, p.part == nil, p.error == nil else { return p }
        var q = p
        let lastDay = cal.day(d.start, plus: -1)
        var span = DaySpan(start: lastDay, end: d.start, grain: .day)
        if d.grain == .day {
            span.alternatives = [DaySpanAlternative(DaySpan(start: d.start, end: d.end, grain: .day), "read as 'by'")]
        }
        q.day = span
        q.isBareWeekday = false
        q.recurrence = nil
        return q
    }

    /// The longest atom starting at `i`.
    func atom(at i: Int) -> DatePiece? {
        guard i < tokens.count else { return nil }
        let found: [DatePiece?] = [
            relativeDay(at: i), dayPart(at: i), weekdayPhrase(at: i), period(at: i), endOfPeriod(at: i),
            quarterOfYear(at: i), duration(at: i), isoDate(at: i), numericDate(at: i), dayMonth(at: i), monthDay(at: i),
            yearMonthName(at: i), dayMonthNameYear(at: i),
            monthOrYear(at: i), dayOfMonth(at: i), clockTime(at: i),
            spokenClock(at: i), monthWeekday(at: i), countedWeekday(at: i), dayNextTo(at: i), upcoming(at: i), holiday(at: i),
        ]
        guard var best = found.compactMap({ $0 }).max(by: { a, b in a.last < b.last }) else { return nil }
        if best.time != nil, best.error == nil, let (zone, end) = zoneName(at: best.last + 1) {
            best.zone = zone
            best.last = end
        }
        return best
    }

    // MARK: spans

    func daySpan(_ d: Date) -> DaySpan { DaySpan(start: d, end: cal.day(d, plus: 1), grain: .day) }

    func weekSpan(_ start: Date) -> DaySpan { DaySpan(start: start, end: cal.day(start, plus: 7), grain: .week) }

    func monthSpan(_ start: Date) -> DaySpan { DaySpan(start: start, end: cal.adding(1, .month, to: start), grain: .month) }

    func quarterSpan(_ start: Date) -> DaySpan { DaySpan(start: start, end: cal.adding(3, .month, to: start), grain: .quarter) }

    func yearSpan(_ start: Date) -> DaySpan { DaySpan(start: start, end: cal.adding(1, .year, to: start), grain: .year) }

    /// The weekend whose Sunday is today or later: Saturday 00:00 to Monday 00:00.
    func comingWeekend() -> DaySpan {
        let today = cal.today
        let saturday: Date
        switch cal.weekday(today) {
        case .saturday: saturday = today
        case .sunday: saturday = cal.day(today, plus: -1)
        default: saturday = cal.day(today, plus: cal.daysUntil(.saturday, from: today))
        }
        return DaySpan(start: saturday, end: cal.day(saturday, plus: 2), grain: .weekend)
    }

    // MARK: relative days and parts of the day

    /// today, tonight, tomorrow, yesterday, the day after tomorrow, the day before yesterday,
    /// this morning/afternoon/evening, last night, now.
    func relativeDay(at i: Int) -> DatePiece? {
        let today = cal.today
        switch word(i) {
        case "today", "tod":
            return .day(daySpan(today), i, i)
        case "tomorrow", "tmr", "tmrw", "tomorow", "tommorow", "tommorrow":
            return .day(daySpan(cal.day(today, plus: 1)), i, i)
        case "yesterday":
            return .day(daySpan(cal.day(today, plus: -1)), i, i)
        case "tonight", "tonite":
            var p = DatePiece.day(daySpan(today), i, i)
            p.part = .night
            return p
        case "now":
            var p = DatePiece(first: i, last: i)
            p.instant = (cal.now, .minute)
            return p
        case "right" where isWord(i + 1, "now"):
            var p = DatePiece(first: i, last: i + 1)
            p.instant = (cal.now, .minute)
            return p
        case "later" where isWord(i + 1, "today"):
            return .day(daySpan(today), i, i + 1)
        case "this" where word(i + 1).flatMap(DayPart.init(word:)) != nil && !isWord(i + 1, "tonight"):
            var p = DatePiece.day(daySpan(today), i, i + 1)
            p.part = DayPart(word: word(i + 1)!)
            return p
        case "last" where isWord(i + 1, "night"):
            var p = DatePiece.day(daySpan(cal.day(today, plus: -1)), i, i + 1)
            p.part = .night
            return p
        default:
            break
        }
        // [the] day after tomorrow / day before yesterday
        let j = skipThe(i)
        if isWord(j, "day"), isWord(j + 1, "after"), isWord(j + 2, "tomorrow") {
            return .day(daySpan(cal.day(today, plus: 2)), i, j + 2)
        }
        if isWord(j, "day"), isWord(j + 1, "before"), isWord(j + 2, "yesterday") {
            return .day(daySpan(cal.day(today, plus: -2)), i, j + 2)
        }
        return nil
    }

    /// A part of the day with no day of its own: "morning", "in the afternoon", "at night". It only
    /// counts next to a day or a time ("monday morning", "5 in the afternoon").
    func dayPart(at i: Int) -> DatePiece? {
        if let part = word(i).flatMap(DayPart.init(word:)), !isWord(i, "tonight") {
            var p = DatePiece(first: i, last: i)
            p.part = part
            return p
        }
        if isWord(i, "in"), isWord(i + 1, "the"), let part = word(i + 2).flatMap(DayPart.init(word:)), part != .night {
            var p = DatePiece(first: i, last: i + 2)
            p.part = part
            return p
        }
        if isWord(i, "at"), isWord(i + 1, "night") {
            var p = DatePiece(first: i, last: i + 1)
            p.part = .night
            return p
        }
        return nil
    }

    // MARK: weekdays

    /// friday (the next one after today), this friday (the coming one, today included), next
    /// friday (the friday of next week; alternative: the coming one), last friday (the most
    /// recent one before today), every [other] friday (a recurrence from the coming one).
    func weekdayPhrase(at i: Int) -> DatePiece? {
        let today = cal.today
        // "a week on Tuesday" (British): the Tuesday a week after the coming one.
        if isWord(i, "a"), isWord(i + 1, "week"), isWord(i + 2, "on"), let name = word(i + 3), let weekday = Weekday(word: name),
           !name.hasSuffix("s") {
            let ahead = cal.daysUntil(weekday, from: today)
            return .day(daySpan(cal.day(today, plus: (ahead == 0 ? 7 : ahead) + 7)), i, i + 3)
        }
        var j = i
        var modifier = ""
        if isWord(i, "this", "next", "last", "coming", "past", "previous") {
            modifier = word(i)!
            j = i + 1
        } else if isWord(i, "every", "each") {
            modifier = "every"
            j = i + 1
            if isWord(j, "other", "second", "alternate") { modifier = "every other"; j += 1 }
        } else if isWord(i, "the"), isWord(i + 1, "coming", "next", "last", "past", "previous") {
            modifier = word(i + 1)!
            j = i + 2
        }
        guard let name = word(j), let weekday = Weekday(word: name) else { return nil }
        // "sat" and "sun" alone are too often other words; "wed" too.
        // They count when a full stop is glued to them ("sat."), or a time or a date follows
        // ("wed 9am", "mon, 4pm", "Mon, Dec 14", as letters and mail write a day).
        if modifier.isEmpty, ["sat", "sun", "wed", "mon"].contains(name) {
            let k = symbol(j + 1) == "," ? j + 2 : j + 1
            let dotted = symbol(j + 1) == "." && glued(j + 1)
            let part = word(k).flatMap(DayPart.init(word:)) != nil
            guard dotted || part || clockTime(at: k) != nil || spokenClock(at: k) != nil
                    || monthDay(at: k) != nil || dayMonth(at: k) != nil else { return nil }
        }
        var last = j
        if symbol(j + 1) == ".", glued(j + 1), name.count <= 4 { last = j + 1 }
        let ahead = cal.daysUntil(weekday, from: today)
        let coming = cal.day(today, plus: ahead == 0 ? 7 : ahead)
        let onOrAfterToday = cal.day(today, plus: ahead)
        switch modifier {
        case "" where isWord(last + 1, "week") && !name.hasSuffix("s"):
            // "Tuesday week" (British): a week after the coming Tuesday.
            return .day(daySpan(cal.day(coming, plus: 7)), i, last + 1)
        case "":
            var span = daySpan(coming)
            if ahead == 0 { span.alternatives = [DaySpanAlternative(daySpan(today), "today is \(weekday.name)")] }
            var p = DatePiece.day(span, i, last)
            p.isBareWeekday = true
            return p
        case "this", "coming":
            return .day(daySpan(onOrAfterToday), i, last)
        case "next":
            let nextWeek = cal.day(cal.startOfWeek(today), plus: 7)
            let inNextWeek = cal.day(nextWeek, plus: cal.daysUntil(weekday, from: nextWeek))
            var span = daySpan(inNextWeek)
            if inNextWeek != coming { span.alternatives = [DaySpanAlternative(daySpan(coming), "the coming \(weekday.name)")] }
            return .day(span, i, last)
        case "every", "every other":
            var p = DatePiece.day(daySpan(onOrAfterToday), i, last)
            p.recurrence = DateRecurrence(interval: modifier == "every" ? 1 : 2, weekday: weekday)
            return p
        default:
            let back = (cal.weekday(today).rawValue - weekday.rawValue + 7) % 7
            let previous = cal.day(today, plus: back == 0 ? -7 : -back)
            var span = daySpan(previous)
            let lastWeek = cal.day(cal.startOfWeek(today), plus: -7)
            let inLastWeek = cal.day(lastWeek, plus: cal.daysUntil(weekday, from: lastWeek))
            if inLastWeek != previous { span.alternatives = [DaySpanAlternative(daySpan(inLastWeek), "the \(weekday.name) of last week")] }
            return .day(span, i, last)
        }
    }

    // MARK: weeks, weekends, months, years

    /// this/next/last week, weekend, month, year; "the week after next"; "weekend" alone is the
    /// coming one. "next weekend" is the one after the coming weekend (alternative: the coming one).
    func period(at i: Int) -> DatePiece? {
        let today = cal.today
        var j = i
        var modifier = "this"
        var named = false
        if isWord(i, "the"), isWord(i + 1, "week"), isWord(i + 2, "after"), isWord(i + 3, "next") {
            return .day(weekSpan(cal.day(cal.startOfWeek(today), plus: 14)), i, i + 3)
        }
        if isWord(i, "this", "next", "last", "coming", "past", "previous", "current") {
            modifier = word(i)!
            named = true
            j += 1
        } else if isWord(i, "the") {
            j += 1
            if isWord(j, "coming", "next", "last", "past", "previous", "current", "following") { modifier = word(j)!; named = true; j += 1 }
        }
        let step: Int
        switch modifier {
        case "next", "following": step = 1
        case "last", "past", "previous": step = -1
        default: step = 0
        }
        switch word(j) {
        case "weekend":
            // A bare "weekend" (no this/next/the) still means the coming one.
            let coming = comingWeekend()
            if step == 0 { return .day(coming, i, j) }
            let start = cal.day(coming.start, plus: 7 * step)
            var span = DaySpan(start: start, end: cal.day(start, plus: 2), grain: .weekend)
            if step == 1, !([.saturday, .sunday] as [Weekday]).contains(cal.weekday(today)) {
                span.alternatives = [DaySpanAlternative(coming, "the coming weekend")]
            }
            return .day(span, i, j)
        case "week" where named:
            return .day(weekSpan(cal.day(cal.startOfWeek(today), plus: 7 * step)), i, j)
        case "month" where named:
            return .day(monthSpan(cal.adding(step, .month, to: cal.startOfMonth(today))), i, j)
        case "quarter" where named, "qtr" where named:
            return .day(quarterSpan(cal.adding(3 * step, .month, to: cal.startOfQuarter(today))), i, j)
        case "year" where named, "yr" where named:
            return .day(yearSpan(cal.adding(step, .year, to: cal.startOfYear(today))), i, j)
        case let name? where named:
            // this/next/last march: a month name after a modifier.
            guard let month = DateVocabulary.month(name) else { return nil }
            let current = cal.calendar.component(.month, from: today)
            var year = cal.year(today)
            switch step {
            case 1: if month <= current { year += 1 }
            case -1: if month >= current { year -= 1 }
            default: if month < current { year += 1 }
            }
            return .day(monthSpan(cal.date(year: year, month: month, day: 1)!), i, j)
        default:
            return nil
        }
    }

    /// [at/by] [the] end of [the/this/next/last] week|month|year, and end of <month>: the last day
    /// of that period. The end of a week is its last day per the week start (Sunday for
    /// --week-start monday); alternative: its Friday, the end of the working week.
    func endOfPeriod(at i: Int) -> DatePiece? {
        var j = i
        if isWord(j, "at", "by") { j += 1 }
        j = skipThe(j)
        guard isWord(j, "end"), isWord(j + 1, "of") else { return nil }
        j += 2
        var step = 0
        if isWord(j, "the", "this") { j += 1 } else if isWord(j, "next") { step = 1; j += 1 } else if isWord(j, "last") { step = -1; j += 1 }
        let today = cal.today
        let lastDay: Date
        var alternatives: [DaySpanAlternative] = []
        switch word(j) {
        case "week":
            let start = cal.day(cal.startOfWeek(today), plus: 7 * step)
            lastDay = cal.day(start, plus: 6)
            let friday = cal.day(start, plus: cal.daysUntil(.friday, from: start))
            if friday != lastDay { alternatives = [DaySpanAlternative(daySpan(friday), "the end of the working week")] }
        case "month":
            lastDay = cal.day(cal.adding(step + 1, .month, to: cal.startOfMonth(today)), plus: -1)
        case "quarter", "qtr":
            lastDay = cal.day(cal.adding(3 * (step + 1), .month, to: cal.startOfQuarter(today)), plus: -1)
        case "year":
            lastDay = cal.day(cal.adding(step + 1, .year, to: cal.startOfYear(today)), plus: -1)
        case _ where step == 0 && quarterOfYear(at: isWord(j - 1, "the") ? j - 1 : j) != nil:
            let q = quarterOfYear(at: isWord(j - 1, "the") ? j - 1 : j)!
            return .day(daySpan(cal.day(q.day!.end, plus: -1)), i, q.last)
        case let name?:
            guard let month = DateVocabulary.month(name), step == 0 else { return nil }
            var year = cal.year(today)
            if month < cal.calendar.component(.month, from: today) { year += 1 }
            lastDay = cal.date(year: year, month: month, day: cal.daysInMonth(year: year, month: month))!
        default:
            return nil
        }
        var span = daySpan(lastDay)
        span.alternatives = alternatives
        return .day(span, i, j)
    }
}
