import Foundation

/// Quarters of a year by number: "Q3", "the third quarter", "4th qtr of 2018", "Q1 next year".
/// "this/next/last quarter" are periods (see `period(at:)`), and "end of Q1" an end of one.
extension DatePhraseReader {

    /// [the] first|second|third|fourth|1st..4th quarter|qtr [of|in] [YEAR | this/next/last year],
    /// or q1..q4 [YEAR], or YEAR q1..q4. Without a year, this year's quarter unless it is over, then next year's
    /// (as a month name alone is read). "a quarter past 3" never reads: a quarter needs its number.
    func quarterOfYear(at i: Int) -> DatePiece? {
        // The year first: "2018 Q4".
        if digits(i) == 4, let y = number(i), (1000...2999).contains(y), isWord(i + 1, "q"), let k = number(i + 2), glued(i + 2),
           digits(i + 2) == 1, (1...4).contains(k), let start = cal.date(year: y, month: 3 * (k - 1) + 1, day: 1) {
            return .day(quarterSpan(start), i, i + 2)
        }
        var j = skipThe(i)
        let n: Int
        if isWord(j, "q"), let k = number(j + 1), glued(j + 1), digits(j + 1) == 1, (1...4).contains(k) {
            n = k
            j += 2
        } else {
            if let w = word(j), let k = DateVocabulary.ordinalWords[w], (1...4).contains(k) {
                n = k
                j += 1
            } else if let k = number(j), (1...4).contains(k), let w = word(j + 1), glued(j + 1), DateVocabulary.ordinalSuffixes.contains(w) {
                n = k
                j += 2
            } else {
                return nil
            }
            guard isWord(j, "quarter", "qtr") else { return nil }
            j += 1
        }
        var last = j - 1
        var k = j
        if isWord(k, "of", "in") { k += 1 }
        let today = cal.today
        var year = cal.year(today)
        var said = true
        if digits(k) == 4, let y = number(k), (1000...2999).contains(y), !(symbol(k + 1) == ":" && glued(k + 1)) {
            year = y
            last = k
        } else if isWord(k, "this", "next", "last"), isWord(k + 1, "year", "yr") {
            year += isWord(k, "next") ? 1 : isWord(k, "last") ? -1 : 0
            last = k + 1
        } else {
            said = false
        }
        // A quarter in a name ("the Audi Q3", "Q4 report", "second quarter results", "the first
        // quarter of the game") is no date: it needs a year, a word that leads to a time ("by
        // Q3", "end of Q1"), or to be all that was said.
        let leads: Set<String> = ["in", "by", "for", "during", "until", "till", "before", "after", "from", "of", "through", "to", "within", "at", "this", "next"]
        guard said || word(i - 1).map(leads.contains) == true || (i == 0 && last == tokens.count - 1) else { return nil }
        guard var start = cal.date(year: year, month: 3 * (n - 1) + 1, day: 1) else { return nil }
        if !said, cal.adding(3, .month, to: start) <= today { start = cal.adding(1, .year, to: start) }
        return .day(quarterSpan(start), i, last)
    }
}
