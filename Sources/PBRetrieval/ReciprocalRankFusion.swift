/// Reciprocal rank fusion: each list votes 1/(k + rank) for its items (rank from 1); the votes add.
/// A larger k damps the top ranks so that agreement between lists beats one list's confidence
/// (Cormack et al. use 60; pb-search uses 20, SearchCommand.Settings says why). Ties break by the
/// best single rank, then by id, so output is deterministic.
public struct ReciprocalRankFusion: Sendable {
    public var k: Double

    public init(k: Double = 60) { self.k = k }

    /// Fused (id, score) pairs, best first.
    public func fuse(_ lists: [[Int64]]) -> [(id: Int64, score: Double)] {
        var score: [Int64: Double] = [:]
        var best: [Int64: Int] = [:]
        for list in lists {
            for (i, id) in list.enumerated() {
                score[id, default: 0] += 1.0 / (k + Double(i + 1))
                best[id] = min(best[id] ?? Int.max, i + 1)
            }
        }
        return score.map { (id: $0.key, score: $0.value) }.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if best[a.id]! != best[b.id]! { return best[a.id]! < best[b.id]! }
            return a.id < b.id
        }
    }
}
