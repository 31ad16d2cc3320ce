import PBCore
import PBText

/// A question that spans two files ("the phone number of the dental practice where my April
/// appointment is") is answered from one (the contact card's number) and bound to the question by
/// the other (the calendar's "When: Thursday 24 April 2025", whose event is at "Riverside Dental
/// Practice"). The bridge is that second sentence: from another document on the desk, holding
/// the question's key words the answer's passages lack, in a passage that names the same thing
/// as the answer's: a name the two documents share, that no other document on the desk holds and
/// the question does not say. Cited beside the answer, it shows where each part came from. Only
/// for an answer read from records or table rows, which name what they are about in their
/// record, not in the line.
enum EvidenceBridge {
    static func sentence(question: String, answer: [EvidenceSentence], sentences: [EvidenceSentence],
                         evidence: [Evidence]) -> EvidenceSentence? {
        // A record's line or a table's row ("Phone (work): ...", "Date: 31/03/2025; Balance: ...")
        // says what it is about only through its record; a sentence of prose says it itself.
        guard !answer.isEmpty, answer.allSatisfy({ SentenceScorer.isRecordFile($0.path) || SentenceScorer.isTableRow($0) }) else { return nil }
        let passage = ExtractiveComposer.namedPassages(evidence)
        var body: [Int: String] = [:]
        var documents: [String: Set<String>] = [:]
        for e in evidence {
            body[e.n, default: ""] += "\n" + e.text
            for t in Set(TermAnalyzer.contentTerms(e.text)) { documents[t, default: []].insert(e.path) }
        }
        let missed = KeyTerms(question).binding(in: TermMatcher(answer.map { passage[$0.n] ?? "" }.joined(separator: "\n"))).missed
        guard !missed.isEmpty else { return nil }
        let asked = Set(TermAnalyzer.contentTerms(question))
        let answerPaths = Set(answer.map(\.path))
        guard answerPaths.count == 1 else { return nil }
        let answerNames = Set(answer.flatMap { names(in: body[$0.n] ?? "") })
        for s in sentences where !answerPaths.contains(s.path) {
            let said = TermMatcher(s.text + "\n" + s.heading)
            guard missed.allSatisfy(said.contains) else { continue }
            let shared = names(in: body[s.n] ?? "").intersection(answerNames).filter { t in
                t.count >= 4 && !TermAnalyzer.isNumber(t) && !asked.contains(t)
                    && documents[t] == answerPaths.union([s.path])
            }
            if !shared.isEmpty { return s }
        }
        return nil
    }

    /// The stemmed words written as names: capitalised ("Riverside", "ANALYTICS") where no
    /// sentence or line begins, so "Monthly budget" in a table's header is not one.
    static func names(in text: String) -> Set<String> {
        var out: Set<String> = []
        var word = ""
        var opensSentence = true
        var before: Character = "\n"
        func flush() {
            if let first = word.first, first.isUppercase, !opensSentence { out.insert(TermAnalyzer.stem(word.lowercased())) }
            if !word.isEmpty { opensSentence = false; before = " " }
            word = ""
        }
        for c in text {
            if c.isLetter || c.isNumber || c == "'" || c == "’" {
                if word.isEmpty { opensSentence = opensSentence || ".!?\n".contains(before) }
                word.append(c)
            } else {
                flush()
                if !c.isWhitespace || c.isNewline { before = c }
            }
        }
        flush()
        return out
    }
}
