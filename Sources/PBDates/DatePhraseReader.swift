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

    /// A day and nothing more at `i` ("friday", "the 14th", "christmas"), with "on" before it
    /// allowed: what an amount, a week or a weekday is counted from. The day and its last token.
    func plainDay(at i: Int) -> (day: DaySpan, last: Int)? {
        guard let p = onPrefixed(at: i), let d = p.day, d.grain == .day, p.time == nil, p.part == nil, p.error == nil else { return nil }
        return (d, p.last)
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
            relativeDay(at: i), dayPart(at: i), weekdayPhrase(at: i), period(at: i), dayOfPeriod(at: i),
            quarterOfYear(at: i), duration(at: i), isoDate(at: i), numericDate(at: i), dayMonth(at: i), monthDay(at: i),
            yearMonthName(at: i), dayMonthNameYear(at: i),
            monthOrYear(at: i), dayOfMonth(at: i), clockTime(at: i),
            spokenClock(at: i), monthWeekday(at: i), weekOfMonth(at: i), countedWeekday(at: i), dayNextTo(at: i), upcoming(at: i), holiday(at: i),
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
    /// this morning/afternoon/evening, last night, now, this time tomorrow.
    func relativeDay(at i: Int) -> DatePiece? {
        let today = cal.today
        // [at] this / the same time tomorrow, next week, on friday: now's clock on that day.
        let t = isWord(i, "at") ? skipThe(i + 1) : skipThe(i)
        if isWord(t, "this", "same"), isWord(t + 1, "time"),
           let anchor = onPrefixed(at: t + 2), let d = anchor.day, anchor.time == nil, anchor.part == nil, anchor.error == nil {
            let from = d.grain == .week ? cal.startOfWeek(today) : today
            if [.day, .week].contains(d.grain), let days = cal.calendar.dateComponents([.day], from: from, to: d.start).day {
                var p = DatePiece(first: i, last: anchor.last)
                p.instant = (cal.day(cal.now, plus: days), .minute)
                return p
            }
        }
        switch word(i) {
        case "today", "tod":
            return .day(daySpan(today), i, i)
        case "tomorrow", "tmr", "tmrw", "tomorow", "tommorow", "tommorrow":
            // "tomorrow week" (British): a week after tomorrow.
            if isWord(i + 1, "week") { return .day(daySpan(cal.day(today, plus: 8)), i, i + 1) }
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
        // "2moro", "2morrow": as texts spell tomorrow.
        if number(i) == 2, digits(i) == 1, glued(i + 1), isWord(i + 1, "moro", "morro", "morrow", "mrw", "mro") {
            return .day(daySpan(cal.day(today, plus: 1)), i, i + 1)
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
        // ("wed 9am", "mon, 4pm", "Mon, Dec 14", as letters and mail write a day), after a word of
        // when with no noun after them ("on sat", "by wed"; not "put on sun cream", and sun not after
        // "on"), or alone.
        if modifier.isEmpty, ["sat", "sun", "wed", "mon"].contains(name) {
            let k = symbol(j + 1) == "," ? j + 2 : j + 1
            let dotted = symbol(j + 1) == "." && glued(j + 1)
            let part = word(k).flatMap(DayPart.init(word:)) != nil
            // "on sun" is a topic as often ("a chapter on sun"): sun needs a word of when but "on".
            let cued = isWord(j - 1, "by", "until", "till", "before", "after", "from", "since") || (name != "sun" && isWord(j - 1, "on"))
            let cuedAlone = cued && !nounFollows(at: j + 1)
            guard dotted || part || cuedAlone || tokens.count == 1 || clockTime(at: k) != nil || spokenClock(at: k) != nil
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

    /// this/next/last week, weekend (or week-end), month, year; "the week after next", "the month
    /// before last"; "the week of the 14th"; "weekend" alone is the coming one. "next weekend" is
    /// the one after the coming weekend (alternative: the coming one).
    func period(at i: Int) -> DatePiece? {
        let today = cal.today
        var j = i
        var modifier = "this"
        var named = false
        let k = skipThe(i)
        // [the] week of <a day>: the week that holds it; [the] weekend of <a day>: the weekend that
        // holds it, or the next one after a weekday.
        if isWord(k, "week", "weekend"), isWord(k + 1, "of"), let (d, last) = plainDay(at: k + 2) {
            if isWord(k, "week") { return .day(weekSpan(cal.startOfWeek(d.start)), i, last) }
            let saturday = cal.weekday(d.start) == .sunday ? cal.day(d.start, plus: -1) : cal.day(d.start, plus: cal.daysUntil(.saturday, from: d.start))
            return .day(DaySpan(start: saturday, end: cal.day(saturday, plus: 2), grain: .weekend), i, last)
        }
        // [the] week / weekend / month / year after next or before last: two steps away.
        if let unit = word(k), ["week", "weekend", "month", "year"].contains(unit),
           (isWord(k + 1, "after") && isWord(k + 2, "next")) || (isWord(k + 1, "before") && isWord(k + 2, "last")) {
            let step = isWord(k + 1, "after") ? 2 : -2
            switch unit {
            case "week": return .day(weekSpan(cal.day(cal.startOfWeek(today), plus: 7 * step)), i, k + 2)
            case "month": return .day(monthSpan(cal.adding(step, .month, to: cal.startOfMonth(today))), i, k + 2)
            case "year": return .day(yearSpan(cal.adding(step, .year, to: cal.startOfYear(today))), i, k + 2)
            default:
                // As "next weekend" is a week after the coming one, "after next" is two.
                let start = cal.day(comingWeekend().start, plus: 7 * step)
                return .day(DaySpan(start: start, end: cal.day(start, plus: 2), grain: .weekend), i, k + 2)
            }
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
        let hyphened = isWord(j, "week") && symbol(j + 1) == "-" && glued(j + 1) && isWord(j + 2, "end") && glued(j + 2)
        switch hyphened ? "weekend" : word(j) {
        case "weekend":
            if hyphened { j += 2 }
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

    /// [at/by/in] [the] end / start / beginning / middle of [the/this/next/last] week|month|
    /// quarter|year, of <month>, of a quarter; "mid march", "mid-next month": that day of the
    /// period. Its end is its last day; the end of a week is the week's last day per the week start
    /// (Sunday for --week-start monday; alternative: its Friday, the end of the working week). A
    /// month's middle is its 15th, another period's the day half way through. The end of the day
    /// (EOD, COB, close of business) is today, or the day said after it ("EOD friday"); EOW, EOM
    /// and EOY are the ends of this week, month and year.
    func dayOfPeriod(at i: Int) -> DatePiece? {
        enum Edge { case start, middle, end }
        var j = i
        if isWord(j, "at", "by", "in") { j += 1 }
        j = skipThe(j)
        let today = cal.today
        // The end of the working day.
        var dayEnd: Int?
        if isWord(j, "eod") {
            dayEnd = j
        } else if isWord(j, "end", "close"), isWord(j + 1, "of") {
            let k = skipThe(j + 2)
            if isWord(j, "end"), isWord(k, "day") { dayEnd = k } else if isWord(k, "business", "play") { dayEnd = k }
        }
        if let e = dayEnd {
            // "the EOD report", "end of day figures": a name, not a day.
            if nounFollows(at: e + 1) { return nil }
            if let (d, last) = plainDay(at: e + 1) { return .day(d, i, last) }
            return .day(daySpan(today), i, e)
        }
        var edge = Edge.end
        var step = 0
        var period: String?
        if let w = word(j), ["eow", "eom", "eoy"].contains(w) {
            // "the EOM checklist", "EOY party": a name, not a day.
            if nounFollows(at: j + 1) { return nil }
            period = ["eow": "week", "eom": "month", "eoy": "year"][w]
        } else if isWord(j, "end", "start", "beginning", "middle"), isWord(j + 1, "of") {
            edge = isWord(j, "end") ? .end : isWord(j, "middle") ? .middle : .start
            j += 2
        } else if isWord(j, "mid"), case let k = symbol(j + 1) == "-" && glued(j + 1) ? j + 2 : j + 1, monthName(at: k) != nil {
            // "mid march", "mid-december"; not "mid year review", "mid week".
            edge = .middle
            j = k
        } else {
            return nil
        }
        if period == nil {
            if isWord(j, "the", "this") { j += 1 } else if isWord(j, "next") { step = 1; j += 1 } else if isWord(j, "last") { step = -1; j += 1 }
        }
        // The period as its first day and the day after its last.
        var start: Date
        var after: Date
        switch period ?? word(j) {
        case "week":
            start = cal.day(cal.startOfWeek(today), plus: 7 * step)
            after = cal.day(start, plus: 7)
        case "month":
            start = cal.adding(step, .month, to: cal.startOfMonth(today))
            after = cal.adding(1, .month, to: start)
        case "quarter", "qtr":
            start = cal.adding(3 * step, .month, to: cal.startOfQuarter(today))
            after = cal.adding(3, .month, to: start)
        case "year":
            start = cal.adding(step, .year, to: cal.startOfYear(today))
            after = cal.adding(1, .year, to: start)
        case _ where step == 0 && quarterOfYear(at: isWord(j - 1, "the") ? j - 1 : j) != nil:
            let q = quarterOfYear(at: isWord(j - 1, "the") ? j - 1 : j)!
            start = q.day!.start
            after = q.day!.end
            j = q.last
        case let name?:
            guard let month = DateVocabulary.month(name), step == 0 else { return nil }
            var span = comingMonth(month)
            // "beginning of november" said on the 25th: next November's.
            if edge != .end, span.start < today, edge == .start || cal.day(span.start, plus: 14) < today {
                span = monthSpan(cal.adding(1, .year, to: span.start))
            }
            (start, after) = (span.start, span.end)
        default:
            return nil
        }
        let chosen: Date
        var alternatives: [DaySpanAlternative] = []
        switch edge {
        case .start:
            chosen = start
        case .middle:
            let days = cal.calendar.dateComponents([.day], from: start, to: after).day ?? 0
            chosen = (28...31).contains(days) ? cal.day(start, plus: 14) : cal.day(start, plus: days / 2)
        case .end:
            chosen = cal.day(after, plus: -1)
            if (period ?? word(j)) == "week" {
                let friday = cal.day(start, plus: cal.daysUntil(.friday, from: start))
                if friday != chosen { alternatives = [DaySpanAlternative(daySpan(friday), "the end of the working week")] }
            }
        }
        var span = daySpan(chosen)
        span.alternatives = alternatives
        return .day(span, i, j)
    }
}
