import Foundation

/// Finds date and time phrases in English text and resolves them against a fixed "now".
///
/// Deterministic: the same text, now, time zone, week start and date order give the same matches.
/// Defaults for phrases people read differently (each documented in pb-date(1), with the other
/// reading offered as an alternative):
/// - "friday" alone is the next Friday after today (on a Friday: a week ahead; alternative today).
/// - "this friday" is the coming one, today included; "next friday" is the Friday of next week
///   per the week start (alternative: the coming Friday, when that differs).
/// - "next weekend" is the weekend after the coming one (alternative: the coming one).
/// - "before X" is the day before X; "before next week" the last day of this week.
/// - "end of the week" is the week's last day per the week start (alternative: its Friday).
/// - A date without a year is the first such date on or after today.
/// - A bare hour ("at 5") is pm for 1 to 6, am for 7 to 11 (alternative: the other half).
/// - A time alone is its next occurrence: today, or tomorrow when today's has passed.
/// - Parts of the day: morning 06-12, afternoon 12-18, evening 18-22, tonight/night 18-24.
public struct NaturalDateParser: Sendable {
    public let now: Date
    public let timeZone: TimeZone
    public let weekStart: Weekday
    public let dateOrder: DateOrder

    public init(now: Date, timeZone: TimeZone, weekStart: Weekday = .monday, dateOrder: DateOrder = .dayMonthYear) {
        self.now = now
        self.timeZone = timeZone
        self.weekStart = weekStart
        self.dateOrder = dateOrder
    }

    /// Every date phrase in `text`, left to right, none overlapping.
    public func matches(in text: String) -> [DateMatch] {
        let tokens = DateToken.tokenize(text)
        let cal = DateCalendar(now: now, timeZone: timeZone, weekStart: weekStart)
        let reader = DatePhraseReader(tokens: tokens, cal: cal, order: dateOrder)
        let bytes = Array(text.utf8)
        var found: [DateMatch] = []
        var i = 0
        while i < tokens.count {
            if startsWord(tokens, i), let piece = reader.phrase(at: i), endsWord(tokens, piece.last),
               let match = resolve(piece, tokens: tokens, bytes: bytes, cal: cal) {
                found.append(match)
                i = piece.last + 1
            } else {
                i += 1
            }
        }
        return found
    }

    /// The first date phrase, if any.
    public func firstMatch(in text: String) -> DateMatch? { matches(in: text).first }

    /// A phrase starts a word: not glued to a letter or digit, nor inside "12/05" or "v1.2".
    private func startsWord(_ t: [DateToken], _ i: Int) -> Bool {
        guard i > 0, t[i].glued else { return true }
        let prev = t[i - 1]
        if prev.kind != .symbol { return false }
        if ["/", ".", "-", ":"].contains(prev.text), i > 1, t[i - 1].glued, t[i - 2].kind == .number { return false }
        return true
    }

    private func endsWord(_ t: [DateToken], _ last: Int) -> Bool {
        guard last + 1 < t.count, t[last + 1].glued else { return true }
        return t[last + 1].kind == .symbol
    }

    // MARK: resolution

    private struct Reading {
        var value: Date
        var end: Date?
        var grain: DateGrain
    }

    private func resolve(_ p: DatePiece, tokens: [DateToken], bytes: [UInt8], cal: DateCalendar) -> DateMatch? {
        let start = tokens[p.first].start
        let end = tokens[p.last].end
        let phrase = String(decoding: bytes[start..<end], as: UTF8.self)
        if let error = p.error {
            return DateMatch(phrase: phrase, start: start, end: end, value: nil, grain: .day, error: "'\(phrase)' is not a date: \(error)")
        }
        if let instant = p.instant {
            return DateMatch(phrase: phrase, start: start, end: end, value: instant.value, grain: instant.grain)
        }
        var alternatives: [DateAlternative] = []
        let main: Reading
        if let day = p.day {
            let readings = self.readings(day: day, part: p.part, time: p.time, zone: p.zone, cal: cal)
            main = readings[0].reading
            for (r, why) in readings.dropFirst() { alternatives.append(DateAlternative(value: r.value, end: r.end, grain: r.grain, reason: why!)) }
            for choice in day.alternatives {
                let (alt, why) = (choice.span, choice.reason)
                let r = self.readings(day: alt, part: p.part, time: p.time, zone: p.zone, cal: cal)[0].reading
                alternatives.append(DateAlternative(value: r.value, end: r.end, grain: r.grain, reason: why))
            }
        } else if let time = p.time {
            // A time with no day: its next occurrence.
            let today = daySpan(cal.today, cal)
            let todays = readings(day: today, part: p.part, time: time, zone: p.zone, cal: cal)
            if todays[0].reading.value > cal.now {
                main = todays[0].reading
                for (r, why) in todays.dropFirst() { alternatives.append(DateAlternative(value: r.value, end: r.end, grain: r.grain, reason: why!)) }
            } else {
                let tomorrows = readings(day: daySpan(cal.day(cal.today, plus: 1), cal), part: p.part, time: time, zone: p.zone, cal: cal)
                main = tomorrows[0].reading
                let r = todays[0].reading
                alternatives.append(DateAlternative(value: r.value, end: r.end, grain: r.grain, reason: "today, already past"))
                for (r, why) in tomorrows.dropFirst() { alternatives.append(DateAlternative(value: r.value, end: r.end, grain: r.grain, reason: why!)) }
            }
        } else {
            return nil
        }
        var match = DateMatch(phrase: phrase, start: start, end: end, value: main.value, valueEnd: main.end, grain: main.grain,
                              alternatives: alternatives, recurrence: p.recurrence)
        match.zone = p.zone
        return match
    }

    private func daySpan(_ d: Date, _ cal: DateCalendar) -> DaySpan {
        DaySpan(start: d, end: cal.day(d, plus: 1), grain: .day)
    }

    /// The reading of a day with an optional part of the day and time: the main one first, then
    /// the other half of the clock when the hour was ambiguous.
    private func readings(day: DaySpan, part: DayPart?, time: ClockTime?, zone: TimeZone? = nil, cal: DateCalendar) -> [(reading: Reading, reason: String?)] {
        if let time {
            let grain: DateGrain = time.hasMinutes ? .minute : .hour
            var out: [(Reading, String?)] = []
            for (hour, why) in hours(time, part) {
                // "at 2 tonight" is after midnight: the next day's early hours.
                var base = day.start
                if part == .night, !time.isFixed, time.meridiem == nil, hour < 5 { base = cal.day(base, plus: 1) }
                out.append((Reading(value: cal.at(base, hour: hour, minute: time.minute, in: zone), end: nil, grain: grain), why))
            }
            return out
        }
        if let part {
            return [(Reading(value: cal.at(day.start, hour: part.hours.start, minute: 0),
                             end: cal.at(day.start, hour: part.hours.end, minute: 0), grain: .partOfDay), nil)]
        }
        return [(Reading(value: day.start, end: day.grain == .day ? nil : day.end, grain: day.grain), nil)]
    }

    /// The 24-hour hour(s) a clock time can mean: first the default, then the alternative.
    private func hours(_ t: ClockTime, _ part: DayPart?) -> [(Int, String?)] {
        if t.isFixed { return [(t.hour, nil)] }
        if let m = t.meridiem {
            return [(m == .am ? t.hour % 12 : t.hour % 12 + 12, nil)]
        }
        let h = t.hour
        if let part {
            switch part {
            case .morning: return [(h % 12, nil)]
            case .afternoon, .evening: return [(h % 12 + 12, nil)]
            case .night: return [(h == 12 ? 24 : (h < 5 ? h : h % 12 + 12), nil)]
            }
        }
        if h == 12 { return [(12, nil), (24, "12-hour clock: midnight")] }
        if h >= 7 { return [(h, nil), (h + 12, "12-hour clock: pm")] }
        return [(h + 12, nil), (h, "12-hour clock: am")]
    }
}
