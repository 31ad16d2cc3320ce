import Foundation
import PBText

/// Explicit calendar dates: ISO 8601, all-numeric per the date order, "27 Jan", "Jan 27th",
/// "January 27, 2027", "March 2027", "in March", "in 2027", "the 27th". A date that does not exist
/// is an error piece, never rolled over into the next month.
extension DatePhraseReader {
    /// Why a day does not exist in a month ("april has 30 days"), or nil if it does.
    func impossibility(year: Int?, month: Int, day: Int) -> String? {
        guard (1...12).contains(month) else { return "there is no month \(month)" }
        let name = DateVocabulary.monthNames[month - 1]
        guard day >= 1 else { return "there is no day 0" }
        if let year {
            let n = cal.daysInMonth(year: year, month: month)
            if day > n { return month == 2 ? "february \(year) has \(n) days" : "\(name) has \(n) days" }
        } else {
            let n = month == 2 ? 29 : cal.daysInMonth(year: 2001, month: month)
            if day > n { return month == 2 ? "february has at most 29 days" : "\(name) has \(n) days" }
        }
        return nil
    }

    /// A date without a year: the first one on or after today (alternative: this year's, when that
    /// is already past). 29 February goes to the next leap year.
    func upcoming(month: Int, day: Int) -> DaySpan? {
        let thisYear = cal.year(cal.today)
        for year in thisYear...(thisYear + 8) {
            guard let d = cal.date(year: year, month: month, day: day), d >= cal.today else { continue }
            var span = daySpan(d)
            if year > thisYear, let earlier = cal.date(year: thisYear, month: month, day: day) {
                span.alternatives = [DaySpanAlternative(daySpan(earlier), "earlier this year")]
            }
            return span
        }
        return nil
    }

    /// The piece for a day, month and optional year, or the error piece.
    func calendarDate(year: Int?, month: Int, day: Int, _ first: Int, _ last: Int) -> DatePiece {
        if let why = impossibility(year: year, month: month, day: day) { return .failure(why, first, last) }
        let span: DaySpan
        if let year { span = daySpan(cal.date(year: year, month: month, day: day)!) } else {
            guard let s = upcoming(month: month, day: day) else { return .failure("no such date", first, last) }
            span = s
        }
        var p = DatePiece.day(span, first, last)
        p.isExplicitDate = true
        return p
    }

    /// Two-digit years are 2000-2069 or 1970-1999.
    func fullYear(_ n: Int, digits: Int) -> Int? {
        switch digits {
        case 4: return n
        case 2: return n < 70 ? 2000 + n : 1900 + n
        default: return nil
        }
    }

    /// A day number with an optional ordinal suffix ("27", "27th") or an ordinal word ("third").
    func dayNumber(at i: Int) -> (day: Int, next: Int, ordinal: Bool)? {
        if let n = number(i), digits(i) <= 2 {
            if let w = word(i + 1), glued(i + 1), DateVocabulary.ordinalSuffixes.contains(w) { return (n, i + 2, true) }
            return (n, i + 1, false)
        }
        if let w = word(i), let n = DateVocabulary.ordinalWords[w] { return (n, i + 1, true) }
        // "twenty-fourth", "thirty first"
        if isWord(i, "twenty", "thirty") {
            let j = symbol(i + 1) == "-" ? i + 2 : i + 1
            if let w = word(j), let n = DateVocabulary.ordinalWords[w], n < 10 {
                return ((word(i) == "twenty" ? 20 : 30) + n, j + 1, true)
            }
        }
        return nil
    }

    /// A day said as a counting word after a month, as people speak dates ("march seven",
    /// "january twenty five"); not one that goes on as a time or a quantity ("may two people").
    func spokenDay(at i: Int) -> (day: Int, next: Int, ordinal: Bool)? {
        guard let w = word(i), let n = DateVocabulary.numberWords[w], (1...31).contains(n) else { return nil }
        var day = n, next = i + 1
        if n == 20 || n == 30 {
            let j = symbol(i + 1) == "-" ? i + 2 : i + 1
            if let u = word(j), let k = DateVocabulary.numberWords[u], (1...9).contains(k), n + k <= 31 { day = n + k; next = j + 1 }
        }
        if let after = word(next) {
            if ["am", "pm", "o'clock", "oclock", "more", "of"].contains(after) { return nil }
            // "march seven soldiers": a count of something.
            if WordNet.shared.map({ w in w.senseCount(after, as: .noun) > [.verb, .adj, .adv].reduce(0) { $0 + w.senseCount(after, as: $1) } }) ?? true {
                return nil
            }
        }
        return (day, next, false)
    }

    /// A number right after a date that reads as a time or a quantity, not a year: "5 May 12:00",
    /// "3 Aug 10 am", "Aug 9 10.30", "Aug 9 12 hours".
    func startsTimeOrQuantity(at j: Int) -> Bool {
        if symbol(j + 1) == ":", glued(j + 1) { return true }
        if symbol(j + 1) == ".", glued(j + 1), number(j + 2) != nil, glued(j + 2) { return true }
        guard let w = word(j + 1) else { return false }
        return ["am", "pm", "a", "p", "o", "oclock", "h", "hrs", "hr", "hours", "hour", "in"].contains(w) || DateVocabulary.unit(w) != nil
    }

    /// A month name with an optional glued full stop ("Jan.").
    func monthName(at i: Int) -> (month: Int, next: Int)? {
        guard let w = word(i), let m = DateVocabulary.month(w) else { return nil }
        if symbol(i + 1) == ".", glued(i + 1), w.count <= 4 { return (m, i + 2) }
        return (m, i + 1)
    }

    /// An optional year after a date: ", 2027" or " 2027" (four digits), or two digits that
    /// cannot be a time or a count ("3 Aug 96", "Aug 9, 96": 1970-2069). "BC", "BCE" and "BE" years
    /// are not this calendar's, and "88 AD" is no 1988: no year is read.
    func trailingYear(at i: Int) -> (year: Int, last: Int)? {
        var j = i
        if symbol(j) == "," { j += 1 }
        guard let n = number(j), !(symbol(j + 1) == ":" && glued(j + 1)), !glued(j) || j > i else { return nil }
        if isWord(j + 1, "bc", "bce", "be") || (digits(j) == 2 && isWord(j + 1, "ad", "ce")) { return nil }
        switch digits(j) {
        case 4: return (n, j)
        // Two digits end the phrase ("3 Aug 96."), or "buy 3 Aug 12 eggs" would be 2012.
        case 2 where !startsTimeOrQuantity(at: j) && word(j + 1) == nil && number(j + 1) == nil:
            return (fullYear(n, digits: 2)!, j)
        default: return nil
        }
    }

    /// 2026-01-27, 2026/01/27, with an optional time (T09:00, 09:00:00Z, +01:00).
    func isoDate(at i: Int) -> DatePiece? {
        guard digits(i) == 4, let y = number(i), let sep = symbol(i + 1), sep == "-" || sep == "/", glued(i + 1),
              let m = number(i + 2), glued(i + 2), digits(i + 2) <= 2, symbol(i + 3) == sep, glued(i + 3),
              let d = number(i + 4), glued(i + 4), digits(i + 4) <= 2 else { return nil }
        var piece = calendarDate(year: y, month: m, day: d, i, i + 4)
        guard piece.error == nil, sep == "-" else { return piece }
        // Time part: "T09:00" glued, or " 09:00" after a space.
        var j = i + 5
        if isWord(j, "t"), glued(j) { j += 1 } else if glued(j) { return piece }
        guard let h = number(j), digits(j) == 2, symbol(j + 1) == ":", glued(j + 1), let mi = number(j + 2), glued(j + 2) else { return piece }
        guard h < 24, mi < 60 else { return .failure("\(h):\(mi) is not a time of day", i, j + 2) }
        var last = j + 2
        var seconds = 0
        if symbol(last + 1) == ":", glued(last + 1), let s = number(last + 2), s < 60 { seconds = s; last += 2 }
        if symbol(last + 1) == ".", glued(last + 1), number(last + 2) != nil, glued(last + 2) { last += 2 }
        var offset: Int?
        if isWord(last + 1, "z"), glued(last + 1) {
            offset = 0
            last += 1
        } else if let s = symbol(last + 1), s == "+" || s == "-", glued(last + 1), let oh = number(last + 2), glued(last + 2) {
            var minutes = 0
            var end = last + 2
            if digits(last + 2) == 4 { minutes = (oh / 100) * 60 + oh % 100 } else {
                minutes = oh * 60
                if symbol(end + 1) == ":", glued(end + 1), let om = number(end + 2) { minutes += om; end += 2 }
            }
            offset = (s == "+" ? 1 : -1) * minutes * 60
            last = end
        }
        if let offset {
            var c = DateComponents(year: y, month: m, day: d, hour: h, minute: mi, second: seconds)
            c.timeZone = TimeZone(secondsFromGMT: offset)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0)!
            guard let instant = utc.date(from: c) else { return piece }
            var p = DatePiece(first: i, last: last)
            p.instant = (instant, .minute)
            return p
        }
        piece.last = last
        piece.time = ClockTime(hour: h, minute: mi, meridiem: nil, hasMinutes: true, isFixed: true)
        return piece
    }

    /// A year first, then a month name: "2024 Aug" (the month), "2018 March 18", "2012/Aug/10",
    /// "2012-Aug-10" (a day).
    func yearMonthName(at i: Int) -> DatePiece? {
        guard digits(i) == 4, let y = number(i), (1000...2999).contains(y) else { return nil }
        var k = i + 1
        var sep: String?
        if let s = symbol(k), ["/", "-"].contains(s), glued(k) { sep = s; k += 1 }
        guard let (month, afterMonth) = monthName(at: k) else { return nil }
        var j = afterMonth
        if let sep {
            guard symbol(j) == sep, glued(j) else { return nil }
            j += 1
        }
        if let n = number(j), digits(j) <= 2, !(symbol(j + 1) == ":" && glued(j + 1)) {
            let ordinal = isWord(j + 1, "st", "nd", "rd", "th") && glued(j + 1)
            return calendarDate(year: y, month: month, day: n, i, ordinal ? j + 1 : j)
        }
        guard sep == nil, let d = cal.date(year: y, month: month, day: 1) else { return nil }
        return .day(monthSpan(d), i, afterMonth - 1)
    }

    /// "8/Oct/2012", "8-Oct-12": day, month name and year joined by slashes or hyphens.
    func dayMonthNameYear(at i: Int) -> DatePiece? {
        guard let d = number(i), digits(i) <= 2, let sep = symbol(i + 1), ["/", "-"].contains(sep), glued(i + 1),
              let (month, afterMonth) = monthName(at: i + 2), glued(i + 2), symbol(afterMonth) == sep, glued(afterMonth),
              let n = number(afterMonth + 1), glued(afterMonth + 1), let y = fullYear(n, digits: digits(afterMonth + 1)) else { return nil }
        return calendarDate(year: y, month: month, day: d, i, afterMonth + 1)
    }

    /// 27/01/2027, 27.01.2027, 27-01-2027 and 27/01, read per --date-order. When the other order
    /// also makes a date (03/04/2026), that reading is the alternative.
    func numericDate(at i: Int) -> DatePiece? {
        guard let a = number(i), digits(i) <= 2, let sep = symbol(i + 1), ["/", ".", "-"].contains(sep), glued(i + 1),
              let b = number(i + 2), glued(i + 2), digits(i + 2) <= 2 else { return nil }
        // Inside a longer numeric run (a version, a phone number, a fraction): not a date.
        if symbol(i - 1).map(["/", ".", "-", ":"].contains) == true, glued(i) { return nil }
        var c: Int?
        var third: Int?
        var last = i + 2
        if symbol(i + 3) == sep, glued(i + 3), let n = number(i + 4), glued(i + 4) {
            third = n
            if order != .yearMonthDay {
                guard let y = fullYear(n, digits: digits(i + 4)) else { return nil }
                c = y
            }
            last = i + 4
            if [".", "/", "-"].contains(symbol(last + 1) ?? ""), glued(last + 1), number(last + 2) != nil { return nil }
        } else {
            // Two fields only with a slash, and not the "24/7" of opening hours.
            guard sep == "/", !(a == 24 && b == 7) else { return nil }
            if let s = symbol(i + 3), glued(i + 3), ["/", ".", "-"].contains(s) { return nil }
        }
        let read: (Int, Int, Int?) -> (day: Int, month: Int, year: Int?)
        let otherName: String
        switch order {
        case .dayMonthYear:
            read = { ($0, $1, $2) }
            otherName = "read as month/day"
        case .monthDayYear:
            read = { ($1, $0, $2) }
            otherName = "read as day/month"
        case .yearMonthDay:
            if let day = third {
                // yy/mm/dd: the first field is the year.
                guard let y = fullYear(a, digits: digits(i)), digits(i + 4) <= 2 else { return nil }
                return calendarDate(year: y, month: b, day: day, i, last)
            }
            read = { ($1, $0, $2) }
            otherName = "read as day/month"
        }
        let main = read(a, b, c)
        if c == nil, main.month > 12 || main.day > 31 { return nil }
        var piece = calendarDate(year: main.year, month: main.month, day: main.day, i, last)
        if var span = piece.day, a != b, a <= 12, b <= 12 {
            let swapped = calendarDate(year: main.year, month: main.day, day: main.month, i, last)
            if let other = swapped.day { span.alternatives.append(DaySpanAlternative(other, otherName)) }
            piece.day = span
        }
        if let error = piece.error, impossibility(year: main.year, month: main.day, day: main.month) == nil, order != .yearMonthDay {
            piece.error = error + " (with --date-order \(order == .dayMonthYear ? "mdy" : "dmy") it would be a date)"
        }
        return piece
    }

    /// 27 Jan, 27th January 2027, the 27th of January, 27 Jan, 2027.
    func dayMonth(at i: Int) -> DatePiece? {
        let j = skipThe(i)
        guard let (day, afterDay, _) = dayNumber(at: j) else { return nil }
        // The first day of a range takes its month and year from the second: "10 - 22 August
        // 2012", "eighth to eleventh May 2010". Only the first day is this phrase; the second is
        // read as a phrase of its own.
        if isRangeJoin(afterDay), day <= 31, let second = dayMonth(at: afterDay + 1), second.error == nil,
           let (_, afterSecondDay, _) = dayNumber(at: afterDay + 1), let (month, _) = monthName(at: isWord(afterSecondDay, "of") ? afterSecondDay + 1 : afterSecondDay),
           let end = second.day?.start {
            return rangeStart(month: month, day: day, endingOn: end, i, afterDay - 1)
        }
        var k = afterDay
        if isWord(k, "of") { k += 1 }
        guard let (month, afterMonth) = monthName(at: k) else { return nil }
        // "may" after a number reads as the month only when nothing verb-like could follow; accept.
        guard day <= 31 else { return nil }
        var last = afterMonth - 1
        var year: Int?
        if let (y, l) = trailingYear(at: afterMonth) { year = y; last = l }
        // "10 August - 12 September 2013": the first day takes the year of the second.
        if year == nil, isRangeJoin(afterMonth), let second = dayMonth(at: afterMonth + 1), second.error == nil,
           let end = second.day?.start {
            return rangeStart(month: month, day: day, endingOn: end, i, last)
        }
        return calendarDate(year: year, month: month, day: day, i, last)
    }

    /// Jan 27, Jan 27th, January 27, 2027, January the 27th.
    func monthDay(at i: Int) -> DatePiece? {
        guard let (month, afterMonth) = monthName(at: i) else { return nil }
        let j = skipThe(afterMonth)
        guard let (day, afterDay, ordinal) = dayNumber(at: j) ?? spokenDay(at: j), digits(j) <= 2 || ordinal || number(j) == nil, day <= 31 else { return nil }
        // "May 5:30" is a time, not a date.
        if symbol(afterDay) == ":", glued(afterDay) { return nil }
        // "may" and "march" are verbs too ("you may first call"): after them an ordinal word
        // counts only from "third" on, or with a year after it, or after a word that only a date
        // follows ("dinner on march first").
        let dated = i > 0 && isWord(i - 1, "on", "by", "until", "till", "before", "after", "since")
        if ["may", "march"].contains(word(i)!), number(j) == nil, day < 3, trailingYear(at: afterDay) == nil, !dated { return nil }
        var last = afterDay - 1
        var year: Int?
        if let (y, l) = trailingYear(at: afterDay) { year = y; last = l }
        // A range within the month ("May 8 - 10, 2010", "February 20 - 29, 2022") is read whole,
        // so that its year applies to the first day and an impossible end makes it an error; a
        // range into another month ("Aug 10 - Nov 12, 2013") lends the first day its year.
        if year == nil, isRangeJoin(afterDay) {
            if let (day2, afterDay2, _) = dayNumber(at: afterDay + 1), monthName(at: afterDay + 1) == nil, day2 > day, day2 <= 31 {
                // Only with a year after it: "Feb 20 - 30 people" is no range.
                if let range = trailingYear(at: afterDay2) {
                    if let why = impossibility(year: range.year, month: month, day: day2) { return .failure(why, i, range.last) }
                    return calendarDate(year: range.year, month: month, day: day, i, range.last)
                }
            } else if let second = monthDay(at: afterDay + 1), second.error == nil, let end = second.day?.start {
                return rangeStart(month: month, day: day, endingOn: end, i, last)
            }
        }
        return calendarDate(year: year, month: month, day: day, i, last)
    }

    /// The first day of a range whose last day is `end`: in the last day's year, or the year
    /// before when that would come after it ("Dec 20 - Jan 5, 2027" starts in 2026).
    func rangeStart(month: Int, day: Int, endingOn end: Date, _ first: Int, _ last: Int) -> DatePiece {
        let year = cal.year(end)
        let piece = calendarDate(year: year, month: month, day: day, first, last)
        if let start = piece.day?.start, start > end { return calendarDate(year: year - 1, month: month, day: day, first, last) }
        return piece
    }

    /// "-", "to", "through", "until" or "till" between the two ends of a range of days.
    func isRangeJoin(_ i: Int) -> Bool {
        symbol(i) == "-" || symbol(i) == "\u{2013}" || isWord(i, "to", "through", "thru", "until", "till")
    }

    /// The month `month` next on or after this one, or (`past`) last on or before it.
    func comingMonth(_ month: Int, past: Bool = false) -> DaySpan {
        let current = cal.calendar.component(.month, from: cal.today)
        var year = cal.year(cal.today)
        if past, month > current { year -= 1 } else if !past, month < current { year += 1 }
        return monthSpan(cal.date(year: year, month: month, day: 1)!)
    }

    /// March 2027, March of 2027, March '27, 2027-03, 03/2027 (a month), in March (the next March,
    /// this one included), in 2027 (a year); the
    /// month of May; March after next; a month alone as the whole text; and a month or a year
    /// after a word of when with nothing going on after it ("by june", "since 1999" (not "by 2030",
    /// which may be 20:30), "since march": the last one).
    func monthOrYear(at i: Int) -> DatePiece? {
        // March 2014, March of 2014, March '14.
        if let (month, after) = monthName(at: i) {
            var k = isWord(after, "of") ? after + 1 : after
            var year: Int?
            if let n = number(k), digits(k) == 4 {
                year = n
            } else if symbol(k) == "'", let n = number(k + 1), glued(k + 1), digits(k + 1) == 2, word(k + 2) == nil {
                year = fullYear(n, digits: 2)
                k += 1
            }
            if let year, let d = cal.date(year: year, month: month, day: 1) { return .day(monthSpan(d), i, k) }
        }
        // 2014-03 and 03/2014: a month of a year in digits, nothing glued on.
        if digits(i) == 4, let y = number(i), (1000...2999).contains(y), symbol(i + 1) == "-", glued(i + 1), digits(i + 2) == 2,
           let m = number(i + 2), glued(i + 2), (1...12).contains(m), !glued(i + 3), let d = cal.date(year: y, month: m, day: 1) {
            return .day(monthSpan(d), i, i + 2)
        }
        if digits(i) <= 2, let m = number(i), (1...12).contains(m), symbol(i + 1) == "/", glued(i + 1), digits(i + 2) == 4,
           let y = number(i + 2), glued(i + 2), (1000...2999).contains(y), !glued(i + 3), let d = cal.date(year: y, month: m, day: 1) {
            return .day(monthSpan(d), i, i + 2)
        }
        // March after next: the one after the coming March.
        if let (month, after) = monthName(at: i), isWord(after, "after"), isWord(after + 1, "next") {
            return .day(monthSpan(cal.adding(1, .year, to: comingMonth(month).start)), i, after + 1)
        }
        let k = skipThe(i)
        if isWord(k, "month"), isWord(k + 1, "of"), let (month, after) = monthName(at: k + 2) {
            return .day(comingMonth(month), i, after - 1)
        }
        // Not "from" or "after": "the keys from April", "the invoice from june", "named after May".
        let cued = isWord(i - 1, "by", "until", "till", "before", "since")
        func ends(_ e: Int) -> Bool { e >= tokens.count || [",", ".", ";", "!", "?", ")"].contains(symbol(e)) || isWord(e, "and", "or", "then", "please") }
        // A year alone is a number as often as a year ("2012"); after a word of when it is a year,
        // unless it can be a 24-hour time ("be home by 2030").
        if cued, let n = number(i), digits(i) == 4, (1900...2200).contains(n), n / 100 > 23 || n % 100 > 59, ends(i + 1) {
            return .day(yearSpan(cal.date(year: n, month: 1, day: 1)!), i, i)
        }
        if let (month, after) = monthName(at: i), (cued && ends(after)) || (i == 0 && after == tokens.count) {
            return .day(comingMonth(month, past: isWord(i - 1, "since")), i, after - 1)
        }
        guard isWord(i, "in", "during") else { return nil }
        if let n = number(i + 1), digits(i + 1) == 4, (1900...2200).contains(n), !(symbol(i + 2) == ":" && glued(i + 2)) {
            if let w = word(i + 2), DateVocabulary.unit(w) != nil { return nil }
            return .day(yearSpan(cal.date(year: n, month: 1, day: 1)!), i, i + 1)
        }
        if let (month, after) = monthName(at: i + 1) {
            return .day(comingMonth(month), i, after - 1)
        }
        return nil
    }

    /// Whether the word at `i` is one a day count can stand before as a noun it counts ("the 3rd
    /// floor", "my 21st birthday"): a noun to WordNet, other than the words that go on a date
    /// ("at", "pm", "noon", a weekday, a month, a part of the day).
    func nounFollows(at i: Int) -> Bool {
        guard let w = word(i) else { return false }
        if ["at", "in", "or", "pm", "am", "then", "so", "noon", "midday", "midnight", "oclock"].contains(w)
            || DayPart(word: w) != nil || Weekday(word: w) != nil || DateVocabulary.month(w) != nil {
            return false
        }
        return WordNet.shared.map { $0.senseCount(w, as: .noun) > 0 } ?? true
    }

    /// "the 27th" (or "on the 27th"), and "27th" alone at the start or after a word of when ("pay
    /// rent on 1st", "15th at noon"): the next 27th of a month, this month's if not yet past. "The
    /// 20th of next month", "the first of the month" (rolled on once past), "the 5th of this month".
    func dayOfMonth(at i: Int) -> DatePiece? {
        let bare = !isWord(i, "the")
        let j = bare ? i : i + 1
        guard let (day, after, ordinal) = dayNumber(at: j), ordinal, (1...31).contains(day) else { return nil }
        // "of the month", "of next month": which month is said.
        if isWord(after, "of"), let (year, month, roll, last) = countedMonth(at: after + 1), isWord(last, "month") {
            guard var d = cal.date(year: year, month: month, day: day) else {
                return .failure("\(DateVocabulary.monthNames[month - 1]) \(year) has no day \(day)", i, last)
            }
            // "the 5th of the month" once this month's is past: next month's.
            if let roll, d < cal.today {
                let later = cal.adding(1, roll, to: cal.date(year: year, month: month, day: 1)!)
                if let next = cal.date(year: cal.year(later), month: cal.calendar.component(.month, from: later), day: day) { d = next }
            }
            var p = DatePiece.day(daySpan(d), i, last)
            p.isExplicitDate = true
            return p
        }
        let cued = isWord(i - 1, "on", "by", "until", "till", "before", "after", "from", "since", "due")
            || word(i - 1).flatMap(Weekday.init(word:)) != nil
        // An ordinal word is a day only after a word of when ("on the twentieth", "by the third");
        // digits without "the" only there, after a weekday ("friday 15th") or at the start.
        // Neither before a word that can be a noun it counts ("on the third floor", "for the first
        // time", "my 21st birthday").
        if bare {
            guard number(j) != nil, i == 0 || cued else { return nil }
        } else if number(j) == nil, !cued {
            return nil
        }
        if nounFollows(at: after) { return nil }
        // "friday 13th", "sunday the 3rd": the next such day that is that weekday.
        let weekday = word(i - 1).flatMap(Weekday.init(word:))
        var c = cal.calendar.dateComponents([.year, .month], from: cal.today)
        for _ in 0..<(weekday == nil ? 13 : 40) {
            if let d = cal.date(year: c.year!, month: c.month!, day: day), d >= cal.today, weekday.map({ cal.weekday(d) == $0 }) ?? true {
                var p = DatePiece.day(daySpan(d), i, after - 1)
                p.isExplicitDate = true
                return p
            }
            c.month! += 1
            if c.month! > 12 { c.month = 1; c.year! += 1 }
        }
        return nil
    }
}
