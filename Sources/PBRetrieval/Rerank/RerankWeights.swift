import Foundation
import PBCore

/// The reranker's linear model: score = bias + Σ weight × feature (a logit; the fit is logistic).
/// The defaults are the numbers in Evals/rerank/weights.json, fitted by Evals/rerank/fit.py on
/// the tuning half of SciFact train; `--weights FILE` reads another file of the same shape.
public struct RerankWeights: Codable, Equatable, Sendable {
    public var bias: Double
    /// Feature name to weight; a feature missing here weighs 0, an unknown name is an error.
    public var weights: [String: Double]

    public init(bias: Double, weights: [String: Double]) {
        self.bias = bias
        self.weights = weights
    }

    /// Fitted on 415 tuning queries (41,500 candidates, 538 relevant); refit with Evals/rerank/fit.py.
    public static let defaults = RerankWeights(bias: -8.498028, weights: [
        "bm25": 2.164185, "bm25_rank": 1.619844, "dense": 3.172847, "dense_rank": 0.814154, "fused": 0.933661, "coverage": 0.873444, "proximity": 0.008417, "title": 1.19408, "section": 0.0, "phrase": 0.999971, "number": 0.079156, "order": 0.0,
    ])

    /// For a memory's hits (pb-recall's): Evals/rerank/memory-weights.json, chosen by
    /// Evals/rerank/fit-memory.py on LoCoMo's tuning split (the first five conversations):
    /// pb-recall's own order, which a logistic fit over every feature did not beat (evidence
    /// recall@1 0.406 against the fit's 0.400 and the document weights' 0.362). The document
    /// weights know nothing of a time asked about, a named speaker or a reply.
    public static let memory = RerankWeights(bias: 0, weights: Dictionary(uniqueKeysWithValues: RerankFeatures.names.map { ($0, $0 == "order" ? 1.0 : 0.0) }))

    /// The weights in `RerankFeatures.names` order.
    public var vector: [Double] { RerankFeatures.names.map { weights[$0] ?? 0 } }

    public func score(_ x: [Double]) -> Double {
        var s = bias
        for (w, v) in zip(vector, x) { s += w * v }
        return s
    }

    /// Reads a weights file (JSON object with `bias` and `weights`; other keys are ignored).
    public static func load(path: String) throws -> RerankWeights {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure(.cannotOpen, "--weights: cannot open '\(path)'")
        }
        let w: RerankWeights
        do {
            w = try JSONDecoder().decode(RerankWeights.self, from: data)
        } catch {
            throw ToolFailure(.badInput, "--weights: \(path): expected {\"bias\": number, \"weights\": {name: number}}")
        }
        let unknown = Set(w.weights.keys).subtracting(RerankFeatures.names)
        guard unknown.isEmpty else {
            throw ToolFailure(.badInput, "--weights: \(path): unknown feature '\(unknown.sorted()[0])'")
        }
        return w
    }
}
