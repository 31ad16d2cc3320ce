import Foundation
import Testing
@testable import PBNeural

/// Throughput on the first 1,000 SciFact documents; runs only with PB_BENCH=1 (and a release
/// build to mean anything: `PB_BENCH=1 swift test -c release --filter EncoderBenchmarkTests`).
/// PB_BENCH_CORPUS overrides the corpus, PB_BENCH_DOCS the document count.
@Suite("encoder benchmark")
struct EncoderBenchmarkTests {
    static let environment = ProcessInfo.processInfo.environment

    static let corpus: URL = {
        if let path = environment["PB_BENCH_CORPUS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return NeuralFixtures.packageRoot.appendingPathComponent("Evals/data/scifact/corpus.jsonl")
    }()

    @Test(.enabled(if: environment["PB_BENCH"] == "1", "set PB_BENCH=1 to run the benchmark"),
          .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
    func scifactThroughput() throws {
        let documents = Int(Self.environment["PB_BENCH_DOCS"] ?? "") ?? 1000
        let texts = try EncoderBenchmark.loadCorpus(Self.corpus, limit: documents)
        let batchTokens = Int(Self.environment["PB_BENCH_BATCH_TOKENS"] ?? "")
        let results = try EncoderBenchmark.run(modelDirectory: NeuralFixtures.modelDirectory, texts: texts,
                                               threadCounts: [1, 2], batchTokens: batchTokens)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for result in results {
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
            #expect(result.tokensPerSecond > 0)
        }
    }

    @Test("OpenBLAS names the kernels it chose, so speed figures can be read")
    func namesTheBLASKernels() {
        // The product links the system's libblas; on these machines that is OpenBLAS.
        if BLASThreads.isOpenBLAS {
            let name = BLASThreads.coreName
            #expect(name != nil && !(name ?? "").isEmpty)
        } else {
            #expect(BLASThreads.coreName == nil)
        }
    }
}
