import Foundation
import PBText
import PBDates

/// Puts right a misspelt command or date word before the grammar reads a request ("remidn me to
/// call the electrician tomorow"), as people type on a phone. A word is put right only when it is
/// no English word (WordNet knows none of its forms, and Debian's British spelling dictionary
/// does not list it: that one holds the function words and first names WordNet lacks), no word
/// of the store's titles, not a name
/// (capitalised after the first word; a contact's name), at least four letters long, and one edit
/// (a letter added, dropped, changed, or two swapped; only a swap for four letters) from exactly
/// one command or date word the grammar reads. Everything else is
/// left as typed: a title's own spelling is the user's.
public struct RequestSpelling: Sendable {
    /// What was put right, in order.
    public struct Correction: Equatable, Sendable {
        public var typed: String
        public var read: String
    }

    let vocabulary: Set<String>
    /// Each grammar word, and each of its one-letter deletions, to the grammar words it comes
    /// from: the candidates a typo one edit away can be, found by a few lookups.
    let neighbours: [String: [String]]
    let titleWords: Set<String>
    let dictionary: WordNet?
    let wordList: WordList?

    /// The words the grammar's rules and the date reader turn on.
    /// Not the to-do verbs ("wash", "edit", "push" are a name's or a title's one edit away too
    /// often: "text yash" is not "text wash").
    public static let grammarWords: Set<String> = {
        var words = IntentGrammar.openers
        for set in VerbLexicon.synonyms.values { words.formUnion(set) }
        words.formUnion(Weekday.allCases.map(\.name))
        words.formUnion(DateVocabulary.monthNames)
        words.formUnion([
            "today", "tomorrow", "tonight", "yesterday", "morning", "afternoon", "evening", "night", "weekend", "fortnight",
            "week", "month", "year", "next", "until", "after", "before", "every", "weekly", "monthly", "daily", "yearly",
            "remind", "reminder", "undo", "redo", "that", "this", "please", "priority", "urgent", "important", "calendar",
            "appointment", "meeting", "schedule", "reschedule", "snooze", "postpone", "delete", "cancel", "complete",
            "message", "email", "whatsapp", "tomorrow's", "today's", "o'clock", "noon", "midnight",
        ])
        return Set(words.filter { $0.count >= 3 && $0.allSatisfy { $0.isLetter || $0 == "'" } })
    }()

    public init(titles: [String] = [], dictionary: WordNet? = WordNet.shared, wordList: WordList? = nil) {
        vocabulary = Self.grammarWords
        neighbours = Self.neighbourIndex
        titleWords = Set(titles.flatMap { $0.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init) })
        self.dictionary = dictionary
        self.wordList = wordList
    }

    /// Whether b is a with two neighbouring letters swapped.
    static func swapped(_ a: [Character], _ b: [Character]) -> Bool {
        guard a.count == b.count else { return false }
        let diff = a.indices.filter { a[$0] != b[$0] }
        return diff.count == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
    }

    static let neighbourIndex: [String: [String]] = {
        var neighbours: [String: [String]] = [:]
        for w in grammarWords {
            neighbours[w, default: []].append(w)
            let chars = Array(w)
            for k in chars.indices {
                var cut = chars
                cut.remove(at: k)
                neighbours[String(cut), default: []].append(w)
            }
        }
        return neighbours
    }()

    /// The request with its misspelt grammar words put right, and what was changed.
    public func correct(_ text: String) -> (text: String, corrections: [Correction]) {
        // Without both dictionaries a real word could look like a typo: leave the text alone.
        guard let dictionary, let list = wordList ?? WordList.shared else { return (text, []) }
        let ns = text as NSString
        let words = ClausePattern.shared.regex(#"[\p{L}']+"#).matches(in: text, range: NSRange(location: 0, length: ns.length))
        var out = text
        var corrections: [Correction] = []
        for (i, m) in words.enumerated().reversed() {
            let typed = ns.substring(with: m.range)
            let lower = typed.lowercased()
            guard lower.count >= 4, !vocabulary.contains(lower), !titleWords.contains(lower),
                  i == 0 || typed.first?.isUppercase != true else { continue }
            // Near a grammar word first (most words are near none), then the dictionaries. Two
            // words one edit apart share the word itself or one of its one-letter deletions.
            let chars = Array(lower)
            var candidates = Set(neighbours[lower] ?? [])
            for k in chars.indices {
                var cut = chars
                cut.remove(at: k)
                candidates.formUnion(neighbours[String(cut)] ?? [])
            }
            let near = candidates.filter { EditDistance.optimalAlignment(Array($0), chars, limit: 1) <= 1 }
            guard near.count == 1, let read = near.first, !dictionary.knows(lower), !list.contains(lower) else { continue }
            // A four-letter word is put right only for two letters swapped ("taht"): one letter
            // changed, added or dropped makes too many real short words ("util", "rego", "tomo").
            if chars.count == 4, !(read.count == 4 && Self.swapped(chars, Array(read))) { continue }
            let fixed = typed.first?.isUppercase == true ? read.prefix(1).uppercased() + read.dropFirst() : read
            out = (out as NSString).replacingCharacters(in: m.range, with: fixed)
            corrections.insert(Correction(typed: typed, read: fixed), at: 0)
        }
        return (out, corrections)
    }
}
