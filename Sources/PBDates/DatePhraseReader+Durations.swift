import Foundation

/// "in 3 days", "in a fortnight", "2 weeks ago", "a week from now", "in half an hour", "in a
/// quarter of an hour".
extension DatePhraseReader {
    /// A count: digits, a number word ("twenty one", "twenty-one"), "a"/"an" (1), "a couple of" (2),
    /// "a few" (3, documented), "another" before a unit (1); "several" is not a count. Returns the
    /// value and the index after it.
    func count(at i: Int) -> (value: Int, next: Int)? {
        if let n = number(i), digits(i) <= 4 { return (n, i + 1) }
        if isWord(i, "a", "an") {
            if isWord(i + 1, "couple") { return (2, isWord(i + 2, "of") ? i + 3 : i + 2) }
            if isWord(i + 1, "few") { return (3, i + 2) }
            return (1, i + 1)
        }
        if isWord(i, "couple") { return (2, isWord(i + 1, "of") ? i + 2 : i + 1) }
        if isWord(i, "few") { return (3, i + 1) }
        // "in another hour", "in another 2 days"
        if isWord(i, "another") {
            if let w = word(i + 1), DateVocabulary.unit(w) != nil { return (1, i + 1) }
            return isWord(i + 1, "another") ? nil : count(at: i + 1)
        }
        guard let w = word(i), let n = DateVocabulary.numberWords[w] else { return nil }
        if n >= 20, n % 10 == 0 {
            var j = i + 1
            if symbol(j) == "-" { j += 1 }
            if let unit = word(j).flatMap({ DateVocabulary.numberWords[$0] }), unit < 10 { return (n + unit, j + 1) }
        }
        return (n, i + 1)
    }

    /// A number with a part: "1.5", "1/2" (a numerator under its denominator, at most 12), "2 and a
    /// half"; the value and the index after it. Whole numbers are `count(at:)`'s.
    func fraction(at k: Int) -> (value: Double, next: Int)? {
        if let whole = number(k), symbol(k + 1) == ".", glued(k + 1), let part = number(k + 2), glued(k + 2) {
            return (Double(whole) + Double(part) / pow(10, Double(digits(k + 2))), k + 3)
        }
        if let top = number(k), symbol(k + 1) == "/", glued(k + 1), let bottom = number(k + 2), glued(k + 2),
           (2...12).contains(bottom), top < bottom, top > 0 {
            return (Double(top) / Double(bottom), k + 3)
        }
        if let (n, after) = count(at: k), isWord(after, "and"), isWord(after + 1, "a", "an"), isWord(after + 2, "half") {
            return (Double(n) + 0.5, after + 3)
        }
        return nil
    }

    /// One or more "N unit" terms ("1 year 2 months", "2 days and 3 hours"), as calendar
    /// components; "half an hour" is 30 minutes. The index after the last term.
    func durationTerms(at i: Int) -> (components: DateComponents, smallest: DateVocabulary.Unit, next: Int)? {
        var c = DateComponents()
        var smallest: DateVocabulary.Unit?
        var j = i
        var terms = 0
        let rank: [DateVocabulary.Unit] = [.second, .minute, .hour, .day, .week, .fortnight, .month, .year, .decade]
        func note(_ u: DateVocabulary.Unit) {
            if smallest == nil || rank.firstIndex(of: u)! < rank.firstIndex(of: smallest!)! { smallest = u }
        }
        while true {
            var k = j
            if terms > 0 {
                if symbol(k) == "," { k += 1 }
                if isWord(k, "and") { k += 1 }
            }
            if isWord(k, "half"), isWord(k + 1, "an", "a"), isWord(k + 2, "hour") {
                c.minute = (c.minute ?? 0) + 30
                note(.minute)
                j = k + 3
                terms += 1
                continue
            }
            // "a quarter of an hour", "three quarters of an hour".
            var quarters = 0
            if isWord(k, "a", "one"), isWord(k + 1, "quarter") { quarters = 1 }
            if isWord(k, "three") || number(k) == 3, isWord(k + 1, "quarters") { quarters = 3 }
            if quarters > 0, isWord(k + 2, "of"), isWord(k + 3, "an", "a"), isWord(k + 4, "hour") {
                c.minute = (c.minute ?? 0) + 15 * quarters
                note(.minute)
                j = k + 5
                terms += 1
                continue
            }
            // "1.5 hours", "2.5 days", "1/2 hour", "2 and a half hours": a fraction of a unit, in
            // the next smaller one.
            if let (value, afterNumber) = fraction(at: k), case let unitAt = isWord(afterNumber, "an", "a") ? afterNumber + 1 : afterNumber,
               let unitWord = word(unitAt),
               let unit = DateVocabulary.unit(unitWord) ?? (glued(unitAt) ? DateVocabulary.compactUnit(unitWord) : nil),
               [.day, .hour, .minute].contains(unit) {
                switch unit {
                case .day: c.hour = (c.hour ?? 0) + Int((value * 24).rounded()); note(.hour)
                case .hour: c.minute = (c.minute ?? 0) + Int((value * 60).rounded()); note(.minute)
                default: c.second = (c.second ?? 0) + Int((value * 60).rounded()); note(.second)
                }
                j = unitAt + 1
                terms += 1
                continue
            }
            // "2 more minutes": the count goes on to its unit.
            guard let (n, counted) = count(at: k), case let after = isWord(counted, "more") ? counted + 1 : counted, let unitWord = word(after),
                  let unit = DateVocabulary.unit(unitWord) ?? (glued(after) && number(k) != nil ? DateVocabulary.compactUnit(unitWord) : nil)
            else { break }
            switch unit {
            case .second: c.second = (c.second ?? 0) + n
            case .minute: c.minute = (c.minute ?? 0) + n
            case .hour: c.hour = (c.hour ?? 0) + n
            case .day: c.day = (c.day ?? 0) + n
            case .week: c.day = (c.day ?? 0) + 7 * n
            case .fortnight: c.day = (c.day ?? 0) + 14 * n
            case .month: c.month = (c.month ?? 0) + n
            case .year: c.year = (c.year ?? 0) + n
            case .decade: c.year = (c.year ?? 0) + 10 * n
            }
            note(unit)
            j = after + 1
            terms += 1
            // "an hour and a half"
            if unit == .hour, isWord(j, "and"), isWord(j + 1, "a"), isWord(j + 2, "half") {
                c.minute = (c.minute ?? 0) + 30
                j += 3
            }
        }
        guard terms > 0, let smallest else { return nil }
        return (c, smallest, j)
    }

    /// The day an amount is counted from, after the amount: "after|before|from <a day>", or, for
    /// weeks and longer, "today" or "tomorrow" straight after it ("a week today", British). The
    /// day and the last token read. "From now" and "from today" are the caller's.
    func countedFrom(at k: Int, smallest: DateVocabulary.Unit) -> (day: Date, last: Int)? {
        if [.week, .fortnight, .month, .year, .decade].contains(smallest), isWord(k, "today", "tomorrow") {
            return (cal.day(cal.today, plus: isWord(k, "tomorrow") ? 1 : 0), k)
        }
        guard isWord(k, "before", "after", "from"), let (day, last) = plainDay(at: k + 1) else { return nil }
        return (day.start, last)
    }

    /// in <duration>, within <duration>, <duration> ago / before / earlier, <duration> from now /
    /// from today / later / hence. Days and longer resolve to a day (the date); hours and minutes
    /// to an instant.
    func duration(at i: Int) -> DatePiece? {
        var sign = 1
        var start = i
        var terms: (components: DateComponents, smallest: DateVocabulary.Unit, next: Int)
        var last: Int
        // "in about 2 hours": a word of about-ness does not change the amount.
        let hedge = isWord(i + 1, "about", "around", "roughly", "approximately", "approx", "like", "maybe", "just")
        if isWord(i, "in", "within"), let t = durationTerms(at: hedge ? i + 2 : i + 1) {
            terms = t
            last = t.next - 1
            if isWord(t.next, "time") { last = t.next }
        } else if let t = durationTerms(at: i) {
            terms = t
            if isWord(t.next, "ago", "earlier", "back") {
                sign = -1
                last = t.next
            } else if isWord(t.next, "from"), isWord(t.next + 1, "now", "today") {
                last = t.next + 1
            } else if isWord(t.next, "later", "hence", "out") {
                last = t.next
            } else if ![.second, .minute, .hour].contains(t.smallest),
                      let (anchor, last) = countedFrom(at: t.next, smallest: t.smallest) {
                // "2 days after tomorrow", "a week before Friday", "3 days from monday", "a week
                // today": counted from that day.
                var c = t.components
                if isWord(t.next, "before") {
                    for key in [\DateComponents.year, \.month, \.day] { if let v = c[keyPath: key] { c[keyPath: key] = -v } }
                }
                let moved = cal.calendar.date(byAdding: c, to: anchor) ?? anchor
                return .day(daySpan(cal.startOfDay(moved)), i, last)
            } else {
                return nil
            }
        } else {
            return nil
        }
        start = i
        var c = terms.components
        if sign < 0 {
            for key in [\DateComponents.year, \.month, \.day, \.hour, \.minute, \.second] {
                if let v = c[keyPath: key] { c[keyPath: key] = -v }
            }
        }
        let moved = cal.calendar.date(byAdding: c, to: cal.now) ?? cal.now
        switch terms.smallest {
        case .second, .minute, .hour:
            var p = DatePiece(first: start, last: last)
            p.instant = (moved, terms.smallest == .hour ? .hour : .minute)
            return p
        default:
            return .day(daySpan(cal.startOfDay(moved)), start, last)
        }
    }
}
