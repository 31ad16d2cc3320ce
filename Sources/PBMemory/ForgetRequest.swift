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

    /// The request a message makes, or nil when it makes none. Only a message that opens with
    /// the request is one ("Scrap everything about the Lisbon idea, flights have gone silly"),
    /// or one that ends with "forget it" after saying what ("Priya asked me not to keep Anjali's
    /// number, please forget it"): "I can relax, forget my troubles" is something said, and so
    /// is "Forget about it, the gate code is 5190 now".
    public static func read(_ text: String) -> ForgetRequest? {
        var text = text.replacingOccurrences(of: "\u{2019}", with: "'")
        // "Dr. Patel" is one name, not two clauses.
        for title in ["Dr.", "Mr.", "Mrs.", "Ms.", "St.", "Prof."] { text = text.replacingOccurrences(of: title, with: String(title.dropLast())) }
        let clauses = text.components(separatedBy: CharacterSet(charactersIn: ".,;!?\u{2014}\n"))
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = clauses.first else { return nil }
        // The clauses that say something ("never mind", "thanks" do not).
        let saying = { (c: String) in TermAnalyzer.contentTerms(c).contains { !fillers.contains($0) && !TermAnalyzer.isStopword($0) } }
        if var request = read(clause: first) {
            let others = clauses.dropFirst().filter(saying)
            if request.topic.isEmpty {
                // "Forget about it, the code is 5190 now": a way of speaking, not a request.
                guard others.isEmpty else { return nil }
                return request
            }
            // "Forget my address, phone number and email": the list goes on past the comma. A
            // run of short clauses ending in one with "and" or "or" is the rest of the topic.
            // Only names of things: "Forget Rome, Sam and Priya disagree" says something after the
            // comma, and the list must end the message.
            var listed = 0
            for (i, c) in others.enumerated() {
                guard c.split(separator: " ").count <= 4, Self.namesThingsOnly(c) else { break }
                if c.lowercased().split(separator: " ").contains(where: { $0 == "and" || $0 == "or" }) { listed = i + 1 }
            }
            if listed < others.count { listed = 0 }
            let parts = Self.conjuncts(request.topic, inList: listed > 0) + others.prefix(listed).flatMap { Self.conjuncts($0, inList: true) }
            request.parts = parts.count > 1 ? parts : []
            if listed > 0 { request.topic = others.prefix(listed).reduce(request.topic) { $0 + ", " + $1 } }
            // What else the message says is kept as said: "Forget Rome, we're going to Paris".
            request.rest = others.dropFirst(listed).joined(separator: ". ")
            return request
        }
        if clauses.count > 1, var request = read(clause: clauses[clauses.count - 1]), request.topic.isEmpty {
            let context = clauses.dropLast().filter(saying)
            guard !context.isEmpty else { return request }
            request.topic = context.joined(separator: " ")
            request.fromContext = true
            return request
        }
        return nil
    }

    /// Whether the topic is the rest of the message, read for a pronoun ("..., please forget it").
    public var fromContext = false
    /// What else the message says, besides the request: remembered as said.
    public var rest = ""
    /// The things the topic lists, each forgotten as if asked alone ("my address", "phone
    /// number", "email"); empty for a topic that lists nothing.
    public var parts: [String] = []

    /// A list's members: in a list past a comma, "phone number and email" is two. Alone, "my
    /// address and my phone number" is two, but "Sam and Priya's party" is one thing: a part
    /// after "and" counts as a new thing only when it opens as one ("my", "the").
    static func conjuncts(_ phrase: String, inList: Bool) -> [String] {
        var words = phrase.split(separator: " ").map(String.init)
        if let first = words.first, ["and", "or"].contains(first.lowercased()) { words.removeFirst() }
        var out: [[String]] = [[]]
        for (i, w) in words.enumerated() {
            let next = i + 1 < words.count ? words[i + 1].lowercased() : ""
            if ["and", "or"].contains(w.lowercased()), !out[out.count - 1].isEmpty, inList || determiners.contains(next) {
                out.append([])
            } else {
                out[out.count - 1].append(w)
            }
        }
        return out.map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// Whether a clause only names things ("phone number and email", "Sam's present"): no word
    /// of it is a verb and nothing else ("disagree", "said", "is"), by WordNet; without WordNet,
    /// no clause is a list's.
    static func namesThingsOnly(_ clause: String) -> Bool {
        guard let wordnet = WordNet.shared else { return false }
        for raw in clause.lowercased().split(separator: " ") {
            var w = raw.trimmingCharacters(in: CharacterSet.punctuationCharacters)
            for suffix in ["'s", "\u{2019}s"] where w.hasSuffix(suffix) { w.removeLast(2) }
            if w.isEmpty || ["and", "or", "my", "our", "the", "his", "her", "their", "your", "a", "an", "all", "of"].contains(w) { continue }
            if ["is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "we", "i", "you", "he", "she", "they", "it",
                "not", "don't", "can't", "won't", "please", "thanks"].contains(w) { return false }
            let forms = wordnet.baseForms(w)
            if !forms.isEmpty, !forms.contains(where: { $0.0 == .noun || $0.0 == .adj }) { return false }
        }
        return true
    }

    /// Words that open a noun phrase naming a thing of its own.
    static let determiners: Set<String> = ["my", "our", "the", "his", "her", "their", "your", "that", "this"]

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
        // A lead-in that names what was said ("the note about", "what I said about").
        var namedMemory = false
        var sawAbout = false
        var changed = true
        while changed, let first = rest.first {
            changed = false
            if ["everything", "anything", "all", "whatever"].contains(first) { everything = true; rest.removeFirst(); changed = true; continue }
            // "what I said about", "what I told you about", "the note about", "the bit about";
            // "the notes about" (more than one) is everything about it.
            if let n = leadIn(rest) {
                everything = everything || rest.prefix(n).contains { ["notes", "messages", "things", "stuff"].contains($0) }
                namedMemory = namedMemory || n > 1 || rest.first != "about"
                sawAbout = sawAbout || rest.prefix(n).contains("about")
                rest.removeFirst(n)
                sawScope = true
                changed = true
            }
        }
        if rest.first == "about" || rest.first == "of" || rest.first == "on" { sawAbout = sawAbout || rest.first == "about"; rest.removeFirst(); sawScope = true }
        // "forget to buy milk" is a slip for "don't forget"; never a request to forget.
        guard rest.first != "to" else { return nil }
        // "delete", "remove", "scrap" reach the memory only when it is named: "delete the note
        // about the gate", "scrap everything about Lisbon", "delete what I said about it";
        // "remove the old tiles", "drop everything and call Mum", "clear all the photos from the
        // old phone" and "clear about two shelves" are things to do.
        guard isForget || namedMemory || everything && sawAbout else { return nil }
        let topic = rest.joined(separator: " ")
        // "forget it", "forget that", "forget this": what the rest of the message says, else the last thing said.
        if ["it", "that", "this", "them", "those", "that one", "what i just said", "the last one", "the last message"].contains(topic) {
            return ForgetRequest(topic: "", everything: everything)
        }
        // "Forget what I said": the last thing said; "forget everything" names nothing, and is
        // asked back rather than taken as the whole memory.
        if topic.isEmpty { return sawScope || everything ? ForgetRequest(topic: "", everything: everything) : nil }
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
    static let openers: Set<String> = ["please", "pls", "can", "could", "would", "will", "you", "hey", "ok", "okay", "oh", "and", "also", "just",
                                       "now", "actually", "so", "right", "um", "erm"]
    /// Words of a clause that say nothing of what to forget.
    static let fillers: Set<String> = ["never", "mind", "please", "pls", "thanks", "thank", "ok", "okay", "sorry", "actually", "oh", "hey"]
    /// Verbs that forget when the memory is named after them.
    static let erasers: Set<String> = ["delete", "erase", "remove", "scrap", "drop", "wipe", "clear", "discard", "bin"]
    /// Longest first, so "what i said about" wins over "what i said".
    static let leadIns: [String] = [
        "what i told you about", "what i said about", "what i wrote about", "what i mentioned about", "what i noted about",
        "the notes about", "the note about", "the notes on", "the note on", "the message about", "the messages about",
        "the bit about", "the part about", "the stuff about", "the things about", "my note about", "my notes about",
        "my note on", "my notes on", "what i said", "what i told you", "about",
    ].sorted { $0.split(separator: " ").count > $1.split(separator: " ").count }
}
