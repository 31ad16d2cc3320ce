/// The months a text names without spelling them out, as the words a question would use.
///
/// A question says "electricity in January"; a budget export says `2024-01,Utilities,Electricity`
/// and a log says "27 Jan". Word matching sees no "january" in either, so the right row loses to
/// one that happens to share another word, and the completeness gate finds the question's month
/// missing. These spellings are read as the month they mean:
/// - ISO 8601 calendar dates and year-months: `2024-01`, `2024-01-15` (the year 1000-2199, the
///   month 01-12; a day, when there is one, 01-31). ISO order is unambiguous, unlike `01/02/2024`,
///   which is left alone.
/// - Day, month and year between slashes where only one order can be meant: `31/03/2025` (a bank
///   export's day first) or `03/31/2025` (month first); `01/02/2024` stays ambiguous and unread.
/// - English abbreviations ("Jan", "Sept", "Dec.") written with a capital next to a number
///   ("27 Jan", "Jan 2024"), so that the verb "mar" or a name "May" alone is not read as a month.
public enum MonthSpellings {
    static let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                        "october", "november", "december"]
    static let abbreviations: [String: Int] = [
        "Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9, "Sept": 9,
        "Oct": 10, "Nov": 11, "Dec": 12,
    ]

    /// The month names (as `TermAnalyzer.tokens` gives them) that `text` writes in another form,
    /// each once, in order of first appearance.
    public static func terms(in text: String) -> [String] {
        var months: [Int] = []
        func add(_ m: Int) { if !months.contains(m) { months.append(m) } }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if let (month, end) = isoMonth(scalars, at: i) {
                add(month)
                i = end
                continue
            }
            if let (month, end) = slashedMonth(scalars, at: i) {
                add(month)
                i = end
                continue
            }
            if let (month, end) = abbreviatedMonth(scalars, at: i) {
                add(month)
                i = end
                continue
            }
            i += 1
        }
        return months.map { TermAnalyzer.stem(names[$0 - 1]) }
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
    static func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || isDigit(s) }

    static func number(_ s: [Unicode.Scalar], _ from: Int, _ count: Int) -> Int? {
        guard from + count <= s.count else { return nil }
        var v = 0
        for k in from..<(from + count) {
            guard isDigit(s[k]) else { return nil }
            v = v * 10 + Int(s[k].value - 0x30)
        }
        return v
    }

    /// `YYYY-MM` or `YYYY-MM-DD` starting at `i`, standing alone (no letter or digit right before
    /// or after): the month and the index after the match.
    static func isoMonth(_ s: [Unicode.Scalar], at i: Int) -> (Int, Int)? {
        guard i == 0 || !isLetterOrDigit(s[i - 1]) else { return nil }
        guard let year = number(s, i, 4), (1000...2199).contains(year),
              i + 4 < s.count, s[i + 4] == "-",
              let month = number(s, i + 5, 2), (1...12).contains(month) else { return nil }
        var end = i + 7
        if end < s.count, s[end] == "-", end + 1 < s.count, isDigit(s[end + 1]) {
            guard let day = number(s, end + 1, 2), (1...31).contains(day) else { return nil }
            end += 3
        }
        // "2024-01-15T09:00" is still a date: a "T" and a time may follow the day.
        let timeFollows = end == i + 10 && end + 1 < s.count && s[end] == "T" && isDigit(s[end + 1])
        if end < s.count, isLetterOrDigit(s[end]), !timeFollows { return nil }
        return (month, end)
    }

    /// `DD/MM/YYYY` or `MM/DD/YYYY` (one or two digits each side) starting at `i`, standing alone,
    /// when one of the first two numbers is over 12 and so can only be the day: the month and
    /// the index after the match.
    static func slashedMonth(_ s: [Unicode.Scalar], at i: Int) -> (Int, Int)? {
        guard i == 0 || !isLetterOrDigit(s[i - 1]) else { return nil }
        func digits(_ from: Int) -> (Int, Int)? {
            var end = from
            while end < s.count, isDigit(s[end]), end - from < 4 { end += 1 }
            guard end > from, let v = number(s, from, end - from) else { return nil }
            return (v, end)
        }
        guard let (a, e1) = digits(i), e1 - i <= 2, e1 < s.count, s[e1] == "/",
              let (b, e2) = digits(e1 + 1), e2 - e1 - 1 <= 2, e2 < s.count, s[e2] == "/",
              let (year, e3) = digits(e2 + 1), e3 - e2 - 1 == 4, (1000...2199).contains(year) else { return nil }
        if e3 < s.count, isLetterOrDigit(s[e3]) { return nil }
        if (13...31).contains(a), (1...12).contains(b) { return (b, e3) }
        if (1...12).contains(a), (13...31).contains(b) { return (a, e3) }
        return nil
    }

    /// "Jan", "Sept", "Dec." starting at `i` as a whole word, with a number just before or after.
    static func abbreviatedMonth(_ s: [Unicode.Scalar], at i: Int) -> (Int, Int)? {
        guard i == 0 || !isLetterOrDigit(s[i - 1]), s[i].properties.isUppercase else { return nil }
        var end = i
        while end < s.count, s[end].properties.isAlphabetic { end += 1 }
        guard let month = abbreviations[String(String.UnicodeScalarView(s[i..<end]))] else { return nil }
        var after = end
        if after < s.count, s[after] == "." { after += 1 }
        while after < s.count, s[after] == " " { after += 1 }
        var before = i - 1
        while before >= 0, s[before] == " " || s[before] == "," { before -= 1 }
        let numberAfter = after < s.count && isDigit(s[after])
        let numberBefore = before >= 0 && isDigit(s[before])
        guard numberAfter || numberBefore else { return nil }
        return (month, end)
    }
}
