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
        let tokens = question.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init)
        let words = Set(tokens)
        let phrase = " " + tokens.joined(separator: " ") + " "
        var named: [String] = []
        for who in distinct.sorted() {
            let key = who.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-") }.joined(separator: " ")
            guard !key.isEmpty else { continue }
            let found = key == "me"
                ? !words.isDisjoint(with: ["i", "me", "my", "mine"])
                : phrase.contains(" " + key + " ") || nicknames(in: question).contains { Self.shortens($0, who) }
            if found { named.append(who) }
        }
        return named.count == 1 ? named[0] : nil
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
