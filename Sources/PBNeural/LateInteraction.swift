import CBLAS

/// MaxSim late interaction (ColBERT's scoring) over MiniLM token states: each query token is
/// matched to its most similar document token, and the matches are averaged. Unlike one pooled
/// vector per text, it sees whether every part of the query has a counterpart in the document,
/// which is what a reranker and an answer check both want to know.
public enum LateInteraction {
    /// For each query position in `queryPositions`, the best cosine with any text token of the
    /// document (−1 when the document has none). One sgemm of query rows by document rows.
    public static func bestMatches(query: TokenStates, document: TokenStates, queryPositions: [Int]) -> [Float] {
        precondition(query.dimension == document.dimension, "late interaction: dimensions differ")
        let columns = document.textPositions
        guard !queryPositions.isEmpty else { return [] }
        guard !columns.isEmpty else { return Array(repeating: -1, count: queryPositions.count) }
        let d = query.dimension, m = queryPositions.count, n = columns.count
        // Gather the rows used: the document's text tokens and the chosen query tokens.
        var q = [Float](repeating: 0, count: m * d)
        var t = [Float](repeating: 0, count: n * d)
        query.vectors.withUnsafeBufferPointer { source in
            for (row, position) in queryPositions.enumerated() {
                for j in 0..<d { q[row * d + j] = source[position * d + j] }
            }
        }
        document.vectors.withUnsafeBufferPointer { source in
            for (row, position) in columns.enumerated() {
                for j in 0..<d { t[row * d + j] = source[position * d + j] }
            }
        }
        var similarity = [Float](repeating: 0, count: m * n)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(d), 1, q, Int32(d),
                    t, Int32(d), 0, &similarity, Int32(n))
        return (0..<m).map { row in similarity[(row * n)..<((row + 1) * n)].max() ?? -1 }
    }

    /// The mean best match over `queryPositions` (all text tokens of the query when nil): the
    /// MaxSim score normalised by the query's length, in −1...1.
    public static func maxSim(query: TokenStates, document: TokenStates, queryPositions: [Int]? = nil) -> Float {
        let matches = bestMatches(query: query, document: document, queryPositions: queryPositions ?? query.textPositions)
        guard !matches.isEmpty else { return 0 }
        return matches.reduce(0, +) / Float(matches.count)
    }
}
