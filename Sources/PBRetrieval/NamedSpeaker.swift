/// Which speaker of a memory a question is about: the one it names as a word ("Anna",
/// "Anna's", "Dr Lee"), or, for a speaker called "me", "I", "me", "my" or "mine".
///
/// A question about a person is answered by what that person said: on LoCoMo's first five
/// conversations, 96% of the evidence turns of answerable questions naming one speaker are
/// that speaker's own, and the adversarial questions (which ask one speaker about what the other
/// said) are the opposite. pb-recall favours the named speaker's items; pb-answer quotes them.
public enum NamedSpeaker {
    /// The one speaker among `speakers` that `question` names; nil when it names none, or more
    /// than one ("how did Anna help Ben?" is about both), or when there is one speaker only.
    public static func find(in question: String, among speakers: some Sequence<String>) -> String? {
        let distinct = Set(speakers)
        guard distinct.count > 1 else { return nil }
        let tokens = question.lowercased().split { !isWordCharacter($0) }.map(String.init)
        let words = Set(tokens)
        let phrase = " " + tokens.joined(separator: " ") + " "
        let capitalised = nicknames(in: question)
        var named: [String] = []
        for who in distinct.sorted() {
            let key = self.key(who)
            guard !key.isEmpty else { continue }
            let found = key == ["me"]
                ? !words.isDisjoint(with: selfWords)
                : phrase.contains(" " + key.joined(separator: " ") + " ") || capitalised.contains { Self.shortens($0, who) }
            if found { named.append(who) }
        }
        return named.count == 1 ? named[0] : nil
    }

    /// The words that name a speaker called "me".
    static let selfWords: Set<String> = ["i", "me", "my", "mine"]

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "-" }

    /// A speaker's name as the lower-cased words a question would hold ("Dr Lee": dr, lee).
    static func key(_ speaker: String) -> [String] {
        speaker.lowercased().split { !isWordCharacter($0) }.map(String.init)
    }

    /// The question with the speaker's name (and its short form, and a possessive 's) put as
    /// "someone": "what did Mel's kids paint?" becomes "what did someone kids paint?". For a
    /// speaker called "me", the words I, me, my and mine.
    public static func withoutName(_ question: String, speaker: String, as replacement: String = "someone") -> String {
        let key = self.key(speaker)
        guard !key.isEmpty else { return question }
        let chars = Array(question)
        let isWordChar = isWordCharacter
        // The question's words with where each starts and ends.
        var words: [(text: String, start: Int, end: Int)] = []
        var i = 0
        while i < chars.count {
            guard isWordChar(chars[i]) else { i += 1; continue }
            let s = i
            while i < chars.count, isWordChar(chars[i]) { i += 1 }
            words.append((String(chars[s..<i]).lowercased(), s, i))
        }
        var out = ""
        var at = 0, w = 0
        while w < words.count {
            var n = 0
            if key == ["me"] {
                n = selfWords.contains(words[w].text) ? 1 : 0
            } else if w + key.count <= words.count, (0..<key.count).allSatisfy({ words[w + $0].text == key[$0] }) {
                n = key.count
            } else if chars[words[w].start].isUppercase, shortens(words[w].text, speaker) {
                n = 1
            }
            guard n > 0 else { w += 1; continue }
            var end = words[w + n - 1].end
            // A possessive goes with the name.
            if end + 1 < chars.count, chars[end] == "'" || chars[end] == "\u{2019}", chars[end + 1] == "s",
               end + 2 == chars.count || !isWordChar(chars[end + 2]) {
                end += 2
            }
            out += String(chars[at..<words[w].start]) + replacement
            at = end
            w += n
        }
        return out + String(chars[at...])
    }

    /// Whether `word` is a short form of the speaker's first name ("Mel" of "Melanie", "Sam" of
    /// "Samantha"): three or four letters, the name's start, at least two letters shorter. A
    /// longer start is a name of its own ("Carol" is not Caroline).
    public static func shortens(_ word: String, _ speaker: String) -> Bool {
        let w = word.lowercased()
        guard (3...4).contains(w.count), let first = speaker.lowercased().split(whereSeparator: { !$0.isLetter }).first else { return false }
        return first.count >= w.count + 2 && first.hasPrefix(w)
    }

    /// The question's capitalised words (a name is written so), possessives cut.
    static func nicknames(in question: String) -> [String] {
        question.split { !($0.isLetter || $0 == "'" || $0 == "\u{2019}") }.compactMap { raw in
            var w = String(raw)
            for suffix in ["'s", "\u{2019}s"] where w.hasSuffix(suffix) { w.removeLast(2) }
            return w.first?.isUppercase == true ? w : nil
        }
    }
}
