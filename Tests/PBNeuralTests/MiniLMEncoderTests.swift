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

    /// An encoder on each kernel path this CPU has; a path it lacks is named on standard output.
    static let encoders: [KernelPath: MiniLMEncoder] = {
        var encoders: [KernelPath: MiniLMEncoder] = [:]
        for path in KernelPath.allCases {
            guard path.isSupported else {
                print("MiniLM encoder: skipping the \(path) kernel path: this CPU lacks its instructions")
                continue
            }
            encoders[path] = try? MiniLMEncoder(modelDirectory: NeuralFixtures.modelDirectory, kernel: path)
        }
        return encoders
    }()

    func encoder(_ path: KernelPath) throws -> MiniLMEncoder? {
        guard path.isSupported else { return nil }
        // Typed as non-optional, so a path that failed to load fails the test instead of skipping it.
        let loaded: MiniLMEncoder = try #require(Self.encoders[path], "the model failed to load on the \(path) path")
        return loaded
    }

    @Test("every golden vector has cosine >= 0.9999 with the reference, on every kernel path",
          .enabled(if: NeuralFixtures.goldenFile != nil, "minilm-golden.jsonl not found"),
          arguments: KernelPath.allCases)
    func goldenVectors(path: KernelPath) throws {
        guard let encoder = try encoder(path) else { return }
        #expect(encoder.kernel == path)
        let cases = try NeuralFixtures.golden()
        #expect(cases.count == 20)
        let vectors = encoder.embed(cases.map(\.text), maxTokens: 256)
        var worst = 1.0
        for (item, vector) in zip(cases, vectors) {
            #expect(encoder.tokenizer.encode(item.text, maxTokens: 256) == item.token_ids)
            let cosine = NeuralFixtures.cosine(vector, item.vector)
            worst = min(worst, cosine)
            #expect(cosine >= 0.9999, "\(path): \(item.text.prefix(50)): cosine \(cosine)")
            let norm = vector.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
        }
        #expect(worst >= 0.9999)
    }

    /// The promise of the own paths (not of `blas`, whose rows follow the BLAS build's kernels).
    @Test("outputs are bit-identical across batch sizes, orders, micro-batching and threads",
          .enabled(if: NeuralFixtures.goldenFile != nil, "minilm-golden.jsonl not found"),
          arguments: [KernelPath.avx512, .avx2, .portable])
    func determinism(path: KernelPath) throws {
        guard let encoder = try encoder(path) else { return }
        let golden = try NeuralFixtures.golden().map(\.text)
        // The golden texts, plus long ones (several micro-batch tiles, rows past one block of A)
        // and a one-token text, so edge tiles of every size meet full ones.
        let long = golden.joined(separator: " ")
        let texts = golden + [long, String(long.prefix(700)), "ok"]
        let savedThreads = encoder.threads, savedBatch = encoder.batchTokens
        defer { encoder.threads = savedThreads; encoder.batchTokens = savedBatch }

        encoder.threads = 1
        let reference = texts.map { encoder.embed([$0])[0] }        // batch size 1

        var byThree: [[Float]] = []                                   // batch size 3
        for start in stride(from: 0, to: texts.count, by: 3) {
            byThree += encoder.embed(Array(texts[start..<min(start + 3, texts.count)]))
        }
        #expect(byThree == reference, "\(path): batches of three")
        #expect(encoder.embed(texts) == reference, "\(path): one batch")

        var generator = SeededGenerator(seed: 42)
        let permutation = Array(texts.indices).shuffled(using: &generator)
        let shuffled = encoder.embed(permutation.map { texts[$0] })
        for (position, index) in permutation.enumerated() {
            #expect(shuffled[position] == reference[index], "\(path): text \(index) differs when shuffled")
        }

        // Different packings of the same sequences into micro-batches, and two workers.
        for (threads, budget) in [(1, 1), (1, 300), (2, 64), (2, 100_000)] {
            encoder.threads = threads
            encoder.batchTokens = budget
            #expect(encoder.embed(texts) == reference, "\(path): threads \(threads), batch tokens \(budget)")
        }
        // Duplicates inside one call agree with each other.
        let twice = encoder.embed([texts[4], texts[0], texts[4]])
        #expect(twice[0] == twice[2] && twice[0] == reference[4] && twice[1] == reference[0])
        // Token states (late interaction) follow the same rows.
        let states = encoder.tokenStates([texts[2], texts[7]])
        #expect(states[0].vectors == encoder.tokenStates([texts[2]])[0].vectors)
    }

    @Test("the own paths agree with the blas reference to rounding")
    func pathsAgree() throws {
        guard let reference = try encoder(.blas) else { return }
        let texts = try NeuralFixtures.golden().map(\.text)
        let expected = reference.embed(texts)
        for path in [KernelPath.avx512, .avx2, .portable] {
            guard let encoder = try encoder(path) else { continue }
            for (a, b) in zip(encoder.embed(texts), expected) {
                #expect(NeuralFixtures.cosine(a, b) > 0.99999, "\(path) against blas")
            }
        }
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
