import PBText
import Foundation
import PBCore
import PBRetrieval

/// Gate B, evidence coverage: every answer sentence carries a citation, and the words it says
/// are in what it cites. A sentence's coverage is the share of its content terms (stopwords out,
/// lightly stemmed, numbers kept) found in its citations' quotes or the passages they sit in;
/// an uncited sentence covers nothing, since an uncited assertion is ungrounded by definition.
public struct EvidenceCoverageGate: VerificationGate {
    public static let letter = Gate.coverage
    /// Each sentence must reach this coverage.
    public var minimum = 0.5

    public init() {}

    /// The share of `sentence`'s content terms present in `evidence`.
    public static func coverage(of sentence: String, in evidence: String) -> Double {
        let terms = TermAnalyzer.contentTerms(sentence)
        guard !terms.isEmpty else { return 1 }
        let have = Set(TermAnalyzer.tokens(evidence))
        return Double(terms.filter { have.contains($0) }.count) / Double(terms.count)
    }

    public func check(_ c: VerificationCase) -> GateResult {
        let sentences = c.answer.sentences
        guard !sentences.isEmpty else { return .finding(false, 0, "the answer has no sentences") }
        var scores: [Double] = []
        var uncited = 0
        var weakest: (index: Int, coverage: Double)?
        for (i, s) in sentences.enumerated() {
            let cited = c.citations(of: s)
            let coverage = cited.isEmpty ? 0 : Self.coverage(of: c.groundingText(i), in: c.citedText(of: s))
            if cited.isEmpty { uncited += 1 }
            scores.append(coverage)
            if weakest == nil || coverage < weakest!.coverage { weakest = (i, coverage) }
        }
        let mean = scores.reduce(0, +) / Double(scores.count)
        let covered = scores.filter { $0 >= minimum }.count
        let summary = "\(covered) of \(sentences.count) sentences covered by their citations"
        if uncited > 0 {
            return .finding(false, mean, "\(summary); \(uncited) without a citation")
        }
        if let w = weakest, w.coverage < minimum {
            return .finding(false, mean, "\(summary); sentence \(w.index + 1) has \(Int((w.coverage * 100).rounded()))% of its words in its evidence")
        }
        return .finding(true, mean, summary)
    }
}
