import PBText
import PBCore
import PBNeural

/// Reorders one query's hits: score each with the linear model over `RerankFeatures`, drop those
/// under the best score minus a margin, keep at most `perDoc` passages per document, then pick
/// `k` by maximal marginal relevance. Every removed candidate is listed in `dropped` with why.
public struct Reranker: Sendable {
    public struct Settings: Sendable, Equatable {
        public var k = 10
        public var lambda = 0.55
        public var perDoc = 2
        /// In logit units: a candidate scoring this far under the best is dropped.
        public var margin = 8.0
        public var weights = RerankWeights.defaults
        /// For hits from a memory (pb-recall's, with their messages): these, unless nil (a
        /// `--weights` file is for every hit).
        public var memoryWeights: RerankWeights? = RerankWeights.memory
        /// Hits a cross-encoder (`--model`) rescores, the feature model's best.
        public var modelDepth = 20
        public init() {}

        /// The lambda and per-document cap of a mode (fast, standard, deep).
        public static func forMode(_ mode: Mode) -> (lambda: Double, perDoc: Int) {
            switch mode {
            case .fast: return (0.60, 2)
            case .standard: return (0.55, 2)
            case .deep: return (0.50, 3)
            }
        }
    }

    public var settings: Settings
    /// A cross-encoder that rescores the best `settings.modelDepth` hits of the feature model.
    public let crossEncoder: CrossEncoder?

    public init(settings: Settings, crossEncoder: CrossEncoder? = nil) {
        self.settings = settings
        self.crossEncoder = crossEncoder
    }

    public func rerank(_ record: QueryRecord) -> QueryRecord {
        var out = record
        guard let all = record.hits, !all.isEmpty else { return out }
        let features = RerankFeatures(query: record.text)
        var hits = all
        let weights = (all.allSatisfy { $0.source != nil } ? settings.memoryWeights : nil) ?? settings.weights
        var scores = features.vectors(hits).map { weights.score($0) }
        var dropped = record.dropped ?? []
        if let crossEncoder {
            // The model reads query and passage together: far better, far dearer (one forward
            // pass per pair), so it sees only the feature model's best few; the rest are dropped.
            let byFeatures = hits.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            let depth = Array(byFeatures.prefix(settings.modelDepth)).sorted()
            for i in byFeatures.dropFirst(settings.modelDepth) {
                dropped.append(DroppedHit(chunkID: hits[i].chunkID, reason: .beyondK))
            }
            hits = depth.map { hits[$0] }
            scores = crossEncoder.scores(query: record.text, passages: hits.map(\.text))
        }
        // Best first; ties keep pb-search's order.
        let order = hits.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        let best = scores[order[0]]
        var kept: [Int] = []
        var perDoc: [String: Int] = [:]
        for i in order {
            if scores[i] < best - settings.margin {
                dropped.append(DroppedHit(chunkID: hits[i].chunkID, reason: .belowMargin))
            } else if perDoc[hits[i].docID, default: 0] >= settings.perDoc {
                dropped.append(DroppedHit(chunkID: hits[i].chunkID, reason: .perDocCap))
            } else {
                perDoc[hits[i].docID, default: 0] += 1
                kept.append(i)
            }
        }
        let mmr = MaximalMarginalRelevance(lambda: settings.lambda)
        let terms = kept.map { Set(TermAnalyzer.contentTokens(hits[$0].title + " " + hits[$0].text)) }
        let picked = mmr.select(relevance: kept.map { scores[$0] }, terms: terms, k: settings.k).map { kept[$0] }
        let pickedSet = Set(picked)
        for i in kept where !pickedSet.contains(i) {
            dropped.append(DroppedHit(chunkID: hits[i].chunkID, reason: .beyondK))
        }
        // A memory hit whose successor was cut keeps it: the current state of what the question
        // found must not be left out while the state it replaced stays.
        var final = picked
        let position = Dictionary(hits.indices.map { (hits[$0].chunkID, $0) }, uniquingKeysWith: { a, _ in a })
        for i in picked {
            if let next = hits[i].supersededBy, let j = position[next], !final.contains(j) {
                final.append(j)
                dropped.removeAll { $0.chunkID == next }
            }
        }
        let ranked = final.enumerated().map { n, i in
            var h = hits[i]
            h.scores.rerank = (scores[i] * 1e6).rounded() / 1e6
            h.rank = n + 1
            return h
        }
        out.hits = SupersessionOrder.arrange(ranked, question: record.text)
        out.dropped = dropped.isEmpty ? nil : dropped
        return out
    }
}
