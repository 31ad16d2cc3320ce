import CKernels
import PBNeural

/// Exact dense search: one pass over the memory-mapped rows per batch of queries.
///
/// Rows are scored a block at a time on PocketBrains' own kernels (KernelPath.vectorPath): one
/// scan of dot products for a single query, a packed matrix product (block × dim by dim ×
/// queries) for several, so the rows are read from memory once per batch however many queries it
/// holds. Each query keeps its own top k over the rows it may see (live rows that pass its
/// filters). Vectors are unit length, so the dot product is the cosine.
public struct DenseSearcher {
    public let dim: Int
    static let block = 4096

    public init(dim: Int) { self.dim = dim }

    /// For each query, up to `k` (row, score) pairs, best first. `allowed(q, row)` says whether row
    /// may be returned for query q (dead rows, filters); it is asked only for rows that would enter.
    public func search(rows: UnsafeBufferPointer<Float>, queries: [[Float]], k: Int,
                       allowed: (Int, Int) -> Bool) -> [[(row: Int, score: Float)]] {
        let n = rows.count / dim
        let q = queries.count
        guard n > 0, q > 0, k > 0 else { return Array(repeating: [], count: q) }
        let path = KernelPath.vectorPath
        var qmat = [Float](repeating: 0, count: q * dim)
        for (i, v) in queries.enumerated() { qmat.replaceSubrange(i * dim..<(i + 1) * dim, with: v) }
        // Several queries: the right-hand operand is the queries, packed once (B = Qᵀ, so k_stride
        // 1 and n_stride dim); scores come out as [block rows × queries].
        var packed: [Float] = []
        var work: [Float] = []
        if q > 1 {
            packed = [Float](repeating: 0, count: pbk_packed_size(path, Int32(q), Int32(dim)))
            work = [Float](repeating: 0, count: pbk_work_size(path))
            qmat.withUnsafeBufferPointer { src in
                packed.withUnsafeMutableBufferPointer { pbk_pack(path, src.baseAddress!, 1, dim, Int32(q), Int32(dim), $0.baseAddress!) }
            }
        }
        var heaps = (0..<q).map { _ in TopK(k) }
        var scores = [Float](repeating: 0, count: Self.block * q)
        var start = 0
        while start < n {
            let m = min(Self.block, n - start)
            let a = rows.baseAddress! + start * dim
            scores.withUnsafeMutableBufferPointer { out in
                if q == 1 {
                    qmat.withUnsafeBufferPointer { pbk_dot_rows(path, a, Int32(m), Int32(dim), dim, $0.baseAddress!, out.baseAddress!) }
                } else {
                    packed.withUnsafeBufferPointer { b in
                        work.withUnsafeMutableBufferPointer { w in
                            pbk_gemm(path, Int32(m), Int32(q), Int32(dim), a, dim, b.baseAddress!, out.baseAddress!, q,
                                     pbk_epilogue(bias: nil, row_scale: nil, accumulate: 0, gelu: 0), w.baseAddress!)
                        }
                    }
                }
            }
            for j in 0..<q {
                var t = heaps[j].threshold
                for r in 0..<m {
                    let s = scores[r * q + j]
                    if s > t, allowed(j, start + r) {
                        heaps[j].insert(s, Int32(start + r))
                        t = heaps[j].threshold
                    }
                }
            }
            start += m
        }
        return heaps.map { $0.sorted().map { (row: Int($0.id), score: $0.score) } }
    }
}
