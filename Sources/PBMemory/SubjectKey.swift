import Foundation
import PBCore
import PBText

/// What tells the things an item is about from others of their kind: a noun's number ("Flat 3",
/// "locker 27") and whose it is ("Sam's car", "my car"). Two items that name one noun marked
/// differently ("Flat 3 rent is 900 euros", "Flat 4 rent is 1100 euros") are about two things,
/// and neither is ever the later state of the other, however alike they read. A noun marked in
/// one item and not in the other ("the flat rent is now 950") may be either, and does not part them.
public struct SubjectKey: Equatable, Sendable {
    /// Each marked noun (stemmed) with its marks: `#3` for a number, `@sam` for an owner (`@me`
    /// for "my" and "our").
    public private(set) var marks: [String: Set<String>] = [:]

    public init(marks: [String: Set<String>] = [:]) { self.marks = marks }

    /// The key of one sentence, said by `speaker`: their "my" is theirs ("my mom", said by
    /// Caroline, is Caroline's mom); with no speaker, or "me", it is the person asking.
    public init(_ sentence: String, speaker: String? = nil) {
        self.init(sentence)
        guard let speaker, !speaker.isEmpty, speaker.lowercased() != "me",
              let name = TermAnalyzer.tokens(speaker).first else { return }
        marks = marks.mapValues { Set($0.map { $0 == "@me" ? "@" + name : $0 }) }
    }

    /// The key of one sentence.
    public init(_ sentence: String) {
        let tokens = sentence.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        for (i, raw) in tokens.enumerated() {
            // Most words are neither an owner nor numbered: only "my", "our", a word with an
            // apostrophe, or one before a number is looked at further.
            let numbered = tokens.indices.contains(i + 1) && tokens[i + 1].first?.isNumber == true
            guard numbered || raw.contains("'") || raw.contains("\u{2019}") || ["my", "My", "our", "Our", "mine", "ours"].contains(raw) else { continue }
            let word = Self.bare(raw)
            guard !word.isEmpty else { continue }
            let lower = word.lowercased()
            if let owner = Self.owner(raw: raw, lower: lower, next: tokens.indices.contains(i + 1) ? tokens[i + 1] : nil) {
                for noun in Self.nouns(after: i, in: tokens) { marks[noun, default: []].insert("@" + owner) }
            }
            if let number = Self.number(at: i, in: tokens) { marks[TermAnalyzer.stem(lower), default: []].insert("#" + number) }
        }
    }

    /// Whether the two keys part their items: a noun both mark, with marks of one sort (number or
    /// owner) that share nothing.
    public func differs(from other: SubjectKey) -> Bool {
        for (noun, mine) in marks {
            guard let theirs = other.marks[noun] else { continue }
            for sort in ["#", "@"] {
                let a = mine.filter { $0.hasPrefix(sort) }, b = theirs.filter { $0.hasPrefix(sort) }
                if !a.isEmpty, !b.isEmpty, a.isDisjoint(with: b) { return true }
            }
        }
        return false
    }

    /// The marks as the memory record shows them: noun to its sorted marks.
    public var shown: [String: [String]] { marks.mapValues { $0.sorted() } }

    /// A token without the punctuation around it or a possessive's ending.
    static func bare(_ raw: String) -> String {
        var t = raw.trimmingCharacters(in: edges)
        for suffix in ["'s", "\u{2019}s"] where t.hasSuffix(suffix) { t.removeLast(2) }
        return t
    }

    /// The owner a token names for the nouns after it: "my" and "our" (the person speaking), or a
    /// word with a possessive ending ("Sam's", "the gym's"), not a contraction ("it's", "Sam's
    /// coming" is "Sam is coming").
    static func owner(raw: String, lower: String, next: String?) -> String? {
        if ["my", "our", "mine", "ours"].contains(lower) { return "me" }
        let trimmed = raw.trimmingCharacters(in: stops)
        // A name's ("Sam's car"), not a relation's ("my daughter's school" may be Mia's school).
        guard trimmed.hasSuffix("'s") || trimmed.hasSuffix("\u{2019}s"), raw.first?.isUppercase == true, !contractions.contains(lower),
              !calendarWords.contains(lower), let next else { return nil }
        let following = bare(next).lowercased()
        guard !following.isEmpty, !TermAnalyzer.isStopword(following), !following.hasSuffix("ing") || nounsInIng.contains(following)
        else { return nil }
        return lower
    }

    /// Up to three content words after `i`, up to the first stopword or punctuation: the nouns
    /// an owner marks ("Sam's car insurance").
    static func nouns(after i: Int, in tokens: [String]) -> [String] {
        var out: [String] = []
        var j = i + 1
        while j < tokens.count, out.count < 3 {
            let raw = tokens[j]
            let word = bare(raw).lowercased()
            guard !word.isEmpty, !TermAnalyzer.isStopword(word), !TermAnalyzer.isNumber(word), word.allSatisfy(\.isLetter) else { break }
            // A verb's past or participle ends the noun phrase: "Sam's car MOT moved".
            if word.count > 4, word.hasSuffix("ed") || word.hasSuffix("ing") && !nounsInIng.contains(word) { break }
            out.append(TermAnalyzer.stem(word))
            // "my daughter's school": the school is the daughter's, not mine.
            if raw.last.map({ $0.isPunctuation }) ?? false || raw.hasSuffix("'s") || raw.hasSuffix("\u{2019}s") { break }
            j += 1
        }
        return out
    }

    /// The number that tells the noun at `i` from others of its kind ("Flat 3", "in locker 27",
    /// "room 12b"): one to three digits (and a letter) straight after it, not a value with a
    /// unit or a currency ("pay 40 euros"), after a noun written with a capital or after a
    /// determiner or preposition (so not "pay 40" or "sleeps 6").
    static func number(at i: Int, in tokens: [String]) -> String? {
        guard tokens.indices.contains(i + 1) else { return nil }
        let raw = tokens[i]
        let noun = bare(raw)
        guard noun.count > 1, noun.allSatisfy(\.isLetter), !(raw.last.map { $0.isPunctuation } ?? false) else { return nil }
        let lower = noun.lowercased()
        guard !TermAnalyzer.isStopword(lower), !valueNouns.contains(lower), !calendarWords.contains(lower) else { return nil }
        let numberRaw = tokens[i + 1]
        let number = numberRaw.trimmingCharacters(in: stops).lowercased()
        let digits = number.prefix(while: \.isNumber)
        guard (1...3).contains(digits.count), number.count - digits.count <= 1, number.dropFirst(digits.count).allSatisfy(\.isLetter) else { return nil }
        // "3rd", "10th", "2pm": a day or a time, not which one.
        if ["st", "nd", "rd", "th", "am", "pm"].contains(String(number.dropFirst(digits.count))) || number.count - digits.count == 2 { return nil }
        if tokens.indices.contains(i + 2), !(numberRaw.last.map { $0.isPunctuation } ?? false) {
            let after = bare(tokens[i + 2]).lowercased()
            if Measure.of(quantity: "1 " + after) != nil || currencies.contains(after) || after == "%" || after == "per" || after == "percent"
                || calendarWords.contains(after) || ["am", "pm"].contains(after) {
                return nil
            }
        }
        let capitalised = noun.first!.isUppercase
        let before = i > 0 ? bare(tokens[i - 1]).lowercased() : ""
        let introduced = ["the", "a", "in", "at", "for", "of", "from", "into", "my", "our", "his", "her", "their", "number", "no"].contains(before)
            || tokens.indices.contains(i - 1) && (tokens[i - 1].hasSuffix("'s") || tokens[i - 1].hasSuffix("\u{2019}s"))
        return capitalised || introduced ? number : nil
    }

    /// Built once: a CharacterSet union costs more than the rest of a sentence's key.
    static let edges = CharacterSet.punctuationCharacters.union(.symbols)
    static let stops = CharacterSet(charactersIn: ".,;:!?\"()[]")

    /// Nouns whose number is a value, not which one: "code 4417", "size 9", "age 7".
    static let valueNouns: Set<String> = [
        "code", "pin", "number", "price", "cost", "rent", "fee", "size", "age", "score", "total", "balance", "pressure",
        "temperature", "level", "grade", "mark", "marks", "rate", "speed", "weight", "height", "version", "page", "pages",
        "step", "steps", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
        "is", "was", "be", "costs", "paid", "pay", "owe", "owes", "sleeps", "seats", "holds", "takes", "about", "around", "only",
    ]

    /// "Thursday 12 March" is a date, and "today's lesson" anyone's: days, months and times
    /// name no thing of their own.
    static let calendarWords: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "tues", "wed", "thu", "thur",
        "thurs", "fri", "sat", "sun", "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "today", "tonight", "tomorrow", "yesterday", "week", "weekend", "month", "year", "morning", "evening", "afternoon", "night",
    ]

    static let currencies: Set<String> = ["euro", "euros", "eur", "pound", "pounds", "quid", "gbp", "dollar", "dollars", "usd", "pence", "p", "cents"]

    /// "It's", "that's": the ending is "is", not whose.
    static let contractions: Set<String> = [
        "it", "that", "he", "she", "there", "here", "what", "who", "where", "let", "how", "when", "why", "this", "everyone", "nobody",
    ]

    /// Nouns ending in -ing that an owner may come before ("Mia's swimming", "Sam's wedding").
    static let nounsInIng: Set<String> = ["swimming", "wedding", "building", "booking", "meeting", "training", "parking", "painting", "reading"]
}
