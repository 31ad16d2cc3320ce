import PBText
import Foundation
import PBCore
import PBRetrieval

/// The grounded abstention pb-verify shows instead of an answer it cannot stand behind: the
/// fixed phrase, then one sentence saying what was searched, so the reader can judge whether
/// the documents or the question were at fault.
public enum Abstention {
    public static let phrase = "That isn't in your documents."
    /// The same for a question answered from a memory (pb-recall's hits): what was said, not documents.
    public static let memoryPhrase = "That isn't in your memory."

    /// Whether a writer already declined: its answer opens with the phrase (straight or curly
    /// apostrophe, any case).
    public static func isDeclined(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "’", with: "'").lowercased()
        return t.hasPrefix("that isn't in your documents") || t.hasPrefix("that isn't in your memory")
    }

    /// Whether a written answer says, anywhere, that the evidence does not hold the answer:
    /// chat models wrap the phrase ("Sorry, that isn't in your documents.") or paraphrase it.
    public static func mentionsDecline(_ text: String) -> Bool {
        let t = text.replacingOccurrences(of: "’", with: "'").lowercased()
        return t.contains("isn't in your documents") || t.contains("is not in your documents") || t.contains("not in the documents")
            || t.contains("isn't in your memory") || t.contains("is not in your memory")
    }

    /// An answer that declines, written by `route`.
    public static func declinedAnswer(route: AnswerRoute, receipt: Receipt) -> AnswerRecord {
        AnswerRecord(text: phrase, sentences: [AnswerSentence(text: phrase, cites: [])], citations: [], route: route, receipt: receipt)
    }

    /// The question's key words as the reader typed them (lowercased, stopwords and question
    /// words out, first occurrences, at most six).
    public static func keyTerms(_ question: String) -> [String] {
        var out: [String] = []
        var stems: Set<String> = []
        for raw in question.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let w = String(raw)
            let stem = TermAnalyzer.stem(w)
            // The "s" of "dentist's" is not a term.
            guard w.count > 1 || w.first?.isNumber == true, !TermAnalyzer.isStopword(w), !TermAnalyzer.questionVocabulary.contains(stem),
                  !CompletenessGate.askingWords.contains(stem), stems.insert(stem).inserted else { continue }
            out.append(w)
            if out.count == 6 { break }
        }
        return out
    }

    /// The full message for a query record.
    public static func message(for q: QueryRecord, library fallback: String) -> String {
        let library = q.library ?? fallback
        // The words searched for: the question as corrected against the library, when it was.
        let terms = keyTerms(q.questionText)
        let what = terms.isEmpty ? "your question" : terms.joined(separator: ", ")
        let evidence = q.context?.evidence ?? []
        let passages = Set(evidence.map(\.n)).count
        // The closest passage: the best-ranked hit, else the best-ranked piece of evidence.
        var closest: String?
        // Hits from a memory (pb-recall) name their messages, and the memory in their path.
        let hits = q.hits ?? []
        let memory = !hits.isEmpty && hits.allSatisfy { $0.source != nil }
            ? hits[0].path.split(separator: "/").dropFirst().first.map(String.init) : nil
        if let h = hits.min(by: { $0.rank < $1.rank }) {
            closest = memory != nil ? "message \(h.docID)" : "\(h.path):\(h.lineStart)"
        } else if let e = evidence.min(by: { ($0.rank ?? Int.max) < ($1.rank ?? Int.max) }) {
            closest = "\(e.path):\(e.lineStart)"
        }
        let read = passages > 0 ? passages : hits.count
        var sentence = memory.map { "I searched the memory \"\($0)\" for \(what)" } ?? "I searched the library \"\(library)\" for \(what)"
        if read == 0 {
            sentence += " and found no passages."
        } else {
            sentence += " and read \(read) passage\(read == 1 ? "" : "s")"
            sentence += closest.map { "; the closest was \($0)." } ?? "."
        }
        // From a memory, a question about one speaker whose words are another's: say whose.
        if let a = q.attribution, a.isAnother, let by = a.speaker {
            let words = a.text.count > 120 ? String(a.text.prefix(117)) + "..." : a.text
            sentence += " Asked without the name, the nearest words are \(by)'s, not \(a.named)'s: \"\(words)\" (message \(a.source.joined(separator: ", ")))."
        }
        return (memory == nil ? phrase : memoryPhrase) + " " + sentence
    }
}
