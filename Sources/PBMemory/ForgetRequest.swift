import Foundation
import PBText

/// A message that asks the memory to forget something ("forget my locker code", "forget what I
/// said about the gate", "please delete the note about Sam's present"): a request, not a fact to
/// keep. Read from the words a person opens with; "don't forget to call Mum" and "I forgot my
/// keys" are not requests.
public struct ForgetRequest: Equatable, Sendable {
    /// What is to be forgotten, as said ("my locker code", "the gate"); empty for "forget that".
    public var topic: String
    /// "everything about", "all of it": every item that fits, not one.
    public var everything: Bool

    public init(topic: String, everything: Bool, fromContext: Bool = false) {
        self.topic = topic
        self.everything = everything
        self.fromContext = fromContext
    }

    /// The request a message makes, or nil when it makes none. The request may be one clause
    /// of several: "Scrap everything about the Lisbon idea, flights have gone silly" is about
    /// Lisbon; in "Priya asked me not to keep Anjali's number, please forget it", "it" is what
    /// the other clauses say.
    public static func read(_ text: String) -> ForgetRequest? {
        let clauses = text.replacingOccurrences(of: "\u{2019}", with: "'")
            .components(separatedBy: CharacterSet(charactersIn: ".,;!?\u{2014}\n"))
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for (i, clause) in clauses.enumerated() {
            guard var request = read(clause: clause) else { continue }
            // The other clauses that say something ("never mind", "thanks" do not).
            let context = clauses.enumerated().filter { c in
                c.offset != i && TermAnalyzer.contentTerms(c.element).contains { !fillers.contains($0) && !TermAnalyzer.isStopword($0) }
            }
            if request.topic.isEmpty, !context.isEmpty {
                request.topic = context.map(\.element).joined(separator: " ")
                request.fromContext = true
            }
            return request
        }
        return nil
    }

    /// Whether the topic is the rest of the message, read for a pronoun ("..., please forget it").
    public var fromContext = false

    static func read(clause: String) -> ForgetRequest? {
        var words = clause.lowercased()
            .split(whereSeparator: { $0.isWhitespace })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ":\"()")) }
            .filter { !$0.isEmpty }
        // Politeness and address before the verb: "please", "can you", "hey, could you please".
        while let first = words.first, openers.contains(first) || first == "never" && words.dropFirst().first == "mind" {
            words.removeFirst(first == "never" ? 2 : 1)
        }
        guard let verb = words.first else { return nil }
        var rest = Array(words.dropFirst())
        let isForget = verb == "forget"
        guard isForget || erasers.contains(verb) else { return nil }
        // "forget about it", "forget all about the gate": the same request.
        var everything = false
        var sawScope = false
        var changed = true
        while changed, let first = rest.first {
            changed = false
            if ["everything", "anything", "all", "whatever"].contains(first) { everything = true; rest.removeFirst(); changed = true; continue }
            // "what I said about", "what I told you about", "the note about", "the bit about";
            // "the notes about" (more than one) is everything about it.
            if let n = leadIn(rest) {
                everything = everything || rest.prefix(n).contains { ["notes", "messages", "things", "stuff"].contains($0) }
                rest.removeFirst(n)
                sawScope = true
                changed = true
            }
        }
        if rest.first == "about" || rest.first == "of" || rest.first == "on" { rest.removeFirst(); sawScope = true }
        // "forget to buy milk" is a slip for "don't forget"; never a request to forget.
        guard rest.first != "to" else { return nil }
        // "delete", "remove", "scrap" reach the memory only when it is named: "delete the note
        // about the gate", "scrap everything about Lisbon"; "remove the old tiles" is a plan.
        guard isForget || sawScope || everything else { return nil }
        let topic = rest.joined(separator: " ")
        // "forget it", "forget that", "forget this": what the rest of the message says, else the last thing said.
        if ["it", "that", "this", "them", "those", "that one", "what i just said", "the last one", "the last message"].contains(topic) {
            return ForgetRequest(topic: "", everything: everything)
        }
        guard !topic.isEmpty || everything else { return nil }
        return ForgetRequest(topic: topic, everything: everything)
    }

    /// How many words of a lead-in ("what I said about", "the notes on") open `words`, or nil.
    static func leadIn(_ words: [String]) -> Int? {
        for phrase in leadIns {
            let p = phrase.split(separator: " ").map(String.init)
            if words.count >= p.count, Array(words.prefix(p.count)) == p { return p.count }
        }
        return nil
    }

    /// Words before the verb that do not change the request.
    static let openers: Set<String> = ["please", "pls", "can", "could", "would", "will", "you", "hey", "ok", "okay", "oh", "and", "also", "just", "now"]
    /// Words of a clause that say nothing of what to forget.
    static let fillers: Set<String> = ["never", "mind", "please", "pls", "thanks", "thank", "ok", "okay", "sorry", "actually", "oh", "hey"]
    /// Verbs that forget when the memory is named after them.
    static let erasers: Set<String> = ["delete", "erase", "remove", "scrap", "drop", "wipe", "clear", "discard", "bin"]
    /// Longest first, so "what i said about" wins over "what i said".
    static let leadIns: [String] = [
        "what i told you about", "what i said about", "what i wrote about", "what i mentioned about", "what i noted about",
        "the notes about", "the note about", "the notes on", "the note on", "the message about", "the messages about",
        "the bit about", "the part about", "the stuff about", "the things about", "my note about", "my notes about",
        "my note on", "my notes on", "the note", "the notes", "what i said", "what i told you", "about",
    ].sorted { $0.split(separator: " ").count > $1.split(separator: " ").count }
}
