import PBText
import Foundation
import PBCore
import PBRetrieval

/// How well one evidence sentence answers the question, from three kinds of signal:
/// the question's terms it holds (weighted by how rare they are among the evidence sentences, so
/// that the distinctive words count), its meaning (MiniLM, when the encoder is there: cosine of
/// the pooled vectors and MaxSim late interaction of the token states), and whether it holds the
/// kind of thing asked for (a year for "when", a number for "how many", a name for "who") beyond
/// the question's own words.
///
/// The weights: overlap and cosine as before; MaxSim added after measuring on SQuAD 2.0 (700
/// answerable questions of the dev half whose packed evidence holds the answer). MaxSim alone
/// picks a sentence holding the answer more often than cosine alone (75.9% against 64.9%): it asks
/// whether each question word has a counterpart in the sentence, where one pooled vector blurs
/// them together. Through the whole pipeline (pb-ask on a quarter of the dev half) overlap 0.50 +
/// cosine 0.20 + MaxSim 0.50 did better than 0.35 + 0.20 + 0.70 and than the cosine-only 0.50 +
/// 0.35; Evals/answers gives the figures. The cosine then went from 0.20 to 0.35: on SQuAD (whose
/// questions reuse the passage's words) it changes nothing beyond noise (the make-test quarter:
/// 58.6% -> 58.3% right, 20.4% -> 20.1% withheld), while people paraphrase: "can we keep a cat in
/// the flat?" quoted a clause about keeping the flat clean (two shared words) instead of the one
/// about pets, which only meaning connects.
public struct SentenceScorer: Sendable {
    public struct Weights: Sendable, Equatable {
        public var overlap = 0.50
        public var cosine = 0.35
        public var maxSim = 0.50
        public var expectation = 0.10
        public var passage = 0.05
        /// Taken off a table row (a CSV or TSV line, a Markdown table row) unless a number is asked
        /// for: a row names the thing asked about in a few words, so it scores like a sentence that
        /// answers, yet it rarely says what something means or when it happens. "What does E24
        /// mean?" is answered by the manual, not by the budget line for its repair.
        public var tableRow = 0.15
        public init() {}
    }

    public var weights = Weights()
    public init() {}

    public struct Scored: Sendable {
        public var sentence: EvidenceSentence
        public var overlap: Double
        public var cosine: Double?
        /// Mean over the question's tokens of the best cosine with a token of the sentence.
        public var maxSim: Double?
        public var expectation: Double
        public var score: Double
        /// The question terms the sentence holds.
        public var matched: Set<String>
    }

    /// Lexical part of the score, for every sentence (cheap; used to choose which to embed).
    /// `rowsAnswer`: the value asked for is of a kind table rows hold, so rows are not discounted.
    /// `titleNamesDocument`: the question's words that are in a sentence's document title name
    /// the document, not the passage (a how-to question: "how do I descale the washer dryer?" is
    /// answered by the sentence that says "descale", not the one that says "washer dryer"), and
    /// count half.
    public func lexical(_ question: QuestionAnalysis, _ sentences: [EvidenceSentence], passageRank: [Int: Int], rowsAnswer: Bool = false,
                        titleNamesDocument: Bool = false) -> [Scored] {
        // A month written as "2024-01" or "27 Jan" counts as the month's name.
        let tokens = sentences.map { Set(TermAnalyzer.tokens($0.text) + MonthSpellings.terms(in: $0.text)) }
        // The heading a sentence sits under says what it is about ("Mechanic noticed an oil
        // seep" under the log entry "2023-06-27 ..." answers "what did the mechanic notice in
        // June 2023?"): a question term found only there counts half.
        var headingCache: [String: Set<String>] = [:]
        // So does a table's header over a row: "Groceries | 520 | 414.24" is the March column's
        // grocery spending against the monthly budget. And a short line (a row, a field, a note
        // such as "Next service due by 8 April 2026.", not a list's bare "1.") leans on its
        // document's title for what it is about ("Boiler Service Record"); a sentence of prose
        // names its own subject, and its title would only blur it with its neighbours'.
        let headings = sentences.map { s -> Set<String> in
            let words = s.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
            let short = Self.isTableRow(s) || (3...12).contains(words)
            let over = s.heading + "\n" + (s.tableHeader ?? "") + "\n" + (s.caption ?? "") + (short ? "\n" + s.title : "")
            if let h = headingCache[over] { return h }
            let h = Set(TermAnalyzer.tokens(over) + MonthSpellings.terms(in: over))
            headingCache[over] = h
            return h
        }
        var titleCache: [String: Set<String>] = [:]
        let titleWords = sentences.map { s -> Set<String> in
            guard titleNamesDocument else { return [] }
            if let t = titleCache[s.title] { return t }
            let t = Set(TermAnalyzer.tokens(s.title))
            titleCache[s.title] = t
            return t
        }
        // Rarity of each question term among these sentences: a term in every sentence says little.
        var df: [String: Int] = [:]
        // When an amount is asked for, "spend", "cost", "paid" say what kind of answer is wanted,
        // not what it is about: "how much did we spend on groceries in February?" is about
        // groceries in February, and a minute that says "spending since February" is not.
        let amountFree = question.terms.filter { !QuestionAnalysis.amountWords.contains($0) }
        let terms = question.expectation == .number && !amountFree.isEmpty ? amountFree : question.terms
        for set in tokens { for t in terms where set.contains(t) { df[t, default: 0] += 1 } }
        let n = Double(max(sentences.count, 1))
        // A code in the question ("E24", "A4", "X200") names exactly one thing: a sentence without
        // it is about something else, however many other words it shares.
        // So does a number with letters ("16th century", "1990s"), if less surely: it weighs as much.
        func idf(_ t: String) -> Double { log(1 + n / Double(1 + (df[t] ?? 0))) * (Self.mixesLettersAndDigits(t) ? 3 : 1) }
        let total = terms.reduce(0) { $0 + idf($1) }
        let questionWords = Set(TermAnalyzer.tokens(question.text))
        return sentences.indices.map { i in
            let s = sentences[i], set = tokens[i]
            let matched = Set(terms.filter { set.contains($0) })
            let underHeading = terms.filter { !set.contains($0) && headings[i].contains($0) }
            // A record's heading (a calendar event's summary, a contact's name) names what every
            // line under it is about: there it counts in full.
            let headingShare = Self.isRecordFile(s.path) ? 1.0 : 0.5
            let titled = titleWords[i]
            let overlap = total > 0 ? (matched.reduce(0) { $0 + idf($1) * (titled.contains($1) ? 0.5 : 1) }
                                       + underHeading.reduce(0) { $0 + idf($1) * headingShare }) / total : 0
            let exp = Self.expectationScore(question.expectation, sentence: s.text, questionWords: questionWords)
            let rank = passageRank[s.n] ?? 10
            let prior = 1 / Double(max(rank, 1))
            var score = weights.overlap * overlap + weights.expectation * exp + weights.passage * prior
            // A row that opens with the code asked about ("E20 | Water is not draining | ...") is
            // the code's own entry, not a passing mention in a note.
            if question.expectation != .number, !rowsAnswer, Self.isTableRow(s), !Self.leadsWithCode(s.text, matched) { score -= weights.tableRow }
            return Scored(sentence: s, overlap: overlap, cosine: nil, maxSim: nil, expectation: exp, score: score,
                          matched: headingShare == 1 ? matched.union(underHeading) : matched)
        }
    }

    /// Adds the meaning part: the pooled cosine and the MaxSim score of the question over the sentence.
    public func withMeaning(_ scored: inout [Scored], at index: Int, cosine: Double, maxSim: Double) {
        scored[index].cosine = cosine
        scored[index].maxSim = maxSim
        scored[index].score += weights.cosine * max(0, cosine) + weights.maxSim * max(0, maxSim)
    }

    /// The numbers a sentence states, as words ("4", "four", "a dozen" as "dozen"): not the digits
    /// of a code or a model name ("WD-8614", "E20"), which count nothing.
    static func counts(in sentence: String) -> [String] {
        var out: [String] = []
        for raw in Self.fields(sentence) {
            let word = raw.trimmingCharacters(in: .punctuationCharacters.union(.symbols))
            let hasDigit = word.unicodeScalars.contains { $0.properties.numericType != nil }
            let hasLetter = word.unicodeScalars.contains { $0.properties.isAlphabetic }
            // An ordinal ("3rd", "21st") counts; other letters with digits are a code.
            let lower = word.lowercased()
            if hasDigit, hasLetter, !["th", "st", "nd", "rd"].contains(where: lower.hasSuffix) { continue }
            for t in TermAnalyzer.tokens(word) where TermAnalyzer.isNumber(t) || numberWords.contains(t) { out.append(t) }
        }
        return out
    }

    /// The words of a sentence, a CSV record's fields apart: a comma with no space after it
    /// separates fields ("31/03/2025,BGC,...,2566.90") unless it groups a number's thousands
    /// ("1,402").
    static func fields(_ sentence: String) -> [Substring] {
        let chars = Array(sentence)
        var text = ""
        text.reserveCapacity(chars.count)
        for (i, c) in chars.enumerated() {
            if c == ",", i + 1 < chars.count, chars[i + 1] != " " {
                let next = chars[(i + 1)...]
                let thousands = i > 0 && chars[i - 1].isNumber && next.count >= 3 && next.prefix(3).allSatisfy(\.isNumber)
                    && (next.count == 3 || !next.dropFirst(3).first!.isNumber)
                text.append(thousands ? c : " ")
            } else {
                text.append(c)
            }
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    }

    static let numberWords: Set<String> = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                           "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand",
                                           "dozen", "both", "single", "double", "twice", "half"]

    /// A calendar or an address book: a file of records, each under its own heading.
    static func isRecordFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".ics") || lower.hasSuffix(".vcf") || lower.hasSuffix(".ical") || lower.hasSuffix(".vcard")
    }

    /// Whether a table row's first cell holds one of the codes among `matched`.
    static func leadsWithCode(_ text: String, _ matched: Set<String>) -> Bool {
        let codes = matched.filter(isCode)
        guard !codes.isEmpty else { return false }
        let first = text.split(whereSeparator: { $0 == "|" || $0 == "\t" || $0 == ";" || $0 == "," }).first.map(String.init) ?? text
        return !Set(TermAnalyzer.tokens(first)).isDisjoint(with: codes)
    }

    /// Letters and digits in one word.
    static func mixesLettersAndDigits(_ term: String) -> Bool {
        term.unicodeScalars.contains { $0.properties.numericType != nil } && term.unicodeScalars.contains { $0.properties.isAlphabetic }
    }

    /// An error code, a model or part number: letters and digits in one word that opens with a
    /// letter ("E20", "A4", "WD8614") or has letters between digits ("4b2"); a
    /// number with a suffix ("16th", "1990s", "5km") is a number, not a code.
    static func isCode(_ term: String) -> Bool {
        let scalars = Array(term.unicodeScalars)
        guard let first = scalars.first, scalars.contains(where: { $0.properties.numericType != nil }),
              scalars.contains(where: { $0.properties.isAlphabetic }) else { return false }
        if first.properties.isAlphabetic { return true }
        let digitsAfterLetters = scalars.drop { $0.properties.numericType != nil }.drop { $0.properties.isAlphabetic }
        return digitsAfterLetters.contains { $0.properties.numericType != nil }
    }

    /// A line of a delimited file, or a table row: cells between tabs or pipes, as Markdown
    /// writes them ("| Valve | £38.50 |") and as the DOCX and HTML readers lay out table cells
    /// ("Holding deposit | £265 | Paid 2 August 2023").
    static func isTableRow(_ s: EvidenceSentence) -> Bool { isTableRow(path: s.path, text: s.text) }

    static func isTableRow(path: String, text: String) -> Bool {
        if EvidenceSentences.isDelimitedFile(path) { return true }
        return text.filter { $0 == "\t" }.count >= 2 || text.filter { $0 == "|" }.count >= 2 || text.contains(" | ")
    }

    /// 1 when the sentence holds something of the expected kind that the question does not already
    /// name; 0.5 for no particular expectation; 0 when the kind is missing.
    static func expectationScore(_ e: QuestionAnalysis.Expectation, sentence: String, questionWords: Set<String>) -> Double {
        switch e {
        case .any, .reason:
            if e == .reason {
                let lower = sentence.lowercased()
                return ["because", "due to", "since", "so that", "in order to", "as a result", "caused", "led to"]
                    .contains(where: { lower.contains($0) }) ? 1 : 0.3
            }
            return 0.5
        case .number:
            return counts(in: sentence).contains { !questionWords.contains($0) } ? 1 : 0
        case .time:
            let words = TermAnalyzer.tokens(sentence)
            let hasYear = words.contains { w in
                guard w.count == 4, let v = Int(w) else { return false }
                return (1000...2100).contains(v) && !questionWords.contains(w)
            }
            if hasYear { return 1 }
            let months: Set<String> = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                       "october", "november", "december", "century", "centuri", "monday", "tuesday", "wednesday",
                                       "thursday", "friday", "saturday", "sunday", "today", "yesterday", "tomorrow", "week", "month"]
            return words.contains { months.contains($0) || months.contains(TermAnalyzer.stem($0)) } ? 0.8 : 0
        case .person, .place:
            // A capitalised word that is not the question's own and does not open the sentence.
            let parts = sentence.split(whereSeparator: { $0 == " " || $0 == "\n" })
            for (i, p) in parts.enumerated() where i > 0 {
                guard let first = p.unicodeScalars.first, first.properties.isUppercase else { continue }
                let w = TermAnalyzer.tokens(String(p)).first ?? ""
                if !w.isEmpty, !questionWords.contains(w), !TermAnalyzer.isStopword(w) { return 1 }
            }
            return 0
        }
    }
}
