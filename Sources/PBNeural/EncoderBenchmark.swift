import CBLASRuntime
import CKernels
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
        /// The encoder's kernel path, and the processor it ran on (figures mean little without both).
        public var kernel: String
        public var cpu: String
        /// The matrix product on encoder-shaped operands (1024 x 1536 x 384) on that path: one
        /// product per thread at once for the own kernels (as the encoder runs them), OpenBLAS at
        /// `threads` threads for `blas`; total GFLOP/s.
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
                           threadCounts: [Int] = [1, 2], batchTokens: Int? = nil, kernel: KernelPath? = nil) throws -> [Result] {
        let loadStart = DispatchTime.now()
        let encoder = try MiniLMEncoder(modelDirectory: modelDirectory, kernel: kernel)
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
            let gflops = encoder.kernel == .blas ? sgemmGFLOPS(threads: threads)
                : gemmGFLOPS(encoder.kernel, threads: threads)
            results.append(Result(
                threads: threads, documents: texts.count, tokens: tokens, seconds: elapsed,
                tokensPerSecond: Double(tokens) / elapsed, documentsPerSecond: Double(texts.count) / elapsed,
                loadSeconds: loadSeconds, kernel: encoder.kernel.rawValue, cpu: cpuName, sgemmGFLOPS: gflops,
                rooflineFraction: flops / elapsed / 1e9 / gflops, peakRSSMiB: peakRSSMiB(),
                blasCore: encoder.kernel == .blas ? BLASThreads.coreName : nil))
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
        guard pbb_available() != 0 else { return 0 }
        return BLASThreads.withThreads(threads) {
            func call() {
                pbb_sgemm(1, Int32(m), Int32(n), Int32(k), 1,
                            a, Int32(k), b, Int32(k), 0, &c, Int32(n))
            }
            return bestRate(flops: 2.0 * Double(m * n * k), call)
        }
    }

    /// GFLOP/s of `call` (which does `flops` of work): one warm-up call, then the best of three
    /// rounds of about 0.2 s.
    static func bestRate(flops: Double, _ call: () -> Void) -> Double {
        call()
        var best = 0.0
        for _ in 0..<3 {
            var calls = 0
            let start = DispatchTime.now()
            repeat { call(); calls += 1 } while seconds(since: start) < 0.2
            best = max(best, flops * Double(calls) / seconds(since: start) / 1e9)
        }
        return best
    }

    /// One shape of the encoder's products on an own kernel path, next to the FMA peak.
    public struct GEMMResult: Sendable, Codable {
        public var kernel: String
        public var cpu: String
        public var threads: Int
        public var m, n, k: Int
        /// What the product is in the encoder.
        public var role: String
        public var gflops: Double
        /// This machine's fused multiply-add peak on the path (a register-only loop), all threads.
        public var fmaPeakGFLOPS: Double
        public var peakFraction: Double
    }

    /// The encoder's four weight products at `m` tokens, on `kernel`, with `threads` products
    /// running at once (one per worker, as the encoder runs them).
    public static func gemmShapes(_ kernel: KernelPath, threads: Int, m: Int = 1024) -> [GEMMResult] {
        guard let path = kernel.ownPath else { return [] }
        let peak = fmaPeak(path, threads: threads)
        let shapes = [(1152, 384, "qkv"), (384, 384, "attention output"), (1536, 384, "feed-forward in"),
                      (384, 1536, "feed-forward out")]
        return shapes.map { n, k, role in
            let gflops = gemmGFLOPS(kernel, threads: threads, m: m, n: n, k: k)
            return GEMMResult(kernel: kernel.rawValue, cpu: cpuName, threads: threads, m: m, n: n, k: k, role: role, gflops: gflops,
                              fmaPeakGFLOPS: peak, peakFraction: gflops / peak)
        }
    }

    /// The processor's model name from /proc/cpuinfo ("unknown" elsewhere).
    public static let cpuName: String = {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }()

    /// The FMA loop on `threads` cores at once, summed.
    public static func fmaPeak(_ path: Int32, threads: Int) -> Double {
        let total = Tally()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in total.add(pbk_fma_peak_gflops(path, 0.3)) }
        return total.value
    }

    /// A sum that concurrent workers add to.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var sum = 0.0
        func add(_ x: Double) { lock.withLock { sum += x } }
        var value: Double { lock.withLock { sum } }
    }

    /// Read-only operands shared by the workers of a measurement.
    private struct SharedOperand: @unchecked Sendable {
        let pointer: UnsafePointer<Float>
    }

    /// GFLOP/s of C[m, n] = A[m, k] B[k, n] on an own path (weights packed as the encoder packs
    /// them), `threads` independent products at once, best of a few rounds of about 0.2 s.
    public static func gemmGFLOPS(_ kernel: KernelPath, threads: Int, m: Int = 1024, n: Int = 1536, k: Int = 384) -> Double {
        guard let path = kernel.ownPath else { return sgemmGFLOPS(threads: threads, m: m, n: n, k: k) }
        let a = (0..<(m * k)).map { Float(($0 &* 2_654_435_761) & 0xFFFF) / 32768 - 1 }
        let w = (0..<(n * k)).map { Float(($0 &* 40_503) & 0xFFFF) / 32768 - 1 }
        let packedBytes = pbk_packed_size(path, Int32(n), Int32(k)) * 4
        let packed = UnsafeMutableRawPointer.allocate(byteCount: packedBytes, alignment: 64)
        defer { packed.deallocate() }
        let b = packed.bindMemory(to: Float.self, capacity: packedBytes / 4)
        pbk_pack(path, w, 1, k, Int32(n), Int32(k), b)
        let total = Tally()
        let shared = SharedOperand(pointer: UnsafePointer(b))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let b = shared.pointer
            var c = [Float](repeating: 0, count: m * n)
            let workBytes = pbk_work_size(path) * 4
            let work = UnsafeMutableRawPointer.allocate(byteCount: workBytes, alignment: 64)
            defer { work.deallocate() }
            let scratch = work.bindMemory(to: Float.self, capacity: workBytes / 4)
            func call() {
                pbk_gemm(path, Int32(m), Int32(n), Int32(k), a, k, b, &c, n, pbk_epilogue(), scratch)
            }
            total.add(bestRate(flops: 2.0 * Double(m * n * k), call))
        }
        return total.value
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
