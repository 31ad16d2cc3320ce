import Foundation
import PBCore

/// Gate A, retrieval confidence: the best hit clears a threshold and beats the runner-up from
/// another document by a margin. A high top score with no margin means the ranking did not
/// discriminate; a runner-up from the same document agrees with the top hit rather than
/// competing with it (neighbouring sections of one source often both hold the answer).
///
/// Hit scores are put on one 0...1 scale: `scores.rerank` is a logit of pb-rerank's fitted
/// model, so its sigmoid; else `fused` (reciprocal rank fusion, as k = 60 scores the hit's ranks)
/// over the best a hit can get from two lists, 2/61; else the dense cosine; else BM25 as b/(b + 5).
public struct RetrievalConfidenceGate: VerificationGate {
    public static let letter = Gate.retrieval
    /// The best hit's scaled score must reach this. Low on purpose: on SQuAD 2.0 (dev half,
    /// hybrid search and pb-rerank) a top hit under 0.35 is 8% of answerable questions whose
    /// paragraph was in the top three, 40% of those whose paragraph was not.
    public var minimum = 0.35
    /// ... or this for memory hits (pb-recall), with no margin: none. The reranker, fitted on
    /// documents, scores conversation turns low whether they answer or not, and a turn's
    /// neighbours say the same thing, so neither floor nor margin tells a question the memory
    /// holds from one it does not. On LoCoMo's tuning split (the first five conversations), with
    /// gate H's speaker checks (pb-recall's attribution among them): a floor of 0.20 withheld
    /// 55.4% of the answerable questions and abstained 87.8% of the adversarial ones; none,
    /// 35.0% and 81.9%. Gate H decides for a memory (its speakers, its rare terms, the kind of
    /// answer asked for); this gate still fails when nothing reached the desk.
    public var memoryMinimum = 0.0
    /// ... and beat the best hit of another document by this much,
    public var margin = 0.05
    /// ... unless it reaches this, when a close runner-up is a second good source, not doubt.
    public var decisive = 0.85

    public init() {}

    /// A hit's score on the 0...1 scale, and which score it came from.
    public static func scaled(_ s: HitScores) -> (value: Double, source: String)? {
        if let r = s.rerank { return (1 / (1 + exp(-r)), "rerank") }
        if let f = s.fused {
            // From the hit's ranks in the two lists where it has them, as fusion with k = 60
            // scores them, so that the scale (and the minimum fitted on it) does not move with
            // pb-search's --rrf-k.
            let ranks = [s.bm25Rank, s.denseRank].compactMap { $0 }
            let standard = ranks.isEmpty ? f : ranks.reduce(0.0) { $0 + 1 / (60 + Double($1)) }
            return (min(1, standard / (2.0 / 61.0)), "fused")
        }
        if let d = s.dense { return (max(0, min(1, d)), "dense") }
        if let b = s.bm25 { return (max(0, b) / (max(0, b) + 5), "bm25") }
        return nil
    }

    public func check(_ c: VerificationCase) -> GateResult {
        // An overview of the whole library is read from its catalogue, not from search hits.
        if c.isCatalogue, c.evidence.contains(where: { $0.role == .section }) {
            return .finding(true, 1, "an overview of the whole library, from its catalogue")
        }
        if c.evidence.isEmpty {
            return .finding(false, 0, c.hits.isEmpty ? "nothing was retrieved" : "no evidence reached the desk")
        }
        // The hits, best first; without hits, the scores pb-pack kept on the passages.
        var scored: [(score: Double, doc: String, source: String)] = c.hits.compactMap { h in
            Self.scaled(h.scores).map { ($0.value, h.docID, $0.source) }
        }
        if scored.isEmpty {
            var seen: Set<Int> = []
            scored = c.evidence.compactMap { e in
                guard seen.insert(e.n).inserted, let s = e.score else { return nil }
                return (1 / (1 + exp(-s)), e.docID, "evidence")
            }
        }
        guard let best = scored.max(by: { $0.score < $1.score }) else {
            return .finding(false, 0, "no hit carries a score")
        }
        let rival = scored.filter { $0.doc != best.doc }.map(\.score).max()
        let gap = rival.map { best.score - $0 } ?? best.score
        // Full credit for a gap of twice the margin; a tie halves the top score.
        let score = best.score * (0.5 + 0.5 * min(1, max(0, gap) / (2 * margin)))
        let top = String(format: "%.2f", best.score)
        let gapText = rival == nil ? "no rival document" : String(format: "%.2f over the next document", gap)
        let fromMemory = c.fromMemory
        let floor = fromMemory ? memoryMinimum : minimum
        if best.score < floor {
            return .finding(false, score, "best hit scores \(top) (\(best.source)), under \(String(format: "%.2f", floor))\(fromMemory ? " (a memory's floor)" : "")")
        }
        if gap < margin && best.score < decisive && !fromMemory {
            return .finding(false, score, "best hit scores \(top) but leads by only \(gapText)")
        }
        return .finding(true, score, "best hit scores \(top) (\(best.source)), \(gapText)")
    }
}
