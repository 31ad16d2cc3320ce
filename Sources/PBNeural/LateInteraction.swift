import CKernels

/// MaxSim late interaction (ColBERT's scoring) over MiniLM token states: each query token is
/// matched to its most similar document token, and the matches are averaged. Unlike one pooled
/// vector per text, it sees whether every part of the query has a counterpart in the document,
/// which is what a reranker and an answer check both want to know.
public enum LateInteraction {
    /// For each query position in `queryPositions`, the best cosine with any text token of the
    /// document (−1 when the document has none): one scan of the document's rows per query token.
    public static func bestMatches(query: TokenStates, document: TokenStates, queryPositions: [Int]) -> [Float] {
        precondition(query.dimension == document.dimension, "late interaction: dimensions differ")
        let columns = document.textPositions
        guard !queryPositions.isEmpty else { return [] }
        guard !columns.isEmpty else { return Array(repeating: -1, count: queryPositions.count) }
        let d = query.dimension
        // The text tokens as runs of consecutive rows (one run for [CLS] text [SEP]), each scanned
        // in place: no copy of the states.
        var runs: [(start: Int, count: Int)] = []
        for p in columns {
            if let last = runs.last, last.start + last.count == p { runs[runs.count - 1].count += 1 } else { runs.append((p, 1)) }
        }
        var similarity = [Float](repeating: 0, count: columns.count)
        return query.vectors.withUnsafeBufferPointer { q in
            document.vectors.withUnsafeBufferPointer { t in
                queryPositions.map { position in
                    similarity.withUnsafeMutableBufferPointer { out in
                        var filled = 0
                        for run in runs {
                            pbk_dot_rows(KernelPath.vectorPath, t.baseAddress! + run.start * d, Int32(run.count), Int32(d), d,
                                         q.baseAddress! + position * d, out.baseAddress! + filled)
                            filled += run.count
                        }
                    }
                    return similarity.max() ?? -1
                }
            }
        }
    }

    /// The mean best match over `queryPositions` (all text tokens of the query when nil): the
    /// MaxSim score normalised by the query's length, in −1...1.
    public static func maxSim(query: TokenStates, document: TokenStates, queryPositions: [Int]? = nil) -> Float {
        let matches = bestMatches(query: query, document: document, queryPositions: queryPositions ?? query.textPositions)
        guard !matches.isEmpty else { return 0 }
        return matches.reduce(0, +) / Float(matches.count)
    }
}
