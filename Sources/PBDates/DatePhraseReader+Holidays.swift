import Foundation

/// Holidays by name, the next one on or after today unless a year follows: "christmas", "christmas
/// eve", "new year's day", "easter 2027", "good friday", "thanksgiving", "memorial day". With an
/// offset they are days like any other ("two weeks after christmas", "the day after boxing day").
///
/// Fixed-date holidays fall on their date; the moving ones are computed: Easter by the Gregorian
/// computus, and those it carries (Good Friday, Easter Monday, Ash Wednesday, Palm Sunday,
/// Pentecost); the US ones set as the nth weekday of a month (Thanksgiving, Memorial Day, Labor
/// Day, Martin Luther King Day, Presidents' Day, Mother's Day and Father's Day, as in the US).
/// A one-word name that is also used as an adjective ("christmas presents", "easter eggs") is a
/// date only when no other word follows it, or a cue does ("christmas morning", "easter at 10").
extension DatePhraseReader {

    enum HolidayRule {
        case fixed(month: Int, day: Int)
        case easter(offset: Int)
        case nthWeekday(n: Int, weekday: Weekday, month: Int)
        /// Days after the US Thanksgiving (Black Friday).
        case afterThanksgiving(Int)
    }

    /// Names as token words, with "'s" dropped (tokens "new year ' s day" read as "new year day").
    /// `bare` names need the adjective check above.
    static let holidays: [(words: [String], rule: HolidayRule, bare: Bool)] = [
        (["christmas", "eve"], .fixed(month: 12, day: 24), false),
        (["xmas", "eve"], .fixed(month: 12, day: 24), false),
        (["christmas", "day"], .fixed(month: 12, day: 25), false),
        (["xmas", "day"], .fixed(month: 12, day: 25), false),
        (["christmas"], .fixed(month: 12, day: 25), true),
        (["xmas"], .fixed(month: 12, day: 25), true),
        (["boxing", "day"], .fixed(month: 12, day: 26), false),
        (["new", "year", "eve"], .fixed(month: 12, day: 31), false),
        (["new", "years", "eve"], .fixed(month: 12, day: 31), false),
        (["nye"], .fixed(month: 12, day: 31), false),
        (["new", "year", "day"], .fixed(month: 1, day: 1), false),
        (["new", "years", "day"], .fixed(month: 1, day: 1), false),
        (["new", "year"], .fixed(month: 1, day: 1), true),
        (["new", "years"], .fixed(month: 1, day: 1), true),
        (["valentine", "day"], .fixed(month: 2, day: 14), false),
        (["valentines", "day"], .fixed(month: 2, day: 14), false),
        (["valentines"], .fixed(month: 2, day: 14), true),
        (["st", "patrick", "day"], .fixed(month: 3, day: 17), false),
        (["saint", "patrick", "day"], .fixed(month: 3, day: 17), false),
        (["st", "patricks", "day"], .fixed(month: 3, day: 17), false),
        (["ides", "of", "march"], .fixed(month: 3, day: 15), false),
        (["april", "fools", "day"], .fixed(month: 4, day: 1), false),
        (["april", "fool", "day"], .fixed(month: 4, day: 1), false),
        (["independence", "day"], .fixed(month: 7, day: 4), false),
        (["fourth", "of", "july"], .fixed(month: 7, day: 4), false),
        (["halloween"], .fixed(month: 10, day: 31), true),
        (["bonfire", "night"], .fixed(month: 11, day: 5), false),
        (["guy", "fawkes", "night"], .fixed(month: 11, day: 5), false),
        (["veterans", "day"], .fixed(month: 11, day: 11), false),
        (["remembrance", "day"], .fixed(month: 11, day: 11), false),
        (["easter", "sunday"], .easter(offset: 0), false),
        (["easter", "day"], .easter(offset: 0), false),
        (["easter", "monday"], .easter(offset: 1), false),
        (["easter"], .easter(offset: 0), true),
        (["good", "friday"], .easter(offset: -2), false),
        (["holy", "saturday"], .easter(offset: -1), false),
        (["maundy", "thursday"], .easter(offset: -3), false),
        (["palm", "sunday"], .easter(offset: -7), false),
        (["ash", "wednesday"], .easter(offset: -46), false),
        (["pentecost"], .easter(offset: 49), true),
        (["whit", "sunday"], .easter(offset: 49), false),
        (["thanksgiving", "day"], .nthWeekday(n: 4, weekday: .thursday, month: 11), false),
        (["thanksgiving"], .nthWeekday(n: 4, weekday: .thursday, month: 11), true),
        (["black", "friday"], .afterThanksgiving(1), false),
        (["cyber", "monday"], .afterThanksgiving(4), false),
        (["memorial", "day"], .nthWeekday(n: -1, weekday: .monday, month: 5), false),
        (["labor", "day"], .nthWeekday(n: 1, weekday: .monday, month: 9), false),
        (["labour", "day"], .nthWeekday(n: 1, weekday: .monday, month: 9), false),
        (["mlk", "day"], .nthWeekday(n: 3, weekday: .monday, month: 1), false),
        (["martin", "luther", "king", "day"], .nthWeekday(n: 3, weekday: .monday, month: 1), false),
        (["presidents", "day"], .nthWeekday(n: 3, weekday: .monday, month: 2), false),
        (["president", "day"], .nthWeekday(n: 3, weekday: .monday, month: 2), false),
        (["mother", "day"], .nthWeekday(n: 2, weekday: .sunday, month: 5), false),
        (["mothers", "day"], .nthWeekday(n: 2, weekday: .sunday, month: 5), false),
        (["father", "day"], .nthWeekday(n: 3, weekday: .sunday, month: 6), false),
        (["fathers", "day"], .nthWeekday(n: 3, weekday: .sunday, month: 6), false),
    ]

    /// Easter Sunday of a Gregorian year (the anonymous Gregorian computus).
    func easter(_ year: Int) -> Date {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return cal.date(year: year, month: month, day: day)!
    }

    func holidayDate(_ rule: HolidayRule, year: Int) -> Date? {
        switch rule {
        case let .fixed(month, day): return cal.date(year: year, month: month, day: day)
        case let .easter(offset): return cal.day(easter(year), plus: offset)
        case let .nthWeekday(n, weekday, month): return nthWeekday(n, weekday, year: year, month: month)
        case let .afterThanksgiving(days):
            return nthWeekday(4, .thursday, year: year, month: 11).map { cal.day($0, plus: days) }
        }
    }

    /// The words of a holiday name at `i`, with "'s" and "’s" skipped: the words and the index of
    /// the token after each.
    func holidayWords(at i: Int, count: Int) -> (words: [String], next: Int)? {
        var words: [String] = []
        var j = i
        while words.count < count, let w = word(j) {
            words.append(w)
            j += 1
            if symbol(j) == "'", isWord(j + 1, "s") { j += 2 } else if symbol(j) == "'" { j += 1 }
            if symbol(j) == ".", glued(j), w == "st" { j += 1 }
        }
        return words.count == count ? (words, j) : nil
    }

    /// A holiday by name, the next one on or after today; "last christmas" is the most recent
    /// before today, and "this" or "next" say the coming one.
    func holiday(at i: Int) -> DatePiece? {
        let modifier = isWord(i, "last", "next", "this") ? word(i) : nil
        let s = modifier == nil ? i : i + 1
        for (name, rule, bare) in Self.holidays {
            guard let (words, next) = holidayWords(at: s, count: name.count), words == name else { continue }
            var last = next - 1
            // Drop a trailing "'s" token from the end index when it was the last thing read.
            while last > s, tokens[last].kind == .symbol || (isWord(last, "s") && symbol(last - 1) == "'") { last -= 1 }
            var year: Int?
            if let y = number(next), digits(next) == 4 {
                year = y
                last = next
            } else if bare, let w = word(next), !Self.holidayCues.contains(w) {
                // "christmas presents", "easter eggs": an adjective, not a date.
                return nil
            }
            let today = cal.today
            var y = year ?? cal.year(today)
            guard var d = holidayDate(rule, year: y) else { return nil }
            if year == nil, modifier == "last" {
                if d >= today { d = holidayDate(rule, year: y - 1) ?? d }
            } else if year == nil, d < today {
                y += 1
                d = holidayDate(rule, year: y) ?? d
            }
            var p = DatePiece.day(daySpan(d), i, last)
            p.isExplicitDate = true
            return p
        }
        return nil
    }

    /// Words after a one-word holiday name that keep it a date.
    static let holidayCues: Set<String> = [
        "at", "morning", "afternoon", "evening", "night", "this", "next", "last", "and", "or", "in", "on", "by", "to",
        "until", "is", "was", "will", "for", "with", "we", "i", "you", "then", "so", "but",
    ]
}
