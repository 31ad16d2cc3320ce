import Foundation
import Testing
@testable import PBNeural
import PBText

@Suite("late interaction over token states", .serialized, .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
struct LateInteractionTests {
    static let encoder: MiniLMEncoder? = try? MiniLMEncoder(modelDirectory: NeuralFixtures.modelDirectory)

    func loadEncoder() throws -> MiniLMEncoder {
        try #require(Self.encoder, "the model folder exists but the encoder failed to load")
    }

    let texts = [
        "Aspirin lowers the risk of a second heart attack.",
        "The Normans were descended from Norse raiders who settled in northern France in the 10th century.",
        "",
        "Metformin is the first drug given for type 2 diabetes.",
    ]

    @Test("token states come from the same pass as the pooled vector: pooled equals embed bit for bit")
    func pooledMatchesEmbed() throws {
        let encoder = try loadEncoder()
        let states = encoder.tokenStates(texts)
        let vectors = encoder.embed(texts)
        #expect(states.count == texts.count)
        for (state, vector) in zip(states, vectors) {
            #expect(state.pooled == vector)
        }
    }

    @Test("one unit-length row per token, ids as the tokenizer encodes them")
    func rowsPerToken() throws {
        let encoder = try loadEncoder()
        for (text, state) in zip(texts, encoder.tokenStates(texts)) {
            #expect(state.ids == encoder.tokenizer.encode(text))
            #expect(state.vectors.count == state.count * state.dimension)
            #expect(state.textPositions.count == state.count - 2)
            for t in 0..<state.count {
                let row = state.vectors[(t * state.dimension)..<((t + 1) * state.dimension)]
                let norm = row.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
                #expect(abs(norm - 1) < 1e-4)
            }
        }
    }

    @Test("a text against itself scores 1; order and batch do not change token states")
    func selfMatchAndDeterminism() throws {
        let encoder = try loadEncoder()
        let forward = encoder.tokenStates(texts)
        let backward = encoder.tokenStates(Array(texts.reversed()))
        for (a, b) in zip(forward, backward.reversed()) { #expect(a.vectors == b.vectors) }
        let s = LateInteraction.maxSim(query: forward[0], document: forward[0])
        #expect(abs(s - 1) < 1e-4)
    }

    @Test("MaxSim ranks the passage that answers above unrelated ones")
    func ranksRelevantFirst() throws {
        let encoder = try loadEncoder()
        let query = encoder.tokenStates(["which drug treats type 2 diabetes first"])[0]
        let docs = encoder.tokenStates([texts[0], texts[1], texts[3]])
        let scores = docs.map { LateInteraction.maxSim(query: query, document: $0) }
        #expect(scores[2] > scores[0] && scores[2] > scores[1], "\(scores)")
        #expect(scores.allSatisfy { $0 > -1 && $0 <= 1 })
    }

    @Test("an empty document matches nothing; no query positions give no matches")
    func emptyCases() throws {
        let encoder = try loadEncoder()
        let states = encoder.tokenStates([texts[0], texts[2]])
        let matches = LateInteraction.bestMatches(query: states[0], document: states[1], queryPositions: states[0].textPositions)
        #expect(matches.count == states[0].count - 2)
        #expect(matches.allSatisfy { $0 == -1 })
        #expect(LateInteraction.bestMatches(query: states[0], document: states[0], queryPositions: []).isEmpty)
        #expect(LateInteraction.maxSim(query: states[1], document: states[0]) == 0)
    }
}
