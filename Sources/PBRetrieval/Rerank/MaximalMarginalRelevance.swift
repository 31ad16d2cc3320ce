/// Maximal marginal relevance: repeatedly take the candidate with the best
/// λ·relevance − (1−λ)·(its highest similarity to anything already taken).
///
/// pb-search's hits carry no vectors, so similarity is the Jaccard overlap of the passages'
/// content terms (stemmed, stopwords out): near-duplicate passages score near 1, unrelated ones
/// near 0. Relevance is the reranker's score scaled to 0...1 over the candidates, so λ weighs
/// two quantities on the same scale.
public struct MaximalMarginalRelevance: Sendable {
    public var lambda: Double

    public init(lambda: Double) { self.lambda = lambda }

    public static func jaccard(_ a: Set<String>, _ b: Set<String>) -> Double {
        if a.isEmpty && b.isEmpty { return 0 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }

    static func jaccard(sorted a: [Int], _ b: [Int]) -> Double {
        if a.isEmpty && b.isEmpty { return 0 }
        var i = 0, j = 0, common = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { common += 1; i += 1; j += 1 } else if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return Double(common) / Double(a.count + b.count - common)
    }

    /// Indices of up to `k` candidates in selection order. `relevance` is any score (higher is
    /// better); ties keep the input order.
    public func select(relevance: [Double], terms: [Set<String>], k: Int) -> [Int] {
        let n = relevance.count
        guard n > 0, k > 0 else { return [] }
        let lo = relevance.min()!, hi = relevance.max()!
        // Terms as sorted integer ids: Jaccard by merging, without hashing strings n² times.
        var ids: [String: Int] = [:]
        let sets: [[Int]] = terms.map { set in set.map { t in ids[t] ?? { ids[t] = ids.count; return ids.count - 1 }() }.sorted() }
        let rel = relevance.map { hi > lo ? ($0 - lo) / (hi - lo) : 1 }
        var maxSim = [Double](repeating: 0, count: n)
        var taken = [Bool](repeating: false, count: n)
        var order: [Int] = []
        while order.count < min(k, n) {
            var best = -1
            var bestValue = -Double.infinity
            for i in 0..<n where !taken[i] {
                let v = lambda * rel[i] - (1 - lambda) * maxSim[i]
                if v > bestValue { bestValue = v; best = i }
            }
            taken[best] = true
            order.append(best)
            if lambda < 1 {
                for i in 0..<n where !taken[i] {
                    maxSim[i] = max(maxSim[i], Self.jaccard(sorted: sets[i], sets[best]))
                }
            }
        }
        return order
    }
}
