import Foundation
import PBCore
import PBRetrieval
import PBText

/// One turn of a session, as the next one resolves against it: what was asked (as resolved),
/// what it was about, and the things it named, in order (a plan's items by id, an answer's cited
/// passages by their text).
public struct SessionTurn: Codable, Equatable, Sendable {
    public var kind = "turn"
    public var time: String
    /// The request or question, as resolved.
    public var text: String
    /// What it was about: the words a pronoun in the next turn stands for ("the deposit").
    public var subject: String
    /// The things the turn named, in order: "task:1", or a cited sentence.
    public var items: [String]
    /// The one the turn acted on last (the task a plan created or changed), when there is one.
    public var focus: String?

    public init(time: String, text: String, subject: String, items: [String], focus: String?) {
        self.time = time
        self.text = text
        self.subject = subject
        self.items = items
        self.focus = focus
    }
}

/// What a follow-up was resolved to, kept in the record (`followup`) so a user sees the rewrite.
public struct FollowUp: Codable, Equatable, Sendable {
    public var original: String
    public var resolved: String
    /// What stood for what: "it" -> "the deposit", "the second one" -> "task:2".
    public var replaced: [String: String]
    public var turn: String

    public init(original: String, resolved: String, replaced: [String: String], turn: String) {
        self.original = original
        self.resolved = resolved
        self.replaced = replaced
        self.turn = turn
    }
}

/// Resolves a follow-up ("and when is it returned?", "make it urgent", "what about the second
/// one?") against the previous turn: a leading "and" goes, an ordinal "one" becomes that item of
/// the previous turn, a pronoun its focus or subject, and "what about X?" the previous question
/// asked of X. A text that refers to nothing before is left as it is.
public enum FollowUpResolver {
    static let pronouns: Set<String> = ["it", "that", "this", "them", "those", "these", "its"]
    /// Words for the kind of thing a pointer points at ("that item"), which the referent replaces too.
    static let kinds: Set<String> = ["item", "items", "one", "ones", "task", "tasks", "entry", "entries", "thing", "things", "list", "lists",
                                     "event", "events", "reminder", "reminders", "to-do", "todo", "project", "note", "appointment", "meeting"]
    /// Words a pointer standing for a thing is followed by: where, how or when it goes.
    static let afterPointer: Set<String> = ["to", "from", "on", "off", "in", "into", "at", "for", "by", "as", "up", "down", "out", "back", "over",
                                            "with", "done", "urgent", "important", "tomorrow", "today", "tonight", "and", "then", "please", "too",
                                            "now", "again", "instead", "first", "complete", "completed", "finished", "high", "low", "until", "till",
                                            "next", "later", "asap", "priority", "every", "each", "before", "after", "away", "also"]
    /// The kind words a referent of each kind may be pointed at with ("that item" is a task).
    static func fits(_ kind: String, _ referent: String) -> Bool {
        let taskKinds: Set<String> = ["item", "items", "one", "ones", "task", "tasks", "entry", "entries", "thing", "things", "reminder", "reminders", "to-do", "todo"]
        if referent.hasPrefix("task:") { return taskKinds.contains(kind) }
        if referent.hasPrefix("project:") { return ["list", "lists", "project", "one"].contains(kind) }
        if referent.hasPrefix("note:") { return ["note", "one", "item", "entry"].contains(kind) }
        if referent.hasPrefix("event:") { return ["event", "events", "appointment", "meeting", "one", "entry"].contains(kind) }
        // What a question was about ("the deposit"): any kind word.
        return !referent.contains(":")
    }

    static let undoIdiom = try! NSRegularExpression(pattern: #"^(?:(?:scratch|scrap|forget|undo|revert|reverse|cancel|drop|never ?mind|nevermind|ignore)(?: (?:that|it|this|that last one|the last one))?(?: too)?|take (?:that|it|this) back|undo the last (?:one|thing|change))$"#)

    /// A request that takes the last turn back ("scratch that", "take it back", "never mind").
    static func isUndo(_ words: [String]) -> Bool {
        let w = words.map(bare).filter { !["please", "oops", "oh", "actually", "no", "wait", "sorry"].contains($0) }.joined(separator: " ")
        return undoIdiom.firstMatch(in: w, range: NSRange(w.startIndex..., in: w)) != nil
    }

    static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
        "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "last": -1,
    ]
    static let leadIns: Set<String> = ["and", "also", "so", "ok", "okay", "then", "now"]
    /// Question and helper words: what a question's subject is not.
    static let questionWords: Set<String> = [
        "what", "when", "where", "who", "whom", "which", "why", "how", "much", "many", "long", "often", "is", "are", "was",
        "were", "do", "does", "did", "can", "could", "should", "would", "will", "the", "a", "an", "my", "our", "your", "of",
        "in", "on", "at", "for", "to", "me", "i", "we", "you", "there", "any", "about", "tell", "show", "list", "find",
    ]

    /// `turns`: the session's turns, oldest first. Pronouns and "what about" go to the last; an
    /// ordinal to the latest turn that named that many things ("make the first one urgent" after
    /// a plan that added two tasks, then "what about the second one?").
    public static func resolve(_ text: String, after turns: [SessionTurn]) -> FollowUp? {
        guard let turn = turns.last else { return nil }
        func item(_ k: Int) -> String? {
            for t in turns.reversed() { if let found = pick(t.items, k) { return found } }
            return nil
        }
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var replaced: [String: String] = [:]
        // "and when is it returned?" -> "when is it returned?"
        while let first = words.first, words.count > 1, leadIns.contains(bare(first)) { words.removeFirst() }
        // "what about the second one?" / "what about the rent?": the last question, asked of it.
        if words.count >= 3, bare(words[0]) == "what" || bare(words[0]) == "how", bare(words[1]) == "about" {
            var object = Array(words.dropFirst(2))
            if let k = ordinalOne(object) {
                guard let found = item(k) else { return nil }
                replaced[phrase(object)] = found
                object = [found]
            }
            let target = phrase(object)
            // The last request or question, asked of the new thing in place of what it was about.
            guard !turn.subject.isEmpty, turn.text.range(of: turn.subject, options: .caseInsensitive) != nil else { return nil }
            let resolved = turn.text.replacingOccurrences(of: turn.subject, with: target, options: .caseInsensitive)
            replaced[turn.subject] = target
            return FollowUp(original: text, resolved: resolved, replaced: replaced, turn: turn.text)
        }
        // "the second one", "the 2nd one", "the last one"
        var i = 0
        while i < words.count {
            if i + 2 < words.count, bare(words[i]) == "the", let k = ordinals[bare(words[i + 1])], bare(words[i + 2]) == "one",
               let item = item(k) {
                let tail = trailingPunctuation(words[i + 2])
                replaced[words[i...(i + 2)].map(bare).joined(separator: " ")] = item
                words.replaceSubrange(i...(i + 2), with: [item + tail])
            }
            i += 1
        }
        // Pronouns: the turn's focus (what it acted on), else its subject.
        if let referent = turn.focus ?? (turn.subject.isEmpty ? nil : turn.subject) {
            // "scratch that", "take it back": an undo of the last turn, whatever it acted on.
            if isUndo(words) { return nil }
            var j = 0
            while j < words.count {
                let w = words[j]
                defer { j += 1 }
                let word = bare(w)
                guard pronouns.contains(word) else { continue }
                let next = j + 1 < words.count ? bare(words[j + 1]) : nil
                let pointer = ["that", "this", "these", "those"].contains(word)
                // "that item", "this list": the kind word goes with the pointer when it is the
                // referent's kind; "delete this list" after a task is about some list, not the task.
                if pointer, let next, kinds.contains(next) {
                    guard fits(next, referent) else { continue }
                    let tail = trailingPunctuation(words[j + 1])
                    replaced[word + " " + next] = referent
                    words.replaceSubrange(j...(j + 1), with: [referent + tail])
                    continue
                }
                // "this friday", "tell Sam that the car is ready": a determiner before another
                // word, or a conjunction. A pointer stands alone: at the end, or before a word of
                // where, how or when ("move that to friday", "mark this done").
                if pointer, let next, trailingPunctuation(w).isEmpty, !afterPointer.contains(next) { continue }
                // "make it to the gym", "is it going to rain": "it" of an idiom, not a thing.
                if word == "it", j > 0, let next, (bare(words[j - 1]) == "make" && next == "to") || (["is", "was", "will"].contains(bare(words[j - 1])) && j == 1) { continue }
                let tail = trailingPunctuation(w)
                let stand = word == "its" ? referent + "'s" : referent
                replaced[word] = stand
                words[j] = stand + tail
            }
        }
        guard !replaced.isEmpty else { return nil }
        return FollowUp(original: text, resolved: words.joined(separator: " "), replaced: replaced, turn: turn.text)
    }

    /// The subject of a question: its words after the question and helper words, from the first
    /// content word to the end ("How much is the deposit?" -> "the deposit").
    public static func subject(of question: String) -> String {
        let words = question.split(separator: " ").map(String.init)
        guard let start = words.firstIndex(where: { !questionWords.contains(bare($0)) && !bare($0).isEmpty }) else { return "" }
        var body = words[start...].map(bare).filter { !$0.isEmpty }
        // The phrase ends before a participle ("when is the deposit returned": the deposit).
        if let verb = body.indices.dropFirst().first(where: { i in body[i].count > 4 && (body[i].hasSuffix("ed") || body[i].hasSuffix("ing")) }) {
            body = Array(body[..<verb])
        }
        if body.count > 4 { body = Array(body.prefix(4)) }
        let article = start > 0 && ["the", "my", "our"].contains(bare(words[start - 1])) ? bare(words[start - 1]) + " " : "the "
        return article + body.joined(separator: " ")
    }

    static func ordinalOne(_ words: [String]) -> Int? {
        let w = words.map(bare)
        guard w.count == 3, w[0] == "the", w[2] == "one" else { return nil }
        return ordinals[w[1]]
    }

    static func pick(_ items: [String], _ k: Int) -> String? {
        if k == -1 { return items.last }
        return k >= 1 && k <= items.count ? items[k - 1] : nil
    }

    static func phrase(_ words: [String]) -> String {
        words.map { w in String(w.reversed().drop { !$0.isLetter && !$0.isNumber && $0 != ":" }.reversed()) }.joined(separator: " ")
    }

    static func bare(_ w: String) -> String {
        w.lowercased().trimmingCharacters(in: CharacterSet.punctuationCharacters.subtracting(CharacterSet(charactersIn: ":'")))
    }

    static func trailingPunctuation(_ w: String) -> String {
        String(w.reversed().prefix { $0.isPunctuation && $0 != ":" }.reversed())
    }
}
