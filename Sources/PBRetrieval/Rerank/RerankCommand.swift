import Foundation
import PBCore
import PBNeural

/// pb-rerank: query records with `hits` in, the same records out with the hits rescored,
/// filtered and reordered (`scores.rerank`, `rank`, `dropped`).
public enum RerankCommand {
    public static let spec = CommandSpec(
        name: "pb-rerank",
        summary: "rerank search hits with a fitted linear model, a safety margin, a per-document cap and MMR",
        operands: "[FILE ...]",
        options: [
            OptionSpec("k", value: "N", help: "hits kept per query (default 10; a query's own k wins)"),
            OptionSpec("mode", short: "m", value: "MODE", help: "fast, standard or deep: MMR lambda 0.60, 0.55, 0.50 (default standard; a query's own mode wins)"),
            OptionSpec("lambda", value: "L", help: "MMR lambda in 0...1, overriding the mode's (1 is pure relevance)"),
            OptionSpec("per-doc", value: "N", help: "passages kept per document (default 2; 3 in deep mode)"),
            OptionSpec("margin", value: "M", help: "drop hits scoring more than M under the best (default 8, in logit units)"),
            OptionSpec("weights", value: "FILE", help: "model weights as JSON, for every hit (default: the built-in fits, Evals/rerank/weights.json, and memory-weights.json for a memory's hits)"),
            OptionSpec("model", value: "DIR", help: "a BERT cross-encoder (safetensors with a classifier head) to rescore the best hits"),
            OptionSpec("model-depth", value: "N", help: "hits the cross-encoder rescores, the feature model's best (default 20)"),
            OptionSpec("features", help: "write each query's feature vectors (a 'features' record) instead of reranking"),
            OptionSpec("keep-going", help: "write an error record for a bad query and go on (exit 65 at the end)"),
        ])

    /// A `features` record: what --features writes, what Evals/rerank/fit.py reads.
    public struct FeatureRecord: Encodable {
        public struct Row: Encodable {
            var chunk_id: String
            var doc_id: String
            var path: String
            var x: [Double]
        }
        var kind = "features"
        var id: JSONValue?
        var names = RerankFeatures.names
        var hits: [Row]
    }

    public static func run(_ o: ParsedOptions) throws -> ExitCode {
        let mode = try Mode.option(o)
        let lambdaOverride = o.value("lambda") == nil ? nil : try o.double("lambda", default: 0.55, in: 0...1)
        let perDocOverride = o.value("per-doc") == nil ? nil : try o.int("per-doc", default: 2, in: 1...10_000)
        var base = Reranker.Settings()
        base.k = try o.int("k", default: 10, in: 1...10_000)
        base.margin = try o.double("margin", default: 8, in: 0...1_000_000)
        if let path = o.value("weights") {
            base.weights = try RerankWeights.load(path: path)
            base.memoryWeights = nil
        }
        base.modelDepth = try o.int("model-depth", default: 20, in: 1...10_000)
        let crossEncoder = try o.value("model").map { try openCrossEncoder($0) }
        let dumpFeatures = o.flag("features")
        let codec = RecordCodec()
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        return try loop.run(try RecordLoop.readers(for: o.operands)) { line in
            let q = try codec.decode(QueryRecord.self, from: line.data)
            if dumpFeatures {
                let hits = q.hits ?? []
                let x = RerankFeatures(query: q.text).vectors(hits)
                let rows = zip(hits, x).map { FeatureRecord.Row(chunk_id: $0.chunkID, doc_id: $0.docID, path: $0.path, x: $1.map { ($0 * 1e6).rounded() / 1e6 }) }
                try NDJSONWriter.standardOutput.writeValue(FeatureRecord(id: q.id, hits: rows))
                return
            }
            var s = base
            let m = Reranker.Settings.forMode(try Mode.of(record: q.mode, else: mode))
            s.lambda = lambdaOverride ?? m.lambda
            s.perDoc = perDocOverride ?? m.perDoc
            if let k = q.k {
                guard k >= 1 else { throw ToolFailure(.badInput, "k: expected a positive integer, got \(k)") }
                s.k = k
            }
            try NDJSONWriter.standardOutput.write(Reranker(settings: s, crossEncoder: crossEncoder).rerank(q))
        }
    }

    /// A missing folder or file is status 66; a folder that is not a cross-encoder, 69.
    static func openCrossEncoder(_ path: String) throws -> CrossEncoder {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw ToolFailure(.cannotOpen, "--model: no folder \(path)")
        }
        do {
            return try CrossEncoder(modelDirectory: URL(fileURLWithPath: path))
        } catch let e as ToolFailure {
            throw e
        } catch {
            throw ToolFailure(.unavailable, "--model: \(path): \(error)")
        }
    }
}
