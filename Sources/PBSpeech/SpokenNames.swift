import Foundation
import PBAgent
import PBCore

/// Names in a transcript checked against the user's contacts (seed 004's proper-noun recovery).
///
/// A recogniser writes a name it does not know as the word it sounds like: "call mirror" for
/// "call Myra". Only a word right after a word that takes a person (call, text, email, tell,
/// ask, meet, with, ...) is checked, so "the mirror in the hall" stays a mirror; a word that is
/// already a contact's name, or a pronoun or a relation ("call mum"), is left alone. The word is
/// replaced when exactly one contact has a name that sounds like it (ContactBook's phonetic
/// key); when several do, it stays as heard and the candidates are reported.
public struct SpokenNames: Sendable {
    public let book: ContactBook

    public init(book: ContactBook) { self.book = book }

    static let cues: Set<String> = ["call", "ring", "phone", "text", "message", "email", "e-mail", "mail", "tell", "ask",
                                    "meet", "meeting", "with", "invite", "thank", "visit", "see", "from", "remind", "cc"]
    static let notNames: Set<String> = ["me", "him", "her", "them", "us", "you", "it", "my", "your", "his", "their", "our",
                                        "the", "a", "an", "back", "up", "out", "about", "to", "and", "mum", "mom", "dad",
                                        "mother", "father", "wife", "husband", "boss", "doctor", "dentist", "everyone",
                                        "someone", "somebody", "anyone", "this", "that", "tomorrow", "today", "tonight"]

    /// `text` with the names it could recover, and what was changed or left ambiguous.
    public func recover(_ text: String) -> (text: String, names: [NameCorrection]) {
        let ns = text as NSString
        let words = Self.word.matches(in: text, range: NSRange(location: 0, length: ns.length)).map(\.range)
        var replacements: [(NSRange, String)] = []
        var names: [NameCorrection] = []
        for (i, range) in words.enumerated() where i > 0 {
            let cue = ns.substring(with: words[i - 1]).lowercased()
            let heard = ns.substring(with: range)
            guard Self.cues.contains(cue), !Self.notNames.contains(heard.lowercased()), !book.isName(heard) else { continue }
            let sounding = book.soundsLike(heard)
            guard !sounding.isEmpty else { continue }
            let spoken = sounding.map { c in
                ([c.given, c.family] + c.nicknames).first { !$0.isEmpty && ContactBook.phoneticKey($0) == ContactBook.phoneticKey(heard) } ?? c.given
            }
            if sounding.count == 1 {
                replacements.append((range, spoken[0]))
                names.append(NameCorrection(heard: heard, name: spoken[0]))
            } else {
                names.append(NameCorrection(heard: heard, candidates: sounding.map(\.fullName)))
            }
        }
        let out = NSMutableString(string: text)
        for (range, name) in replacements.reversed() { out.replaceCharacters(in: range, with: name) }
        return (out as String, names)
    }

    private static let word = try! NSRegularExpression(pattern: #"[\p{L}][\p{L}'’-]*"#)
}
