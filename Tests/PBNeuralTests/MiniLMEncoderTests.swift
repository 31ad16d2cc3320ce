import CBLAS
import Foundation
import Testing
import PBCore
@testable import PBNeural
import PBText

@Suite("MiniLM encoder", .serialized, .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
struct MiniLMEncoderTests {
    static let encoder: MiniLMEncoder? = try? MiniLMEncoder(modelDirectory: NeuralFixtures.modelDirectory)

    func loadEncoder() throws -> MiniLMEncoder {
        try #require(Self.encoder, "the model folder exists but the encoder failed to load")
    }

    @Test("metadata of the loaded model")
    func metadata() throws {
        let encoder = try loadEncoder()
        #expect(encoder.dimension == 384)
        #expect(encoder.modelID == "all-MiniLM-L6-v2")
        #expect(encoder.weightsHash.count == 64)
        let again = try MiniLMEncoder(modelDirectory: NeuralFixtures.modelDirectory)
        #expect(again.weightsHash == encoder.weightsHash)
    }

    @Test("every golden vector has cosine >= 0.9999 with the reference",
          .enabled(if: NeuralFixtures.goldenFile != nil, "minilm-golden.jsonl not found"))
    func goldenVectors() throws {
        let encoder = try loadEncoder()
        let cases = try NeuralFixtures.golden()
        #expect(cases.count == 20)
        let vectors = encoder.embed(cases.map(\.text), maxTokens: 256)
        var worst = 1.0
        for (item, vector) in zip(cases, vectors) {
            #expect(encoder.tokenizer.encode(item.text, maxTokens: 256) == item.token_ids)
            let cosine = NeuralFixtures.cosine(vector, item.vector)
            worst = min(worst, cosine)
            #expect(cosine >= 0.9999, "\(item.text.prefix(50)): cosine \(cosine)")
            let norm = vector.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
        }
        #expect(worst >= 0.9999)
    }

    @Test("outputs are bit-identical across batch sizes, orders, micro-batching and threads",
          .enabled(if: NeuralFixtures.goldenFile != nil, "minilm-golden.jsonl not found"))
    func determinism() throws {
        let encoder = try loadEncoder()
        let texts = try NeuralFixtures.golden().map(\.text)
        let savedThreads = encoder.threads, savedBatch = encoder.batchTokens
        defer { encoder.threads = savedThreads; encoder.batchTokens = savedBatch }

        encoder.threads = 1
        let reference = texts.map { encoder.embed([$0])[0] }        // batch size 1

        var byThree: [[Float]] = []                                   // batch size 3
        for start in stride(from: 0, to: texts.count, by: 3) {
            byThree += encoder.embed(Array(texts[start..<min(start + 3, texts.count)]))
        }
        #expect(byThree == reference)
        #expect(encoder.embed(texts) == reference)                   // batch size 20

        var generator = SeededGenerator(seed: 42)
        let permutation = Array(texts.indices).shuffled(using: &generator)
        let shuffled = encoder.embed(permutation.map { texts[$0] })
        for (position, index) in permutation.enumerated() {
            #expect(shuffled[position] == reference[index], "text \(index) differs when shuffled")
        }

        // Different packings of the same sequences into micro-batches, and two workers.
        for (threads, budget) in [(1, 1), (1, 300), (2, 64), (2, 100_000)] {
            encoder.threads = threads
            encoder.batchTokens = budget
            #expect(encoder.embed(texts) == reference, "threads \(threads), batch tokens \(budget)")
        }
        // Duplicates inside one call agree with each other.
        let twice = encoder.embed([texts[4], texts[0], texts[4]])
        #expect(twice[0] == twice[2] && twice[0] == reference[4] && twice[1] == reference[0])
    }

    @Test("token-id input: empty and out-of-vocabulary sequences")
    func tokenIDEdgeCases() throws {
        let encoder = try loadEncoder()
        let vectors = encoder.embed(tokenIDs: [[], [101, 99_999, 102], [101, 100, 102], [101, -5, 102]])
        #expect(vectors[0] == [Float](repeating: 0, count: 384))
        #expect(vectors[1] == vectors[2] && vectors[3] == vectors[2])
        #expect(encoder.embed([String]()).isEmpty)
    }

    @Test("over-long id sequences are cut to the position table")
    func sanitizeCutsLongSequences() {
        let long = [Int32](repeating: 1037, count: 600)
        #expect(MiniLMEncoder.sanitize(long, vocabulary: 30522, maxPositions: 512) == Array(long.prefix(512)))
        #expect(MiniLMEncoder.sanitize([101, 30522, 7, 102], vocabulary: 30522, maxPositions: 512) == [101, 100, 7, 102])
    }
}

@Suite("sgemm row independence")
struct SGEMMRowTests {
    /// The encoder relies on a row's product not depending on how many rows share the sgemm call
    /// (after `EncoderWorkspace.paddedRows`). This checks that on the BLAS actually loaded.
    @Test func rowResultsDoNotDependOnRowCount() {
        let k = 384, n = 1536
        var generator = SeededGenerator(seed: 7)
        let b = (0..<(n * k)).map { _ in Float.random(in: -1...1, using: &generator) }
        let maxRows = 700
        let a = (0..<(maxRows * k)).map { _ in Float.random(in: -1...1, using: &generator) }

        func product(rows: Int, first: Int) -> [Float] {
            // `rows` real rows starting at row `first` of `a`, padded as the encoder pads.
            let padded = EncoderWorkspace.paddedRows(rows)
            var input = [Float](repeating: 0, count: padded * k)
            input.replaceSubrange(0..<(rows * k), with: a[(first * k)..<((first + rows) * k)])
            var c = [Float](repeating: 0, count: padded * n)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(padded), Int32(n), Int32(k), 1,
                        input, Int32(k), b, Int32(k), 0, &c, Int32(n))
            return Array(c[0..<(rows * n)])
        }

        let all = product(rows: maxRows, first: 0)
        for (rows, first) in [(1, 0), (2, 5), (7, 100), (33, 1), (64, 17), (65, 3), (129, 200), (300, 399)] {
            let part = product(rows: rows, first: first)
            #expect(part == Array(all[(first * n)..<((first + rows) * n)]), "rows \(rows) from \(first)")
        }
        BLASThreads.withThreads(2) {
            #expect(product(rows: maxRows, first: 0) == all, "two OpenBLAS threads")
        }
    }
}

