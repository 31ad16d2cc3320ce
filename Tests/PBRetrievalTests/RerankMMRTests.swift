import Foundation
import Testing
@testable import PBCore
@testable import PBRetrieval

@Suite struct MaximalMarginalRelevanceTests {
    @Test func jaccard() {
        #expect(MaximalMarginalRelevance.jaccard(["a", "b"], ["b", "c"]) == 1.0 / 3)
        #expect(MaximalMarginalRelevance.jaccard([], []) == 0)
        #expect(MaximalMarginalRelevance.jaccard(sorted: [1, 2, 3], [2, 3, 4]) == 0.5)
    }

    @Test func pureRelevanceKeepsScoreOrder() {
        let terms: [Set<String>] = [["a"], ["a"], ["b"]]
        let order = MaximalMarginalRelevance(lambda: 1).select(relevance: [3, 2, 1], terms: terms, k: 3)
        #expect(order == [0, 1, 2])
    }

    @Test func nearDuplicateGivesWayToANewPassage() {
        // 1 repeats 0 word for word; 2 is a little less relevant but new.
        let terms: [Set<String>] = [["pump", "drain", "e24"], ["pump", "drain", "e24"], ["filter", "clean"]]
        let order = MaximalMarginalRelevance(lambda: 0.55).select(relevance: [1.0, 0.95, 0.8], terms: terms, k: 2)
        #expect(order == [0, 2])
        #expect(MaximalMarginalRelevance(lambda: 0.55).select(relevance: [1], terms: [["a"]], k: 0) == [])
    }
}
