import CBLAS

/// Exact dense search: one pass over the memory-mapped rows per batch of queries.
///
/// Rows are scored a block at a time with sgemm (block × dim by dim × queries), so the rows are
/// read from memory once per batch however many queries it holds; each query keeps its own top k
/// over the rows it may see (live rows that pass its filters). Vectors are unit length, so the dot
/// product is the cosine.
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
        var qmat = [Float](repeating: 0, count: q * dim)
        for (i, v) in queries.enumerated() { qmat.replaceSubrange(i * dim..<(i + 1) * dim, with: v) }
        var heaps = (0..<q).map { _ in TopK(k) }
        var scores = [Float](repeating: 0, count: Self.block * q)
        var start = 0
        while start < n {
            let m = min(Self.block, n - start)
            let a = rows.baseAddress! + start * dim
            if q == 1 {
                cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(m), Int32(dim), 1, a, Int32(dim), qmat, 1, 0, &scores, 1)
            } else {
                // scores[q × m] = queries[q × dim] · rowsᵀ[dim × m]: each query's scores contiguous.
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(q), Int32(m), Int32(dim), 1,
                            qmat, Int32(dim), a, Int32(dim), 0, &scores, Int32(m))
            }
            for j in 0..<q {
                var t = heaps[j].threshold
                let base = j * m
                for r in 0..<m {
                    let s = scores[base + r]
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
