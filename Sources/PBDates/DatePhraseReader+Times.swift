/// Clock times: "at 5pm", "5 pm", "5:30pm", "17:30", "at 9", "9 o'clock", "noon", "midnight".
/// A number alone is never a time ("3 tasks"): it needs "at", a colon, am/pm or "o'clock".
extension DatePhraseReader {
    /// am/pm as "am", "pm", "a.m.", "p.m." (the last full stop optional), "in the am": the
    /// meridiem and the index of its last token.
    func meridiem(at i: Int) -> (ClockTime.Meridiem, Int)? {
        switch word(i) {
        case "am": return (.am, i)
        case "pm": return (.pm, i)
        // "3 in the AM", "10 in the pm".
        case "in" where isWord(i + 1, "the") && isWord(i + 2, "am", "pm"): return (isWord(i + 2, "am") ? .am : .pm, i + 2)
        case "a", "p":
            if symbol(i + 1) != ".", glued(i), number(i - 1) != nil, !(i + 1 < tokens.count && glued(i + 1) && tokens[i + 1].kind != .symbol) {
                // "8p", "11:45a": one letter glued to the time. A lone "a" needs minutes or "at"
                // before it ("flat 3a" is not three in the morning).
                if word(i) == "p" || symbol(i - 2) == ":" || isWord(i - 2, "at") { return (word(i) == "a" ? .am : .pm, i) }
                return nil
            }
            guard symbol(i + 1) == ".", isWord(i + 2, "m") else { return nil }
            let m: ClockTime.Meridiem = word(i) == "a" ? .am : .pm
            return (m, symbol(i + 3) == "." ? i + 3 : i + 2)
        default: return nil
        }
    }

    func clockTime(at i: Int) -> DatePiece? {
        var j = i
        let hasAt = isWord(i, "at") || symbol(i) == "@"
        if hasAt { j += 1 }
        switch word(j) {
        case "noon", "midday":
            return timePiece(ClockTime(hour: 12, minute: 0, meridiem: nil, hasMinutes: false, isFixed: true), i, j)
        case "midnight":
            // The midnight at the end of the day named (today if none).
            return timePiece(ClockTime(hour: 24, minute: 0, meridiem: nil, hasMinutes: false, isFixed: true), i, j)
        default: break
        }
        guard let h = number(j), digits(j) <= 2 else { return nil }
        var last = j
        var minute = 0
        var hasMinutes = false
        var colon = false
        if let s = symbol(j + 1), s == ":" || s == ".", glued(j + 1), let m = number(j + 2), glued(j + 2), digits(j + 2) == 2 {
            // "5.30" needs am/pm, or "at" with nothing after but a day ("at 7.30 tomorrow"), to be
            // a time: it is a number otherwise ("at 1.50 each").
            if s == ".", meridiem(at: j + 3) == nil,
               !hasAt || !(j + 3 >= tokens.count || (symbol(j + 3) != nil && symbol(j + 3) != "%") || dayCue(at: j + 3)) {
                return nil
            }
            minute = m
            hasMinutes = true
            colon = s == ":"
            last = j + 2
            if symbol(last + 1) == ":", glued(last + 1), number(last + 2) != nil, glued(last + 2) { last += 2 }
        }
        // "3ish", "3-ish pm": about then, read as the hour said. Alone it is a time only where
        // nothing follows but a day, or after "at", "around", "about" or "by" ("10ish chairs" is not).
        var approximate = false
        if isWord(last + 1, "ish"), glued(last + 1) {
            last += 1
            approximate = true
        } else if symbol(last + 1) == "-", glued(last + 1), isWord(last + 2, "ish"), glued(last + 2) {
            last += 2
            approximate = true
        }
        var mer: ClockTime.Meridiem?
        if let (m, end) = meridiem(at: last + 1) {
            mer = m
            last = end
        } else if isWord(last + 1, "oclock") || (isWord(last + 1, "o") && symbol(last + 2) == "'" && isWord(last + 3, "clock"))
                    || (isWord(last + 1, "o") && isWord(last + 2, "clock")) {
            last += isWord(last + 1, "oclock") ? 1 : isWord(last + 2, "clock") ? 2 : 3
            // "3 o'clock pm"
            if let (m, end) = meridiem(at: last + 1) {
                mer = m
                last = end
            }
        } else if approximate {
            guard (1...12).contains(h), hasAt || isWord(i - 1, "around", "about", "by", "until", "before", "after")
                    || (word(last + 1) == nil && number(last + 1) == nil) || dayCue(at: last + 1) else { return nil }
        } else if !hasAt && !colon {
            // "5 in the afternoon", "10 at night": the part of the day makes the number a time.
            // "10 tomorrow", "6 on saturday", "9 tonight": a day after it does too.
            guard (1...12).contains(h), dayCue(at: last + 1) else { return nil }
            // "5 in the afternoon" always; "10 tomorrow" only where a time can stand ("buy 2 tomorrow").
            if !isWord(last + 1, "in", "at"), !timeCanStand(at: j) { return nil }
        }
        let text = tokens[i...last].map(\.text).joined()
        if let mer {
            guard (1...12).contains(h), minute < 60 else { return .failure("'\(text)' is not a time of day", i, last) }
            return timePiece(ClockTime(hour: h, minute: minute, meridiem: mer, hasMinutes: hasMinutes, isFixed: false), i, last)
        }
        guard h <= 24, minute < 60, h < 24 || minute == 0 else {
            return colon ? .failure("'\(text)' is not a time of day", i, last) : nil
        }
        // A leading zero ("09:00"), 0, or 13 and above are on the 24-hour clock.
        let fixed = h == 0 || h > 12 || digits(j) == 2 && tokens[j].text.hasPrefix("0")
        return timePiece(ClockTime(hour: h, minute: minute, meridiem: nil, hasMinutes: hasMinutes, isFixed: fixed), i, last)
    }

    func timePiece(_ t: ClockTime, _ first: Int, _ last: Int) -> DatePiece {
        var p = DatePiece(first: first, last: last)
        p.time = t
        return p
    }
}
