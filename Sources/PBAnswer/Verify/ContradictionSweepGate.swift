import PBText
import PBCore
import PBRetrieval

/// Gate D, contradiction sweep: looks through the retrieved set (the desk and the hits that did
/// not reach it) for a sentence that contradicts one the answer cites: the same subject with
/// other numbers ("the deposit is 1,200" against "the deposit is 950"), or the same statement
/// negated ("not", "never", "no longer", "n't"). Only sentences of other passages count; the
/// cited passage cannot contradict itself. Advisory by default: conflicting sources lower the
/// score rather than silence an answer that may well be the newer or the right one.
public struct ContradictionSweepGate: VerificationGate {
    public static let letter = Gate.contradictions
    /// Subject words two sentences must share to be about the same thing,
    public var sharedTerms = 3
    /// ... as a share of the shorter sentence's words (numbers and negations aside).
    public var overlap = 0.6
    /// Each conflict found takes this much off the score.
    public var penalty = 0.25

    public init() {}

    /// A sentence's subject: content terms without numbers (negation words are stopwords).
    static func subject(_ text: String) -> Set<String> {
        Set(TermAnalyzer.contentTerms(text).filter { !TermAnalyzer.isNumber($0) })
    }

    /// Whether a sentence says something is not so.
    public static func isNegated(_ text: String) -> Bool {
        let words = TermAnalyzer.tokens(text)
        for (i, w) in words.enumerated() {
            if w == "not" || w == "never" || w == "cannot" || w == "nor" || w == "neither" { return true }
            if w == "no", i + 1 < words.count, words[i + 1] == "longer" { return true }
            if w == "no", i + 1 < words.count, !TermAnalyzer.isStopword(words[i + 1]) { return true }
        }
        return false
    }

    public func check(_ c: VerificationCase) -> GateResult {
        // An overview quotes one line of each of several documents: that their numbers differ
        // is what makes them different documents, not a contradiction.
        if c.isOverview { return .finding(true, 1, "an overview: one line from each document, not one claim") }
        let cited = c.answer.citations.filter { c.pieces[$0.evidence] != nil }
        guard !cited.isEmpty else { return .finding(true, 1, "no cited sentence to contradict") }
        var conflicts: [String] = []
        var seen: Set<String> = []
        for quote in cited {
            let subject = Self.subject(quote.quote)
            guard subject.count >= sharedTerms else { continue }
            let numbers = NumberMentions.all(quote.quote)
            let negated = Self.isNegated(quote.quote)
            for s in c.candidateSentences where s.passage != quote.evidence && s.chunkID != quote.chunkID {
                let other = Self.subject(s.text)
                let shared = subject.intersection(other).count
                guard shared >= sharedTerms,
                      Double(shared) / Double(min(subject.count, other.count)) >= overlap else { continue }
                let theirs = NumberMentions.all(s.text)
                var kind: String?
                if !numbers.isEmpty, !theirs.isEmpty, numbers.isDisjoint(with: theirs) {
                    kind = "other numbers"
                } else if negated != Self.isNegated(s.text), Double(shared) / Double(subject.count) >= 0.8 {
                    kind = "a negation"
                }
                guard let kind, seen.insert("\(quote.n)|\(s.chunkID)|\(s.line)").inserted else { continue }
                conflicts.append("[\(quote.n)] meets \(kind) in \(s.path):\(s.line)")
            }
        }
        if conflicts.isEmpty {
            return .finding(true, 1, "no retrieved sentence contradicts the cited ones (\(cited.count))")
        }
        let score = 1 - penalty * Double(conflicts.count)
        return .finding(false, score, "\(conflicts.count) possible contradiction\(conflicts.count == 1 ? "" : "s"): " + conflicts.prefix(2).joined(separator: "; "))
    }
}
