// `make bench`'s Swift half: dense search latency over synthetic rows and the encoder's
// throughput, as JSON lines. Not installed; the shell half (Evals/bench/run.sh) times the programs.
// `PBBench maxsim` is Evals/rerank/late.sh's measuring tool instead: see LateInteractionProbe.
import Foundation
import PBCore
import PBNeural
import PBRetrieval

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "maxsim" {
    exit(LateInteractionProbe.run())
}
// `PBBench embed CORPUS [N]` times the encoder alone on the first N documents (default 1,000),
// for comparing BLAS kernels or threads by hand without the dense half.
let embedOnly = arguments.first == "embed"
let rest = embedOnly ? Array(arguments.dropFirst()) : arguments
let scratch = URL(fileURLWithPath: rest.first ?? NSTemporaryDirectory())
let corpus = embedOnly ? scratch : (rest.count > 1 ? URL(fileURLWithPath: rest[1]) : nil)
let limit = embedOnly && rest.count > 1 ? Int(rest[1]) ?? 1000 : 1000
let writer = NDJSONWriter.standardOutput
do {
    // The encoder first: its peak RSS must not include the dense half's mapped million rows.
    if let corpus {
        let environment = PBEnvironment()
        let texts = try EncoderBenchmark.loadCorpus(corpus, limit: limit)
        for r in try EncoderBenchmark.run(modelDirectory: environment.modelDirectory, texts: texts) {
            try writer.writeValue(BenchLine(bench: "embed", result: r))
        }
        // The encoder's products on the path in use, one and two at once, next to the FMA peak.
        let kernel = try KernelPath.configured()
        for threads in [1, 2] {
            for g in EncoderBenchmark.gemmShapes(kernel, threads: threads) {
                try writer.writeValue(BenchLine(bench: "gemm", result: g))
            }
        }
    }
    guard !embedOnly else { exit(0) }
    for rows in [100_000, 1_000_000] {
        let file = try DenseBenchmark.makeFile(directory: scratch, rows: rows, dim: 384)
        try writer.writeValue(try DenseBenchmark.run(file: file, queries: 60, batch: 1))
        try writer.writeValue(try DenseBenchmark.run(file: file, queries: 256, batch: 64))
        try? FileManager.default.removeItem(atPath: file.path)
    }
} catch {
    Diagnostics.shared.error("\(error)")
    exit(74)
}

/// An encoder result tagged like the other lines.
struct BenchLine<R: Encodable>: Encodable {
    var bench: String
    var result: R

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(bench, forKey: Key("bench"))
        try result.encode(to: encoder)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
