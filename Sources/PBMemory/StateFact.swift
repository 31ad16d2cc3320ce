import Foundation
import PBText

/// A fact that states where someone is, in words that change when it changes: whom they work
/// for ("I work at Oxford Instruments", "I accepted a new job at Harwell", "Sam started at
/// Tesco") and where they live ("we moved to Leeds"). Two such facts about one person and one
/// attribute with different places are one state after another, whatever other words they use.
public struct StateFact: Equatable, Sendable {
    public enum Attribute: String, Sendable, CaseIterable {
        case employer, home
    }

    public var attribute: Attribute
    /// Whose state: "me" for I or we, else a name's lowercased first word.
    public var owner: String
    /// The place, as written ("Oxford Instruments").
    public var value: String

    /// The words that open each attribute's construction, each followed by one of its
    /// prepositions and a name: "work at X", "job with X", "employed by X", "live in X".
    static let constructions: [Attribute: (heads: Set<String>, prepositions: Set<String>)] = [
        .employer: (["work", "works", "working", "worked", "job", "employed", "employer", "hired", "joined", "join", "joining", "started",
                     "starting", "start", "position", "role", "contract", "offer"], ["at", "for", "by"]),
        .home: (["live", "lives", "living", "lived", "moved", "move", "moving", "relocated", "relocating"], ["in", "to"]),
    ]

    /// The heads of an attribute's construction, for finding earlier facts by their words.
    public static func headWords(of attribute: Attribute) -> [String] { constructions[attribute]!.heads.sorted() }

    /// The state a sentence states, or nil.
    public static func read(_ sentence: String) -> StateFact? {
        let tokens = sentence.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        let words = tokens.map { $0.trimmingCharacters(in: .punctuationCharacters).lowercased() }
        for attribute in Attribute.allCases {
            let (heads, prepositions) = constructions[attribute]!
            for (i, w) in words.enumerated() where heads.contains(w) {
                // The preposition within two words of the head: "job at", "new job with", "started
                // a new role at".
                // A verb of moving takes its preposition straight after it: "we moved to Leeds",
                // not "we moved the party to Sam's".
                let reach = attribute == .home ? 1 : 4
                guard i + 1 < words.count,
                      let p = (i + 1...min(i + reach, words.count - 1)).first(where: { prepositions.contains(words[$0]) }) else { continue }
                // "moved to Wednesday", "started at 9": a name that is not a day or a month.
                var name: [String] = []
                var j = p + 1
                while j < tokens.count {
                    let t = tokens[j].trimmingCharacters(in: SubjectKey.stops)
                    guard let first = t.first, first.isUppercase, !SubjectKey.calendarWords.contains(t.lowercased()) else { break }
                    name.append(t)
                    if tokens[j].last.map({ ".,;:!?".contains($0) }) ?? false { break }
                    j += 1
                }
                guard !name.isEmpty, let owner = owner(words: words, tokens: tokens, before: i) else { continue }
                return StateFact(attribute: attribute, owner: owner, value: name.joined(separator: " "))
            }
        }
        return nil
    }

    /// Whose state the words before the head speak of: I or we, else a name opening the sentence.
    static func owner(words: [String], tokens: [String], before i: Int) -> String? {
        let lead = words[..<i]
        // "My brother just started at Google", "Sam's sister works at Tesco": someone else's.
        if lead.contains(where: { ["my", "our", "his", "her", "their"].contains($0) || $0.hasSuffix("'s") || $0.hasSuffix("\u{2019}s") }) {
            return nil
        }
        if lead.contains(where: { ["i", "i'm", "i've", "i'll", "we", "we're", "we've"].contains($0) })
            || lead.contains(where: { $0.hasPrefix("i\u{2019}") || $0.hasPrefix("we\u{2019}") }) {
            return "me"
        }
        if let first = tokens.first?.trimmingCharacters(in: .punctuationCharacters), let c = first.first, c.isUppercase,
           !SubjectKey.calendarWords.contains(first.lowercased()), !["The", "A", "An", "It", "This", "That", "There"].contains(first) {
            return first.lowercased()
        }
        // "Started at Harwell today", with no subject: the person writing.
        return lead.isEmpty || lead.allSatisfy({ ["just", "finally", "new", "a", "the", "accepted"].contains($0) }) ? "me" : nil
    }

    /// Whether `later` states another value of the same person's same attribute.
    public func isChanged(by later: StateFact) -> Bool {
        attribute == later.attribute && owner == later.owner && value.lowercased() != later.value.lowercased()
            && !value.lowercased().contains(later.value.lowercased()) && !later.value.lowercased().contains(value.lowercased())
    }
}
