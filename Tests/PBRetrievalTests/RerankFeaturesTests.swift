import Foundation
import Testing
@testable import PBCore
@testable import PBRetrieval

@Suite struct RerankFeaturesTests {
    func named(_ x: [Double]) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: zip(RerankFeatures.names, x))
    }

    @Test func scoresAreScaledWithinTheQuery() {
        let hits = [
            RerankFixture.hit("a", text: "x", bm25: 10, bm25Rank: 1, dense: 0.8, denseRank: 2, fused: 0.03),
            RerankFixture.hit("b", text: "x", bm25: 5, bm25Rank: 2, dense: 0.4, denseRank: 1, fused: 0.015),
            RerankFixture.hit("c", text: "x", dense: 0.6, denseRank: 3, fused: 0.01),
        ]
        let x = RerankFeatures(query: "dishwasher").vectors(hits).map(named)
        #expect(x[0]["bm25"] == 1 && x[1]["bm25"] == 0.5 && x[2]["bm25"] == 0)
        #expect(x[0]["bm25_rank"] == 1 && x[2]["bm25_rank"] == 0)
        #expect(x[1]["dense_rank"] == 1 && x[0]["dense_rank"] == 0.5)
        #expect(x[0]["dense"] == 1 && x[1]["dense"] == 0 && abs(x[2]["dense"]! - 0.5) < 1e-12)
        #expect(x[0]["fused"] == 1 && x[1]["fused"] == 0.5)
    }

    @Test func coverageProximityTitleSectionPhrase() {
        let f = RerankFeatures(query: "dishwasher error E24 drain")
        #expect(f.queryTerms == ["dishwasher", "error", "e24", "drain"])
        let close = RerankFixture.hit("a", title: "Dishwasher manual", section: ["Errors"],
                                      text: "Error E24 means the pump cannot drain the water.")
        let x = named(RerankFeatures.names.prefix(5).map { _ in 0.0 } + f.textFeatures(close))
        #expect(x["coverage"] == 1)            // dishwasher from the title, the rest from the text
        // error, e24, drain in "error e24 mean the pump cannot drain": 7 tokens.
        #expect(abs(x["proximity"]! - 3.0 / 7) < 1e-12)
        #expect(x["title"] == 0.25)
        #expect(x["section"] == 0.25)          // "Errors" stems to "error"
        // Query bigrams: dishwasher-error, error-e24, e24-drain; only error-e24 is adjacent.
        #expect(abs(x["phrase"]! - 1.0 / 3) < 1e-12)
        #expect(x["number"] == 0)              // not a lookup question
        let far = RerankFixture.hit("b", text: "Error codes are listed at the end of this long manual, and the pump may drain.")
        let y = named(RerankFeatures.names.prefix(5).map { _ in 0.0 } + f.textFeatures(far))
        #expect(y["coverage"] == 0.5)
        #expect(y["proximity"]! < x["proximity"]!)
        #expect(y["phrase"] == 0 && y["title"] == 0)
    }

    @Test func numbersNextToQueryTermsCountOnlyForLookups() {
        let hit = RerankFixture.hit("a", text: "The recommended dose is 500 mg twice daily.")
        let lookup = RerankFeatures(query: "what dose of aspirin").textFeatures(hit)
        #expect(lookup[5] == 1)
        let notLookup = RerankFeatures(query: "aspirin recommended").textFeatures(hit)
        #expect(notLookup[5] == 0)
        #expect(RerankFeatures.numberNear(["a", "b", "c", "d", "e", "7"], terms: ["a"], within: 3) == false)
        #expect(RerankFeatures.numberNear(["a", "b", "c", "7"], terms: ["a"], within: 3))
    }

    @Test func smallestWindowSlides() {
        let t = ["a", "x", "b", "x", "x", "a", "b"]
        #expect(RerankFeatures.smallestWindow(t, holding: ["a", "b"]) == 2)
        #expect(RerankFeatures.smallestWindow(["a", "x", "x", "b"], holding: ["a", "b"]) == 4)
    }

    @Test func emptyQueryGivesZeroTextFeatures() {
        let f = RerankFeatures(query: "***")
        #expect(f.textFeatures(RerankFixture.hit("a", text: "anything")) == [0, 0, 0, 0, 0, 0])
    }
}
