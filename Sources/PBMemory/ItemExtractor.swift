import Foundation
import PBCore
import PBRetrieval
import PBText
import PBDates

/// One item found in a message, before it is stored: a sentence with its type, subject words,
/// entities and the time it refers to.
public struct ExtractedItem: Equatable, Sendable {
    public var text: String
    /// Bytes of the message text.
    public var range: Range<Int>
    public var type: MemoryItemType
    public var subject: [String]
    public var entities: [String]
    /// Values that can change, each with its kind: `n:` a number or code, `t:` a time phrase,
    /// `e:` a name. A supersession compares values of one kind ("4417" against "5190").
    public var slots: [String]
    /// A word that says the item updates something said before: strong ("moved", "changed",
    /// "instead") on its own, weak ("now", "new", "actually") only with a changed value.
    public var changeCue: String?
    public var strongCue: Bool
    public var time: ReferredSpan?
    /// What tells the things it names from others of their kind (Flat 3, Sam's car).
    public var key = SubjectKey()
}

/// A referred time: the phrase, and the days it covers as instants [start, end).
public struct ReferredSpan: Equatable, Sendable {
    public var phrase: String
    public var start: Date
    public var end: Date
}

/// Deterministic extraction (pb-remember without an endpoint): sentences by ICU, typed by their
/// form and cue words, with subject words, entities and the time each refers to, read by
/// pb-date's reader against the time the message was said.
public final class ItemExtractor {
    private let segmenter: SentenceSegmenter

    public init() throws {
        segmenter = try SentenceSegmenter()
    }

    /// The items of a message said at `said` in `zone`. Every message gives at least one item: a
    /// message of greetings only is kept whole, as a fact, so nothing said is unreachable.
    public func items(of text: String, said: Date, zone: TimeZone) -> [ExtractedItem] {
        let bytes = Array(text.utf8)
        let dates = NaturalDateParser(now: said, timeZone: zone)
        var out: [ExtractedItem] = []
        for r in segmenter.sentences(in: bytes, range: 0..<bytes.count) {
            let sentence = String(decoding: bytes[r], as: UTF8.self)
            let item = Self.item(sentence, range: r, said: said, zone: zone, dates: dates)
            if Self.holdsSomething(item) { out.append(item) }
        }
        if out.isEmpty {
            let r = SentenceSegmenter.trim(bytes, 0..<bytes.count)
            out.append(Self.item(String(decoding: bytes[r], as: UTF8.self), range: r, said: said, zone: zone, dates: dates))
        }
        return out
    }

    /// The message's sentences, as byte ranges (ICU), trimmed.
    public func sentenceRanges(of text: String) -> [Range<Int>] {
        let bytes = Array(text.utf8)
        return segmenter.sentences(in: bytes, range: 0..<bytes.count)
    }

    /// The item of `range` of a message, with the type another reader (an endpoint) gave it;
    /// subject, entities, values and time are read here, as for every item.
    public func item(of text: String, range: Range<Int>, type: MemoryItemType, said: Date, zone: TimeZone) -> ExtractedItem {
        let bytes = Array(text.utf8)
        var item = Self.item(String(decoding: bytes[range], as: UTF8.self), range: range, said: said, zone: zone,
                             dates: NaturalDateParser(now: said, timeZone: zone))
        item.type = type
        return item
    }

    /// Whether the deterministic reader keeps an item as one of a message's own (not the whole
    /// message kept for want of any).
    public static func holdsSomething(_ item: ExtractedItem) -> Bool {
        item.subject.count >= 2 || !item.slots.isEmpty || item.type == .question
    }

    static func item(_ sentence: String, range: Range<Int>, said: Date, zone: TimeZone, dates: NaturalDateParser) -> ExtractedItem {
        let words = LexicalQuery.terms(sentence)
        let time = referredTime(sentence, words: words, said: said, zone: zone, dates: dates)
        let timeWords = Set(time.map { LexicalQuery.terms($0.phrase) } ?? [])
        let subject = TermAnalyzer.contentTerms(sentence).filter {
            $0.count > 1 && !timeWords.contains($0) && !TermAnalyzer.isNumber($0) && !Self.vagueWords.contains($0)
        }
        let entities = Self.entities(sentence)
        var slots = entities.map { ($0.contains(where: \.isNumber) ? "n:" : "e:") + $0.lowercased() }
        if let time { slots.append("t:" + time.phrase.lowercased()) }
        let (cue, strong) = changeCue(words: words)
        return ExtractedItem(text: sentence, range: range, type: type(of: sentence, words: words, time: time),
                             subject: subject, entities: entities, slots: slots, changeCue: cue, strongCue: strong, time: time,
                             key: SubjectKey(sentence))
    }

    /// The word of `text` that says it updates something said before, and whether it is strong.
    static func changeCue(of text: String) -> (String?, Bool) { changeCue(words: LexicalQuery.terms(text)) }

    static func changeCue(words: [String]) -> (String?, Bool) {
        let strong = words.first { strongCues.contains($0) }
        return (strong ?? words.first { weakCues.contains($0) }, strong != nil)
    }

    /// A phrase of the message's sentences that says a plan changed without a cue word: "after
    /// all", "can't do", "can only do", "no longer".
    static func changePhrase(in sentences: [String]) -> String? {
        for s in sentences {
            let text = " " + LexicalQuery.terms(s).joined(separator: " ") + " "
            if let p = changePhrases.first(where: { text.contains(" \($0) ") }) { return p }
        }
        return nil
    }

    static let changePhrases = ["after all", "can t do", "can only do", "cannot do", "no longer", "not any more", "back to"]

    /// The values a sentence says are wrong: "it's €70 each, not €75" gives "€75".
    static func negatedValues(_ sentence: String) -> Set<String> {
        // Trimmed as entities() trims a value, so "€75." is the "75" an item's values hold.
        let tokens = sentence.split(whereSeparator: { $0.isWhitespace }).map {
            $0.trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.symbols)).lowercased()
        }
        var out: Set<String> = []
        for (i, t) in tokens.enumerated() where t == "not" && i + 1 < tokens.count && tokens[i + 1].contains(where: \.isNumber) {
            out.insert(tokens[i + 1])
        }
        return out
    }

    /// The item's type from its form and cue words, in order of how telling the cue is.
    static func type(of sentence: String, words: [String], time: ReferredSpan?) -> MemoryItemType {
        let trimmed = sentence.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasSuffix("?") { return .question }
        let text = " " + words.joined(separator: " ") + " "
        func has(_ cues: [String]) -> Bool { cues.contains { text.contains(" \($0) ") } }
        if has(["decided", "decide", "we ll go with", "going with", "settled on", "chose", "chosen", "picked", "opted", "agreed", "booked", "signed"]) {
            return .decision
        }
        if has(["prefer", "prefers", "like", "likes", "love", "loves", "hate", "hates", "favourite", "favorite", "rather", "enjoy", "enjoys", "can t stand"]) {
            return .preference
        }
        if has(["need to", "have to", "must", "should", "remind me", "todo", "to do", "don t forget", "remember to", "got to", "gotta", "i ll", "i will", "let s", "plan to", "going to"]) {
            return .action
        }
        if time != nil { return .event }
        return .fact
    }

    /// Names (capitalised words not at the start of the sentence), numbers and codes.
    static func entities(_ sentence: String) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        let tokens = sentence.split(whereSeparator: { $0.isWhitespace })
        for (i, raw) in tokens.enumerated() {
            var token = raw.trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.symbols))
            for suffix in ["'s", "\u{2019}s"] where token.hasSuffix(suffix) { token.removeLast(2) }
            // "I'm", "I've", "I'd": a pronoun, not a name.
            guard !token.isEmpty, !(token.hasPrefix("I'") || token.hasPrefix("I\u{2019}")) else { continue }
            let isCode = token.contains(where: \.isNumber)
            let isName = i > 0 && token.first!.isUppercase && token != "I" && !Self.capitalisedCommon.contains(token.lowercased())
            if isCode || isName, seen.insert(token.lowercased()).inserted { out.append(token) }
        }
        return out
    }

    /// pb-date's reading of the first date phrase, with the past read as the past: "on Monday"
    /// in "I went to the gym on Monday" is the Monday before the message, not the one after.
    static func referredTime(_ sentence: String, words: [String], said: Date, zone: TimeZone, dates: NaturalDateParser) -> ReferredSpan? {
        // "now" and "today" say when, not what about: "it's 5190 now" refers to no other time.
        // "Tuesdays 5:30pm", "Saturday mornings 9:15": what happens every week names no one day;
        // a date after it still does ("... next one is Friday 16 Jan 7pm").
        let bytes = Array(sentence.utf8)
        guard let m = dates.matches(in: sentence).first(where: {
            $0.value != nil && $0.recurrence == nil && !Self.nowPhrases.contains($0.phrase.lowercased())
                && !Self.recurs($0.phrase, after: String(decoding: bytes[min($0.end, bytes.count)...], as: UTF8.self))
        }), var start = m.value else { return nil }
        // "within ten days of the end of the tenancy", "two weeks after the wedding": a time
        // counted from an event, not from when it was said; the item names no time of its own.
        let after = String(decoding: Array(sentence.utf8)[min(m.end, sentence.utf8.count)...], as: UTF8.self)
        if let next = LexicalQuery.terms(after).first, ["of", "after", "before", "from"].contains(next),
           LexicalQuery.terms(m.phrase).contains(where: { ["day", "days", "week", "weeks", "month", "months", "year", "years"].contains($0) }) {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // valueEnd is already exclusive (the day after a span's last day: DateValueFormat.end).
        // A clock time refers to its day: "Fri 12 Feb 2pm" ends at midnight, not at 2pm the next day.
        var end = m.valueEnd
            ?? calendar.date(byAdding: m.grain == .year ? .year : m.grain == .month ? .month : .day,
                             value: m.grain == .week ? 7 : 1, to: m.grain == .hour || m.grain == .minute ? calendar.startOfDay(for: start) : start)!
        // "moved to Wednesday", "pushed until Friday": the new time of a change lies ahead.
        let before = String(decoding: Array(sentence.utf8)[..<m.start], as: UTF8.self)
        let lead = LexicalQuery.terms(before).last ?? ""
        if isPast(words), start > said, !["to", "until", "till", "for", "next", "from", "within", "by"].contains(lead) {
            // The reader looks forward (it plans tasks); a past-tense sentence means the one before.
            // A month or year named ("in March") is last year's; a day or weekday, last week's.
            let back = m.grain == .year || m.grain == .month ? DateComponents(year: -1) : DateComponents(day: -7)
            start = calendar.date(byAdding: back, to: start)!
            end = calendar.date(byAdding: back, to: end)!
        }
        return ReferredSpan(phrase: m.phrase, start: start, end: end)
    }

    /// Whether the sentence speaks of the past: a past-tense auxiliary or verb, or "ago".
    /// A participle after "is", "will be" or "gets" is the passive of now or later ("the deposit
    /// is returned within ten days"), not the past.
    /// Whether a date phrase names a weekly pattern: a weekday in the plural ("Tuesdays") or
    /// with a part of the day in the plural after it ("Saturday mornings").
    static func recurs(_ phrase: String, after: String) -> Bool {
        let words = LexicalQuery.terms(phrase) + LexicalQuery.terms(after).prefix(1)
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return words.contains { w in days.contains { w == $0 + "s" } }
            || zip(words, words.dropFirst()).contains { days.contains($0.0) && ["mornings", "afternoons", "evenings", "nights"].contains($0.1) }
            || words.contains { ["every", "each", "weekly", "weekdays", "weekends"].contains($0) }
    }

    static func isPast(_ words: [String]) -> Bool {
        words.indices.contains { i in
            let w = words[i]
            if Self.pastWords.contains(w) { return true }
            guard w.count > 4, w.hasSuffix("ed"), !Self.notPast.contains(w) else { return false }
            return i == 0 || !Self.presentAuxiliaries.contains(words[i - 1])
        }
    }

    static let presentAuxiliaries: Set<String> = ["is", "are", "am", "be", "gets", "get", "being"]

    static let nowPhrases: Set<String> = ["now", "right now", "today", "tonight", "this morning", "this evening", "this afternoon"]

    static let pastWords: Set<String> = [
        "was", "were", "did", "had", "went", "came", "got", "saw", "met", "made", "took", "gave", "ran", "ate", "left",
        "found", "told", "said", "bought", "brought", "thought", "felt", "ago", "last", "yesterday", "spent", "won", "lost",
        "wrote", "read", "heard", "began", "drove", "flew", "sang", "swam", "became", "kept", "sent", "paid",
    ]
    static let notPast: Set<String> = ["need", "needed", "indeed", "speed", "seed", "feed", "bed", "red", "shed", "wed", "embed", "bleed"]

    static let strongCues: Set<String> = [
        "moved", "changed", "rescheduled", "postponed", "instead", "updated", "switched", "longer", "cancelled",
        "canceled", "replaced", "pushed", "delayed", "anymore", "reset", "swapped",
        "bumped", "slips", "slipped", "withdrawn", "withdrew", "recounted", "typo", "corrected", "rebooked",
    ]
    static let weakCues: Set<String> = ["now", "new", "actually", "different", "change", "later", "earlier"]

    /// Words too vague to be what an item is about.
    static let vagueWords: Set<String> = [
        "thing", "things", "stuff", "really", "just", "also", "actually", "get", "got", "going", "go", "think", "know",
        "yeah", "yes", "oh", "wow", "well", "lot", "good", "great", "nice", "sure", "okay", "ok", "thank", "thanks", "hey",
        "hi", "like", "want", "make", "made", "say", "said", "tell", "much", "way", "something", "one", "time",
    ]

    /// Capitalised words that start many sentences or name no one.
    static let capitalisedCommon: Set<String> = [
        "the", "a", "an", "and", "but", "so", "it", "its", "this", "that", "we", "you", "he", "she", "they", "my", "our",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "ok", "okay", "yes", "no", "oh",
    ]
}
