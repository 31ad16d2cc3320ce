import PBText
import Foundation
import PBRetrieval

/// Whether a question's word is in a text, forgiving the ways a source writes the same name:
/// accents ("Temur" for "Temür"), related forms ("Africa" in "African", "Palestine" in
/// "Palestinian", "occupying" in "occupation"), irregular forms ("pay" in "paid", WordNet's
/// exception lists), places and their people ("Switzerland" in "Swiss"),
/// initials ("GM" for "General Motors"), a long name misspelt by one letter ("Moncalm" for
/// "Montcalm"), and months written as dates ("January" in "2024-01-15" or "15 Jan").
public struct TermMatcher: Sendable {
    /// The text's stemmed words, accents folded.
    public let words: Set<String>
    /// Initials of runs of capitalised words ("General Motors" gives "gm").
    public let initials: Set<String>

    public init(_ text: String) {
        let folded = Self.fold(text)
        // An irregular form holds its lemma too: "paid" answers "when did we pay?".
        let lemmas = WordNet.shared.map { wordnet in LexicalQuery.terms(folded).compactMap(wordnet.lemma(ofIrregular:)).map(TermAnalyzer.stem) } ?? []
        words = Set(TermAnalyzer.tokens(folded) + MonthSpellings.terms(in: folded) + lemmas)
        var runs: Set<String> = []
        var run = ""
        for raw in folded.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            if let head = raw.first, head.isUppercase {
                run.append(Character(head.lowercased()))
                for k in 2...5 where run.count >= k { runs.insert(String(run.suffix(k))) }
            } else if !["of", "and", "the", "for"].contains(raw.lowercased()) {
                run = ""
            }
        }
        initials = runs
    }

    /// Lowercase-insensitive text with diacritics removed.
    public static func fold(_ s: String) -> String { s.folding(options: [.diacriticInsensitive], locale: nil) }

    /// Whether `term` (stemmed, folded) is in the text: the same word; or two words that share
    /// their start up to at most one letter before the shorter one ends, and at least four
    /// letters ("tesla" is not "test"); or a short abbreviation that matches the initials of
    /// capitalised words; or another name of the same place; or, for words of six letters or more,
    /// one letter added, dropped, changed or two swapped, keeping the first.
    public func contains(_ term: String) -> Bool {
        if words.contains(term) { return true }
        if TermAnalyzer.isNumber(term) { return false }
        if term.count >= 2, term.count <= 5, initials.contains(term) { return true }
        for v in Demonyms.variants(of: term) where v.split(separator: " ").allSatisfy({ words.contains(String($0)) }) {
            return true
        }
        guard term.count >= 4 else { return false }
        for w in words where w.count >= 4 && w.first == term.first {
            if Self.commonPrefix(w, term) >= max(4, min(w.count, term.count) - 1) { return true }
            if term.count >= 6, abs(w.count - term.count) <= 1, Self.oneEditApart(Array(w.unicodeScalars), Array(term.unicodeScalars)) {
                return true
            }
        }
        return false
    }

    /// Whether two words differ by one inserted, deleted or changed letter, or two neighbours swapped.
    static func oneEditApart(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if a == b { return true }
        var i = 0
        while i < min(a.count, b.count), a[i] == b[i] { i += 1 }
        if a.count == b.count {
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        return long[(i + 1)...] == short[i...]
    }

    static func commonPrefix(_ a: String, _ b: String) -> Int {
        var n = 0
        for (x, y) in zip(a.unicodeScalars, b.unicodeScalars) {
            guard x == y else { break }
            n += 1
        }
        return n
    }

    /// Whether a text denies something, read broadly: "not", "never", "n't", and words that
    /// carry a negation ("unable", "refused", "non-Catholics", "without", "prohibited").
    public static func deniesSomething(_ text: String) -> Bool {
        if ContradictionSweepGate.isNegated(text) { return true }
        for w in TermAnalyzer.tokens(text.lowercased()) {
            if ["non", "none", "nobody", "nothing", "without", "unable", "except", "lack", "neither"].contains(w) { return true }
            for stem in ["refus", "prohibit", "forbid", "forbad", "ban", "exclud", "fail", "deni", "deny", "reject"] where w.hasPrefix(stem) {
                if stem != "ban" || w == "ban" || w == "bann" || w == "banned" { return true }
            }
        }
        return false
    }
}
