import CBLAS
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Throughput of the encoder on real text next to the sgemm speed of the same machine, so a
/// figure can be read against the roofline (MiniLM is almost all matrix products).
public enum EncoderBenchmark {
    public struct Result: Sendable, Codable {
        public var threads: Int
        public var documents: Int
        public var tokens: Int
        public var seconds: Double
        public var tokensPerSecond: Double
        public var documentsPerSecond: Double
        /// Time of `MiniLMEncoder(modelDirectory:)` (mapping, header, vocabulary, fingerprint).
        public var loadSeconds: Double
        /// sgemm on encoder-shaped operands (1024 x 1536 x 384), OpenBLAS at `threads` threads.
        public var sgemmGFLOPS: Double
        /// Model FLOPs per second achieved, over `sgemmGFLOPS`.
        public var rooflineFraction: Double
        /// Peak resident set of the process so far, in MiB.
        public var peakRSSMiB: Double
        /// OpenBLAS's kernel family for this processor (nil for another BLAS).
        public var blasCore: String?
    }

    /// Multiply-adds ×2 per token: six layers of four 384×384 and two 384×1536 projections, plus
    /// attention's two L×384 products per token (L = the sequence's length).
    public static func flopsPerToken(sequenceLength length: Int, hidden: Int = 384, intermediate: Int = 1536,
                                     layers: Int = 6) -> Double {
        let projections = 2.0 * Double(4 * hidden * hidden + 2 * hidden * intermediate)
        let attention = 2.0 * Double(2 * length * hidden)
        return Double(layers) * (projections + attention)
    }

    /// `title + " " + text` of the first `limit` records of a BEIR-style corpus.jsonl.
    public static func loadCorpus(_ url: URL, limit: Int) throws -> [String] {
        let data = try Data(contentsOf: url)
        var texts: [String] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where texts.count < limit {
            guard let record = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
            let title = record["title"] as? String ?? ""
            let text = record["text"] as? String ?? ""
            texts.append(title + " " + text)
        }
        return texts
    }

    /// Embeds `texts` once per entry of `threadCounts` (after one warm-up pass over a few texts)
    /// and measures sgemm with the same thread count.
    public static func run(modelDirectory: URL, texts: [String], maxTokens: Int = 256,
                           threadCounts: [Int] = [1, 2], batchTokens: Int? = nil) throws -> [Result] {
        let loadStart = DispatchTime.now()
        let encoder = try MiniLMEncoder(modelDirectory: modelDirectory)
        let loadSeconds = seconds(since: loadStart)
        if let batchTokens { encoder.batchTokens = batchTokens }

        let ids = texts.map { encoder.tokenizer.encode($0, maxTokens: maxTokens) }
        let tokens = ids.reduce(0) { $0 + $1.count }
        let flops = ids.reduce(0.0) { $0 + Double($1.count) * flopsPerToken(sequenceLength: $1.count) }
        _ = encoder.embed(Array(texts.prefix(16)), maxTokens: maxTokens)

        var results: [Result] = []
        for threads in threadCounts {
            encoder.threads = threads
            let start = DispatchTime.now()
            // Tokenisation is part of the measured work, as it is for pb-embed.
            let vectors = encoder.embed(texts, maxTokens: maxTokens)
            let elapsed = seconds(since: start)
            precondition(vectors.count == texts.count)
            let gflops = sgemmGFLOPS(threads: threads)
            results.append(Result(
                threads: threads, documents: texts.count, tokens: tokens, seconds: elapsed,
                tokensPerSecond: Double(tokens) / elapsed, documentsPerSecond: Double(texts.count) / elapsed,
                loadSeconds: loadSeconds, sgemmGFLOPS: gflops,
                rooflineFraction: flops / elapsed / 1e9 / gflops, peakRSSMiB: peakRSSMiB(), blasCore: BLASThreads.coreName))
        }
        return results
    }

    /// sgemm GFLOP/s on the encoder's FFN shape (C[1024,1536] = A[1024,384] · B[1536,384]^T),
    /// best of a few timed rounds of about 0.2 s each, with OpenBLAS at `threads` threads.
    public static func sgemmGFLOPS(threads: Int, m: Int = 1024, n: Int = 1536, k: Int = 384) -> Double {
        // Any finite values do; a multiplicative hash is cheaper than the system generator.
        let a = (0..<(m * k)).map { Float(($0 &* 2_654_435_761) & 0xFFFF) / 32768 - 1 }
        let b = (0..<(n * k)).map { Float(($0 &* 40_503) & 0xFFFF) / 32768 - 1 }
        var c = [Float](repeating: 0, count: m * n)
        return BLASThreads.withThreads(threads) {
            func call() {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k), 1,
                            a, Int32(k), b, Int32(k), 0, &c, Int32(n))
            }
            call()
            var best = 0.0
            for _ in 0..<3 {
                var calls = 0
                let start = DispatchTime.now()
                repeat { call(); calls += 1 } while seconds(since: start) < 0.2
                best = max(best, 2.0 * Double(m * n * k) * Double(calls) / seconds(since: start) / 1e9)
            }
            return best
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func peakRSSMiB() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_maxrss) / 1024 // kilobytes on Linux
    }
}
