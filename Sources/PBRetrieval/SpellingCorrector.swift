import Foundation
import PBCore
import PBSQLite
import PBText

/// Corrects a question's misspelt words against the library's own vocabulary, before searching:
/// "when is the bolier service due?" searches for "boiler", because the library says "boiler".
///
/// A word is corrected only when the library has no chunk with it at all, WordNet does not know it
/// as English (in any inflection), it is a plain word (letters only, four or more of them, not a
/// stopword) and not a name (capitalised inside the
/// question: "Australia" is not corrected to "Austria"). The candidates are the index's terms
/// (FTS5's vocabulary, as its Porter tokenizer stored them) sharing the word's first letter,
/// within an edit distance of one (two for words of eight letters or more), adjacent swaps
/// counting one; a stored stem ("insur") is compared with the word's beginning. The nearest wins,
/// then the one in most chunks; it must stand in a chunk beside another word of the question. The
/// word put back is the library's own spelling of that term, read from a chunk that holds it.
public final class SpellingCorrector {
    let db: Database
    private var vocabularyReady = false
    private var byLetter: [Character: [(term: String, docs: Int)]] = [:]

    /// English words are never corrected; without the dictionary (WordNet not installed) only
    /// the library's own vocabulary guides the correction.
    let dictionary: WordNet?

    public init(db: Database, dictionary: WordNet? = WordNet.shared) {
        self.db = db
        self.dictionary = dictionary
    }

    /// The question with its corrected words, and what was corrected (empty when nothing was).
    public func correct(_ question: String) throws -> (text: String, corrections: [QuestionReading.Correction]) {
        var corrections: [QuestionReading.Correction] = []
        var text = question
        // Every unknown word's plausible corrections first: two misspelt words of one question
        // ("dentst apointment") vouch for each other's corrections, where neither as typed is
        // in the library.
        var candidates: [(word: String, lower: String, options: [(String, Int)])] = []
        for (word, kept) in Self.words(question) where !kept {
            let lower = word.lowercased()
            guard lower.count >= 4, lower.allSatisfy({ $0.isLetter && $0.isASCII }), !Stopwords.english.contains(lower),
                  !candidates.contains(where: { $0.lower == lower }), try !isKnown(lower) else { continue }
            // An English word is what the person meant, even when the library lacks it
            // ("summarise", "icing"): only a word no dictionary knows is a typing error.
            if let dictionary, dictionary.knows(lower) { continue }
            // A word without a vowel is an abbreviation ("crct", "dlns"), not a misspelling.
            guard lower.contains(where: { "aeiouy".contains($0) }) else { continue }
            // The nearest stored terms first; the word put back must itself be near what was
            // typed ("summarise" is near the stem "summer" but not the word "summer").
            var options: [(String, Int)] = []
            for term in try nearestTerms(lower).prefix(4) {
                guard let surface = try spelling(of: term, near: lower) else { continue }
                let d = Self.distance(Array(surface), Array(lower))
                if surface != lower, d <= Self.limit(lower), Self.plausible(lower, surface, distance: d),
                   !options.contains(where: { $0.0 == surface }) {
                    options.append((surface, d))
                }
            }
            if !options.isEmpty {
                candidates.append((word, lower, options))
            } else if let english = dictionary.flatMap({ Self.englishWord(for: lower, in: $0) }) {
                // Nothing in the library is near, but an English word is ("apointment"): the
                // question is read with it, so that its meaning reaches the encoder and the
                // reranker, though no chunk holds it.
                corrections.append(.init(from: lower, to: english.word, distance: english.distance))
                text = Self.replacingWord(word, with: english.word, in: text)
            }
        }
        // Words the library lacks vouch for nothing: with none left, the nearest word is taken.
        var known: [String] = []
        if !candidates.isEmpty {
            for t in LexicalQuery.terms(question) where !Stopwords.english.contains(t) {
                if try isKnown(t) { known.append(t) }
            }
        }
        for c in candidates {
            let offered = candidates.filter { $0.lower != c.lower }.flatMap { $0.options.map(\.0) }
            guard let (surface, distance) = try c.options.first(where: { try cooccurs($0.0, with: known + offered) }) else { continue }
            corrections.append(.init(from: c.lower, to: surface, distance: distance))
            text = Self.replacingWord(c.word, with: surface, in: text)
        }
        return (text, corrections)
    }

    /// The English word a word no dictionary knows was meant as: the nearest (by the same edit
    /// limit and plausibility as the library's terms), when no other word is as near or it is
    /// the more used of them in WordNet's tagged corpus ("appointment", not "anointment"); nil
    /// when the choice would be a guess.
    static func englishWord(for word: String, in dictionary: WordNet) -> (word: String, distance: Int)? {
        let near = dictionary.nearestWords(to: word, within: limit(word)).filter { plausible(word, $0.word, distance: $0.distance) }
        guard let best = near.first else { return nil }
        if near.count > 1, near[1].distance == best.distance, near[1].tagged >= best.tagged { return nil }
        return (best.word, best.distance)
    }

    /// The question's words in order, each with whether it is left as typed: a name (capitalised
    /// and not the first word) or part of a contraction ("didn" of "didn't": corrected to "did",
    /// the question would lose its negation).
    static func words(_ text: String) -> [(String, Bool)] {
        var out: [(String, Bool)] = []
        var word = ""
        var sentenceStart = true
        var afterApostrophe = false
        var afterParenthesis = false
        func flush(before next: Character?) {
            guard !word.isEmpty else { return }
            let apostrophe = next == "'" || next == "’" || afterApostrophe
            // "RUNX", "hDLE": capitals inside a word make it a name or an abbreviation.
            let inner = word.dropFirst().contains { $0.isUppercase }
            // "(polm)": a word alone in brackets is an abbreviation being introduced.
            let bracketed = afterParenthesis && next == ")"
            out.append((word, (!sentenceStart && word.first!.isUppercase) || apostrophe || inner || bracketed))
            sentenceStart = false
            word = ""
        }
        for ch in text {
            if ch.isLetter || ch.isNumber {
                if word.isEmpty { afterParenthesis = out.isEmpty ? false : afterParenthesis }
                word.append(ch)
            } else {
                flush(before: ch)
                afterApostrophe = ch == "'" || ch == "’"
                afterParenthesis = ch == "("
                if ".!?\n".contains(ch) { sentenceStart = true }
            }
        }
        flush(before: nil)
        return out
    }

    /// Whether a chunk holds `word` together with one of the question's other words: the library
    /// uses the word where the question's subject is ("bolier service" is "boiler" beside
    /// "service"), so a near word from another subject ("nexin" as "nexis") is not taken.
    func cooccurs(_ word: String, with others: [String]) throws -> Bool {
        guard !others.isEmpty else { return true }
        let any = others.prefix(12).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        return try db.scalarInt("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1", [.text("\"\(word)\" AND (\(any))")]) != nil
    }

    /// Whether any chunk holds the word (FTS5 stems it as it stemmed the documents).
    func isKnown(_ word: String) throws -> Bool {
        try db.scalarInt("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1", [.text("\"\(word)\"")]) != nil
    }

    func loadVocabulary() throws {
        guard !vocabularyReady else { return }
        vocabularyReady = true
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.pb_vocabulary USING fts5vocab(main, 'chunks_fts', 'row')")
        let s = try db.prepare("SELECT term, doc FROM temp.pb_vocabulary")
        while try s.step() {
            let term = s.text(0)
            guard term.count >= 3, let first = term.first, first.isLetter, term.allSatisfy({ $0.isLetter }) else { continue }
            byLetter[first, default: []].append((term, Int(s.int(1))))
        }
    }

    /// The edit distance a word may be corrected by: one, two from eight letters on.
    static func limit(_ word: String) -> Int { word.count >= 8 ? 2 : 1 }

    /// Stored terms near enough to the word, nearest first, then by the chunks holding them.
    func nearestTerms(_ word: String) throws -> [String] {
        try loadVocabulary()
        guard let first = word.first, let candidates = byLetter[first] else { return [] }
        let limit = Self.limit(word)
        let w = Array(word)
        var near: [(term: String, distance: Int, docs: Int)] = []
        for (term, docs) in candidates {
            let t = Array(term)
            guard abs(t.count - w.count) <= limit + 4 else { continue }
            var d = Self.distance(w, t)
            // A stem ("insur", "receiv") against the word's beginning ("insurence", "recieve").
            if d > limit, t.count >= 4, t.count < w.count, w.count - t.count <= 4 {
                d = min(d, Self.distance(Array(w.prefix(t.count)), t))
            }
            guard d >= 1, d <= limit else { continue }
            near.append((term, d, docs))
        }
        return near.sorted { ($0.distance, -$0.docs, $0.term) < ($1.distance, -$1.docs, $1.term) }.map(\.term)
    }

    /// Whether `word` may be a slip for `library`. A short word (five letters or fewer) keeps its
    /// length: "runx" and "polm" are names ("RUNX", "Pol μ"), not "run" and "pol" mistyped. Two
    /// edits need the first three letters in common and lengths within one ("depresents" is not
    /// "decrements", nor "persistor" "persist").
    static func plausible(_ word: String, _ library: String, distance: Int) -> Bool {
        if word.count <= 5, library.count != word.count { return false }
        if distance >= 2 { return abs(word.count - library.count) <= 1 && zip(word, library).prefix(3).allSatisfy { $0 == $1 } }
        return true
    }

    /// The library's spelling of a stored term: of the words of a chunk holding it that begin
    /// with it, the one nearest the typed word; nil when no chunk writes such a word.
    func spelling(of term: String, near typed: String) throws -> String? {
        let s = try db.prepare("SELECT text FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 3")
        try s.bind([.text("text : \"\(term)\"")])
        var best: (String, Int)?
        while try s.step() {
            for w in LexicalQuery.terms(s.text(0)) where w.hasPrefix(term) && w.allSatisfy(\.isLetter) {
                let d = Self.distance(Array(w), Array(typed))
                if best.map({ d < $0.1 || (d == $0.1 && w < $0.0) }) ?? true { best = (w, d) }
            }
        }
        return best?.0
    }

    /// The edit distance between two words (EditDistance.optimalAlignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int { EditDistance.optimalAlignment(a, b) }

    /// `text` with every whole-word occurrence of `word` replaced.
    static func replacingWord(_ word: String, with replacement: String, in text: String) -> String {
        var out = ""
        var current = ""
        func flush() {
            out += current == word ? replacement : current
            current = ""
        }
        for ch in text {
            if ch.isLetter || ch.isNumber { current.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }
}
