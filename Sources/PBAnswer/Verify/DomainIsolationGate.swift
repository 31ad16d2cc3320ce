import PBText
import Foundation
import PBCore
import PBRetrieval

/// Gate I, domain isolation: the evidence an answer is written from is about one subject.
///
/// The passages the answer cites (the whole desk when it cites none) are grouped by document.
/// One document is never mixing, so the gate passes. With several, each document must share
/// vocabulary with another cited document or with the question: its affinity is the larger of
/// its best overlap coefficient with another document's content terms (|A ∩ B| / min(|A|, |B|))
/// and the share of the question's terms it holds. A document whose affinity stays under
/// `minimum` is from an unrelated subject area, and the answer is mixing sources.
public struct DomainIsolationGate: VerificationGate {
    public static let letter = Gate.isolation
    public var minimum = 0.15

    public init() {}

    public func check(_ c: VerificationCase) -> GateResult {
        // An overview lists documents of different subjects by design, each by its own words.
        if c.isOverview {
            return .finding(true, 1, "an overview of the library: one line per document")
        }
        let passages = c.citedPassages.isEmpty ? c.passageNumbers : c.citedPassages
        var docTerms: [String: Set<String>] = [:]
        var docPath: [String: String] = [:]
        var order: [String] = []
        // A data export's passage is rows of unrelated things (a bank statement's card payments,
        // bills and transfers): what it says to this answer is the rows it cites.
        var quotes: [Int: String] = [:]
        for citation in c.answer.citations { quotes[citation.evidence, default: ""] += "\n" + citation.quote }
        for n in passages {
            for e in c.pieces[n] ?? [] {
                if docTerms[e.docID] == nil { order.append(e.docID); docPath[e.docID] = e.path }
                let text = EvidenceSentences.isDelimitedFile(e.path) ? quotes[n] ?? e.text : e.text
                docTerms[e.docID, default: []].formUnion(TermAnalyzer.contentTerms(e.title + "\n" + text).filter { !TermAnalyzer.isNumber($0) })
            }
        }
        guard order.count > 1 else {
            return .finding(true, 1, order.isEmpty ? "no evidence to mix" : "all evidence from one document")
        }
        let question = Set(c.questionTerms)
        var lowest = 1.0
        var isolated: [String] = []
        for d in order {
            let mine = docTerms[d]!
            var affinity = question.isEmpty ? 0 : Double(question.intersection(mine).count) / Double(question.count)
            for e in order where e != d {
                let theirs = docTerms[e]!
                let smaller = min(mine.count, theirs.count)
                if smaller > 0 { affinity = max(affinity, Double(mine.intersection(theirs).count) / Double(smaller)) }
            }
            lowest = min(lowest, affinity)
            if affinity < minimum { isolated.append(docPath[d] ?? d) }
        }
        // Full score from twice the minimum affinity up.
        let score = min(1, lowest / (2 * minimum))
        if isolated.isEmpty {
            return .finding(true, score, "\(order.count) documents on related subjects (lowest affinity \(String(format: "%.2f", lowest)))")
        }
        return .finding(false, score, "\(isolated.count) of \(order.count) documents share almost nothing with the others or the question: \(isolated.prefix(2).joined(separator: ", "))")
    }
}
