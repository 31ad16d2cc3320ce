import Foundation
import PBCore
import PBIndex

/// Dense search latency over synthetic unit vectors in a real (memory-mapped) vector file, next to
/// the physical floor: one pass over the rows at the memory bandwidth measured on the same machine.
public enum DenseBenchmark {
    public struct Result: Codable, Sendable {
        public var bench = "dense-search"
        public var rows: Int
        public var dim: Int
        public var queries: Int
        /// Queries scored together in one pass (1: the interactive case).
        public var batch: Int
        public var medianMs: Double
        public var p95Ms: Double
        /// The median batch time shared by its queries.
        public var perQueryMs: Double
        /// Time of one summing pass over the same mapped rows: what memory bandwidth allows.
        public var floorMs: Double
        public var bandwidthGBs: Double
        /// Median time per query over the floor (below 1: a batch shares one pass over the rows).
        public var ratioToFloor: Double

        enum CodingKeys: String, CodingKey {
            case bench, rows, dim, queries, batch
            case medianMs = "median_ms", p95Ms = "p95_ms", perQueryMs = "per_query_ms", floorMs = "floor_ms", bandwidthGBs = "bandwidth_gb_s", ratioToFloor = "ratio_to_floor"
        }
    }

    /// Fills a vector file in `directory` with `rows` random unit vectors (deterministic seed).
    public static func makeFile(directory: URL, rows: Int, dim: Int) throws -> VectorFile {
        let path = directory.appendingPathComponent("bench-\(rows).f32").path
        try? FileManager.default.removeItem(atPath: path)
        let file = try VectorFile(path: path, committedRows: 0, create: (dim: dim, model: "synthetic", weights: ""))
        var rng = SeededGenerator(seed: 42)
        let block = 8192
        var done = 0
        while done < rows {
            let n = min(block, rows - done)
            var values = [Float](repeating: 0, count: n * dim)
            for r in 0..<n {
                var norm: Float = 0
                for d in 0..<dim { let x = rng.nextFloat() - 0.5; values[r * dim + d] = x; norm += x * x }
                let inv = 1 / norm.squareRoot()
                for d in 0..<dim { values[r * dim + d] *= inv }
            }
            _ = try file.append(values)
            done += n
        }
        return file
    }

    public static func run(file: VectorFile, queries: Int, batch: Int, k: Int = 10) throws -> Result {
        let rows = try file.mapped()
        let dim = file.dim
        // Warm the page cache and measure the floor: a plain summing pass over the rows.
        var floors: [Double] = []
        var sink: Float = 0
        for _ in 0..<5 {
            let t = Date()
            var acc = SIMD16<Float>()
            let base = UnsafeRawPointer(rows.baseAddress!)
            let n16 = rows.count / 16
            for i in 0..<n16 { acc += base.loadUnaligned(fromByteOffset: i * 64, as: SIMD16<Float>.self) }
            sink += acc.sum()
            floors.append(Date().timeIntervalSince(t) * 1000)
        }
        let floor = floors.min()!
        var rng = SeededGenerator(seed: 7)
        let searcher = DenseSearcher(dim: dim)
        var times: [Double] = []
        var done = 0
        while done < queries {
            let n = min(batch, queries - done)
            let qs = (0..<n).map { _ in (0..<dim).map { _ in rng.nextFloat() - 0.5 } }
            let t = Date()
            let hits = searcher.search(rows: rows, queries: qs, k: k) { _, _ in true }
            times.append(Date().timeIntervalSince(t) * 1000)
            sink += hits.first?.first?.score ?? 0
            done += n
        }
        times.sort()
        let median = times[times.count / 2]
        let p95 = times[min(times.count - 1, Int(Double(times.count) * 0.95))]
        if sink.isNaN { Diagnostics.shared.note("") } // keeps the passes from being optimised away
        let bytes = Double(rows.count * 4)
        return Result(rows: rows.count / dim, dim: dim, queries: queries, batch: batch,
                      medianMs: round3(median), p95Ms: round3(p95), perQueryMs: round3(median / Double(batch)), floorMs: round3(floor),
                      bandwidthGBs: round3(bytes / (floor / 1000) / 1e9), ratioToFloor: round3(median / Double(batch) / floor))
    }

    static func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}
