import Foundation
import PBCore

/// Gate E, semantic grounding: whether each answer sentence means what the evidence it cites
/// says, measured with all-MiniLM-L6-v2 sentence vectors (cosines of unit vectors).
///
/// Three tests per sentence s with cited quotes q (and the desk sentences inside each quote's
/// span): absolute, max cos(s, q) reaches `minimum`;
/// relative to the desk, it is not far below the best cos(s, e) over every evidence sentence e
/// (a citation to the wrong sentence when a better one was there); relative to the question, it
/// is not far below cos(s, question) (an answer that restates the question and cites something
/// else). And once per answer: the question is on the topic of the cited evidence.
public struct SemanticGroundingGate: VerificationGate {
    public static let letter = Gate.grounding
    /// Cosine an answer sentence must reach with what it cites.
    public var minimum = 0.45
    /// How far under the best evidence sentence the cited one may be.
    public var deskGap = 0.25
    /// How far under the question the cited evidence may be.
    public var questionGap = 0.15
    /// Cosine the question must reach with some sentence of the cited passages.
    public var topical = 0.25
    /// ... or this from a memory: a conversation's turns are short and chatty, and MiniLM puts
    /// "what does Melanie do to destress?" at 0.21 from "Been running longer - a great way to
    /// destress". On LoCoMo's tuning split, 0.20 withheld 2.5% fewer answerable questions and
    /// abstained 0.8% fewer adversarial ones than 0.25.
    public var memoryTopical = 0.20

    public init() {}

    public func check(_ c: VerificationCase) -> GateResult {
        guard let v = c.vectors else { return .finding(false, 0, "no sentence encoder to compare meanings with") }
        let sentences = c.answer.sentences
        guard !sentences.isEmpty, v.sentences.count == sentences.count else {
            return .finding(false, 0, "the answer has no sentences")
        }
        let cited = Set(c.citedPassages)
        var topic = 0.0
        for (k, i) in v.evidenceIndex.enumerated() where cited.contains(c.evidenceSentences[i].n) {
            topic = max(topic, UnitVectors.cosine(v.question, v.evidence[k]))
        }
        for q in v.quotes.values { topic = max(topic, UnitVectors.cosine(v.question, q)) }

        var scores: [Double] = []
        var problems: [String] = []
        for (i, s) in sentences.enumerated() {
            let vec = v.sentences[i]
            // What the sentence cites: each quote, and each desk sentence inside a quote's span
            // (a quote may hold several sentences; the answer sentence need match only one).
            var grounding = s.cites.compactMap { v.quotes[$0] }.map { UnitVectors.cosine(vec, $0) }.max() ?? 0
            for citation in c.citations(of: s) {
                for (k, e) in v.evidenceIndex.enumerated() {
                    let es = c.evidenceSentences[e]
                    if es.chunkID == citation.chunkID, es.start < citation.end, citation.start < es.end {
                        grounding = max(grounding, UnitVectors.cosine(vec, v.evidence[k]))
                    }
                }
            }
            let best = v.evidence.map { UnitVectors.cosine(vec, $0) }.max() ?? grounding
            let asked = UnitVectors.cosine(vec, v.question)
            let shortfall = max(0, best - grounding - deskGap) + max(0, asked - grounding - questionGap)
            scores.append(max(0, grounding - shortfall))
            let label = "sentence \(i + 1)"
            if grounding < minimum {
                problems.append("\(label) resembles its evidence at \(Self.format(grounding))")
            } else if best - grounding > deskGap {
                problems.append("\(label) is closer to uncited evidence (\(Self.format(best)) against \(Self.format(grounding)))")
            } else if asked - grounding > questionGap {
                problems.append("\(label) is closer to the question (\(Self.format(asked))) than to its evidence (\(Self.format(grounding)))")
            }
        }
        let mean = scores.reduce(0, +) / Double(scores.count)
        let score = 0.8 * mean + 0.2 * max(0, topic)
        // "What is in my documents?" has no topic to share: its answer is the library's catalogue.
        if topic < (c.fromMemory ? memoryTopical : topical), !c.isCatalogue {
            problems.append("the question and the cited evidence share no topic (\(Self.format(topic)))")
        }
        if problems.isEmpty {
            return .finding(true, score, "answer resembles its evidence at \(Self.format(mean)); question and evidence at \(Self.format(topic))")
        }
        return .finding(false, score, problems.prefix(2).joined(separator: "; "))
    }

    static func format(_ x: Double) -> String { String(format: "%.2f", x) }
}
