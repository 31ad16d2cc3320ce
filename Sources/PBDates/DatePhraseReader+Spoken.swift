import Foundation

/// Times as people say them: "ten forty pm", "half past 4", "a quarter to 3pm", "10 to noon",
/// "seven-oh-five", "six tonight", "at 830 in the morning", "8p", "11:45a", "14h", "16h30", and a
/// bare hour before a day ("10 tomorrow", "6 on saturday").
///
/// A number, digits or a word, is a time only with a cue: "at", am/pm, "o'clock", a part of the day
/// after it ("in the evening", "tonight"), a day after it ("tomorrow", "on friday"), or a spoken
/// frame ("half past", "ten to"), so "3 tasks" and "five people" stay numbers.
extension DatePhraseReader {

    /// An hour from 1 to 12 as digits or a word, and the index after it.
    func hourWord(at i: Int) -> (hour: Int, next: Int)? {
        if let n = number(i), digits(i) <= 2, (1...12).contains(n) { return (n, i + 1) }
        if let w = word(i), let n = DateVocabulary.numberWords[w], (1...12).contains(n) { return (n, i + 1) }
        return nil
    }

    /// Minutes said after an hour word: "oh five", "o-five", "fifteen", "forty five", "forty-five".
    func minuteWords(at i: Int) -> (minute: Int, next: Int)? {
        var j = i
        if symbol(j) == "-" { j += 1 }
        if isWord(j, "oh", "o") {
            var k = j + 1
            if symbol(k) == "-" { k += 1 }
            if let w = word(k), let n = DateVocabulary.numberWords[w], (1...9).contains(n) { return (n, k + 1) }
            if let n = number(k), digits(k) == 1, n >= 1 { return (n, k + 1) }
            return nil
        }
        guard let w = word(j), let n = DateVocabulary.numberWords[w], (10...59).contains(n) else { return nil }
        if n >= 20, n % 10 == 0 {
            var k = j + 1
            if symbol(k) == "-" { k += 1 }
            if let u = word(k).flatMap({ DateVocabulary.numberWords[$0] }), (1...9).contains(u) { return (n + u, k + 1) }
        }
        return (n, j + 1)
    }

    /// Whether a day or a part of the day follows at `i`, which makes a bare number before it a
    /// time: "10 tomorrow", "6 on saturday", "nine tonight", "3 this afternoon", "8 in the evening".
    func dayCue(at i: Int) -> Bool {
        if isWord(i, "tomorrow", "today", "tonight", "tonite", "tmr", "tmrw") { return true }
        if isWord(i, "this"), word(i + 1).flatMap(DayPart.init(word:)) != nil { return true }
        if isWord(i, "in", "at"), let part = dayPart(at: i), part.last > i { return true }
        let j = isWord(i, "on") ? i + 1 : i
        if let w = word(j), let _ = Weekday(word: w), !(w.hasSuffix("s") && w.count > 5 && w != "thurs" && w != "tues") {
            return true
        }
        return false
    }

    /// Whether the minutes at `i` start with "oh" ("-oh-five", "oh five").
    func pattern(_ i: Int, isOh: Bool) -> Bool {
        let j = symbol(i) == "-" ? i + 1 : i
        return isWord(j, "oh", "o")
    }

    /// Whether a bare number at `i` may be an hour because a day follows ("10 tomorrow"): only where
    /// a time can stand, at the start, after punctuation or after a word that introduces one. After
    /// other words it counts things ("buy 2 tomorrow", "invite six tonight").
    func timeCanStand(at i: Int) -> Bool {
        if i == 0 { return true }
        if tokens[i - 1].kind == .symbol { return true }
        return isWord(i - 1, "at", "by", "around", "about", "till", "until", "til", "before", "after", "from", "and", "or",
                      "say", "meet", "see", "ring", "call", "then", "is", "it's", "its", "s", "dinner", "lunch", "breakfast", "drinks")
    }

    /// What one spoken form of a clock time makes of the words at a position.
    enum ClockReading {
        case time(DatePiece)
        /// The words are this form's but not a time ("at one point"): no other form reads them.
        case notATime
        /// Not this form: the next one tries.
        case otherForm
    }

    /// Where a spoken time starts: `i` is the phrase's first token, `j` the time's (after an
    /// "at"), and whether the words before make it a range's end.
    struct ClockStart {
        var i: Int
        var j: Int
        var hasAt: Bool
        /// "from nine to five", "between 5 and 10": a range's ends are not "N to H".
        var afterRange: Bool
    }

    /// The spoken forms of a clock time, each tried in turn.
    func spokenClock(at i: Int) -> DatePiece? {
        let hasAt = isWord(i, "at") || symbol(i) == "@"
        let start = ClockStart(i: i, j: hasAt ? i + 1 : i, hasAt: hasAt, afterRange: isWord(i - 1, "from", "between"))
        let forms: [(ClockStart) -> ClockReading] = [halfHour, relativeToHour, hourInWords, hourAndMinutesApart, digitsRunTogether, hoursWithH]
        for form in forms {
            switch form(start) {
            case .time(let piece): return piece
            case .notATime: return nil
            case .otherForm: continue
            }
        }
        return nil
    }

    /// Minutes said before an hour: "half", "(a) quarter", "N [minutes]" (1 to 59, in digits or
    /// words); the minutes and the token after them.
    func minutesBeforeHour(at j: Int) -> (minutes: Int, next: Int)? {
        var k = j
        if isWord(k, "half") { return (30, k + 1) }
        if isWord(k, "quarter") || (isWord(k, "a") && isWord(k + 1, "quarter")) { return (15, k + (isWord(k, "a") ? 2 : 1)) }
        var minutes: Int
        if let n = number(k), digits(k) <= 2, (1...59).contains(n) {
            minutes = n
            k += 1
        } else if let w = word(k), DateVocabulary.numberWords[w] != nil, let (n, next) = count(at: k), (1...59).contains(n) {
            minutes = n
            k = next
        } else {
            return nil
        }
        if isWord(k, "minutes", "minute", "mins", "min") { k += 1 }
        return (minutes, k)
    }

    /// "half three", "half 6" (British): half past that hour, read as a bare hour is.
    func halfHour(_ s: ClockStart) -> ClockReading {
        guard isWord(s.j, "half"), let (_, k) = minutesBeforeHour(at: s.j), !s.afterRange, s.hasAt || timeCanStand(at: s.j),
              let (h, next) = hourWord(at: k), (1...12).contains(h),
              !isWord(next, "hours", "hour", "hrs", "hr", "days", "weeks", "months", "years", "times", "an", "a") else { return .otherForm }
        var last = next - 1
        var mer: ClockTime.Meridiem?
        if let (mm, end) = meridiem(at: last + 1) { mer = mm; last = end }
        return .time(timePiece(ClockTime(hour: h, minute: 30, meridiem: mer, hasMinutes: true, isFixed: false), s.i, last))
    }

    /// Half past H, (a) quarter past/to H, N [minutes] past/to H, to or past noon and midnight.
    func relativeToHour(_ s: ClockStart) -> ClockReading {
        let j = s.j
        guard let (m, k) = minutesBeforeHour(at: j), !s.afterRange, isWord(k, "past", "after", "to", "till", "before", "of") else { return .otherForm }
        let forward = isWord(k, "past", "after")
        let spokenWord = word(j) != nil && number(j) == nil
        var hour: Int?
        var fixed = false
        var last = k + 1
        if isWord(k + 1, "noon", "midday") {
            hour = 12
            fixed = true
        } else if isWord(k + 1, "midnight") {
            hour = 24
            fixed = true
        } else if let (h, next) = hourWord(at: k + 1) {
            hour = h
            last = next - 1
        }
        guard var h = hour else { return .otherForm }
        var mer: ClockTime.Meridiem?
        if let (mm, end) = meridiem(at: last + 1) { mer = mm; last = end }
        let oclock = isWord(last + 1, "oclock")
        if oclock { last += 1 }
        // "5 to 10" alone is a range more often than a time: digits need a cue.
        // Said alone ("20 to 4", "25 after 4"), in fives, it is a time.
        let alone = s.i == 0 && last == tokens.count - 1 && m % 5 == 0
        let cued = spokenWord || s.hasAt || fixed || mer != nil || oclock || isWord(k, "past") || dayCue(at: last + 1)
            || isWord(j + 1, "minutes", "minute", "mins", "min") || alone
        guard cued else { return .notATime }
        var minute = m
        if !forward {
            minute = 60 - m
            h -= 1
            if h == 0, !fixed { h = 12 }
        }
        if mer != nil, !(1...12).contains(h) { return .notATime }
        return .time(timePiece(ClockTime(hour: h, minute: minute, meridiem: mer, hasMinutes: true, isFixed: fixed), s.i, last))
    }

    /// An hour said as a word, with minutes said as words: "ten forty pm", "seven-oh-five",
    /// "eleven am", "six tonight", "three in the afternoon", "at nine".
    func hourInWords(_ s: ClockStart) -> ClockReading {
        let j = s.j
        guard let w = word(j), let h = DateVocabulary.numberWords[w], (1...12).contains(h) else { return .otherForm }
        var last = j
        var minute = 0
        var hasMinutes = false
        if let (mm, next) = minuteWords(at: j + 1) {
            minute = mm
            hasMinutes = true
            last = next - 1
        }
        // "eleven-oh-five" says it is a time by the "oh".
        let saidOh = hasMinutes && pattern(j + 1, isOh: true)
        var mer: ClockTime.Meridiem?
        if let (mm, end) = meridiem(at: last + 1) {
            mer = mm
            last = end
        } else if isWord(last + 1, "oclock") || (isWord(last + 1, "o") && symbol(last + 2) == "'" && isWord(last + 3, "clock"))
                || (isWord(last + 1, "o") && isWord(last + 2, "clock")) {
            last += isWord(last + 1, "oclock") ? 1 : isWord(last + 2, "clock") ? 2 : 3
        } else if (dayCue(at: last + 1) && (s.hasAt || timeCanStand(at: j))) || saidOh {
            // A time by its cue.
        } else if !s.hasAt || (!hasMinutes && isWord(last + 1, "point", "time", "stage", "another", "of", "or", "day", "last",
                                                      "once", "least", "all", "a", "the", "hundred", "thousand", "percent", "more")) {
            // "at one point", "at one time": a number, not a time.
            return .notATime
        }
        return .time(timePiece(ClockTime(hour: h, minute: minute, meridiem: mer, hasMinutes: hasMinutes, isFixed: false), s.i, last))
    }

    /// An hour and its minutes apart, made sure by am or pm, or by "at" with nothing after but a
    /// day: "3 15 pm", "at 5 30".
    func hourAndMinutesApart(_ s: ClockStart) -> ClockReading {
        let j = s.j
        guard let h = number(j), digits(j) <= 2, (1...12).contains(h), let m = number(j + 1), digits(j + 1) == 2, m < 60, !glued(j + 1) else {
            return .otherForm
        }
        if let (mer, end) = meridiem(at: j + 2) {
            return .time(timePiece(ClockTime(hour: h, minute: m, meridiem: mer, hasMinutes: true, isFixed: false), s.i, end))
        }
        if s.hasAt, j + 2 >= tokens.count || (symbol(j + 2) != nil && symbol(j + 2) != "%") || dayCue(at: j + 2) {
            return .time(timePiece(ClockTime(hour: h, minute: m, meridiem: nil, hasMinutes: true, isFixed: false), s.i, j + 1))
        }
        return .otherForm
    }

    /// Three or four digits run together: "at 830 in the morning", "1130pm", "at 1430".
    func digitsRunTogether(_ s: ClockStart) -> ClockReading {
        let j = s.j
        guard let n = number(j), digits(j) == 3 || digits(j) == 4 else { return .otherForm }
        let h = n / 100
        let m = n % 100
        guard m < 60, h <= 23 else { return .notATime }
        var last = j
        var mer: ClockTime.Meridiem?
        if let (mm, end) = meridiem(at: j + 1) { mer = mm; last = end }
        guard mer != nil || s.hasAt || (isWord(j + 1, "in", "at") && dayCue(at: j + 1)) else { return .notATime }
        if mer != nil, !(1...12).contains(h) { return .notATime }
        let fixed = mer == nil && (h == 0 || h > 12 || tokens[j].text.hasPrefix("0"))
        return .time(timePiece(ClockTime(hour: h, minute: m, meridiem: mer, hasMinutes: true, isFixed: fixed), s.i, last))
    }

    /// The French and military "14h", "16h30", "9h30".
    func hoursWithH(_ s: ClockStart) -> ClockReading {
        let j = s.j
        guard let h = number(j), digits(j) <= 2, h <= 23, isWord(j + 1, "h"), glued(j + 1) else { return .otherForm }
        var last = j + 1
        var minute = 0
        var hasMinutes = false
        if let m = number(j + 2), glued(j + 2), digits(j + 2) == 2, m < 60 {
            minute = m
            hasMinutes = true
            last = j + 2
        }
        guard h >= 13 || h == 0 || hasMinutes || s.hasAt else { return .notATime }
        return .time(timePiece(ClockTime(hour: h, minute: minute, meridiem: nil, hasMinutes: hasMinutes, isFixed: true), s.i, last))
    }
}
