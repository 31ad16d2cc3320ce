import Foundation
import Testing
@testable import PBCore
@testable import PBRetrieval

@Suite struct RerankerTests {
    /// Weights that score by fused alone, so the tests control the order.
    static func settings(k: Int = 10, perDoc: Int = 2, margin: Double = 8, lambda: Double = 1) -> Reranker.Settings {
        var s = Reranker.Settings()
        s.k = k
        s.perDoc = perDoc
        s.margin = margin
        s.lambda = lambda
        s.weights = RerankWeights(bias: 0, weights: ["fused": 10])
        return s
    }

    @Test func reordersRenumbersAndScores() {
        let q = RerankFixture.query("pump", [
            RerankFixture.hit("a", text: "pump", fused: 0.5, rank: 1),
            RerankFixture.hit("b", text: "drain", fused: 1.0, rank: 2),
        ])
        let out = Reranker(settings: Self.settings()).rerank(q)
        #expect(out.hits?.map(\.chunkID) == ["b", "a"])
        #expect(out.hits?.map(\.rank) == [1, 2])
        #expect(out.hits?.map(\.scores.rerank) == [10, 5])
        #expect(out.dropped == nil)
        #expect(out.text == q.text && out.id == q.id)
    }

    @Test func capsPassagesPerDocument() {
        let q = RerankFixture.query("pump", [
            RerankFixture.hit("d1-0", doc: "d1", text: "a", fused: 1.0),
            RerankFixture.hit("d1-1", doc: "d1", text: "b", fused: 0.9),
            RerankFixture.hit("d1-2", doc: "d1", text: "c", fused: 0.8),
            RerankFixture.hit("d2-0", doc: "d2", text: "d", fused: 0.7),
        ])
        let out = Reranker(settings: Self.settings(perDoc: 2)).rerank(q)
        #expect(out.hits?.map(\.chunkID) == ["d1-0", "d1-1", "d2-0"])
        #expect(out.dropped == [DroppedHit(chunkID: "d1-2", reason: .perDocCap)])
    }

    @Test func dropsUnderTheMarginAndBeyondK() {
        var earlier = RerankFixture.query("pump", [
            RerankFixture.hit("a", text: "a", fused: 1.0),   // 10
            RerankFixture.hit("b", text: "b", fused: 0.8),   // 8
            RerankFixture.hit("c", text: "c", fused: 0.7),   // 7
            RerankFixture.hit("d", text: "d", fused: 0.1),   // 1: more than 5 under 10
        ])
        earlier.dropped = [DroppedHit(chunkID: "z", reason: .other("filtered"))]
        let out = Reranker(settings: Self.settings(k: 2, margin: 5)).rerank(earlier)
        #expect(out.hits?.map(\.chunkID) == ["a", "b"])
        #expect(out.dropped == [
            DroppedHit(chunkID: "z", reason: .other("filtered")),
            DroppedHit(chunkID: "d", reason: .belowMargin),
            DroppedHit(chunkID: "c", reason: .beyondK),
        ])
    }

    @Test func mmrPassesOverANearDuplicate() {
        let q = RerankFixture.query("pump", [
            RerankFixture.hit("a", doc: "d1", text: "the drain pump is blocked", fused: 1.0),
            RerankFixture.hit("b", doc: "d2", text: "the drain pump is blocked", fused: 0.99),
            RerankFixture.hit("c", doc: "d3", text: "clean the filter weekly", fused: 0.9),
        ])
        let out = Reranker(settings: Self.settings(k: 2, lambda: 0.5)).rerank(q)
        #expect(out.hits?.map(\.chunkID) == ["a", "c"])
        #expect(out.dropped == [DroppedHit(chunkID: "b", reason: .beyondK)])
    }

    @Test func recordsWithoutHitsPassThrough() {
        let q = QueryRecord(text: "nothing")
        #expect(Reranker(settings: Self.settings()).rerank(q) == q)
        var empty = q
        empty.hits = []
        #expect(Reranker(settings: Self.settings()).rerank(empty) == empty)
    }

    @Test func modesSetLambda() {
        #expect(Reranker.Settings.forMode(.fast).lambda == 0.60)
        #expect(Reranker.Settings.forMode(.standard).lambda == 0.55)
        #expect(Reranker.Settings.forMode(.deep).lambda == 0.50)
        #expect(Mode(rawValue: "turbo") == nil)
    }
}
