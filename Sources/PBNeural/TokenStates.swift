import PBText

/// One encoded sequence with every token's last-layer state kept: what late interaction
/// (`LateInteraction`) compares, token against token, instead of one pooled vector each.
public struct TokenStates: Sendable {
    /// The ids encoded, `[CLS] … [SEP]` for text.
    public let ids: [Int32]
    public let dimension: Int
    /// `ids.count` rows of `dimension` floats, each of unit length.
    public let vectors: [Float]
    /// The mean-pooled, unit-length sentence vector (what `embed` returns for the same ids).
    public let pooled: [Float]

    public var count: Int { ids.count }

    public init(ids: [Int32], dimension: Int, vectors: [Float], pooled: [Float]) {
        precondition(vectors.count == ids.count * dimension, "token states: \(vectors.count) floats for \(ids.count) tokens")
        self.ids = ids
        self.dimension = dimension
        self.vectors = vectors
        self.pooled = pooled
    }

    /// Positions of the tokens that carry text (not [CLS], [SEP] or padding).
    public var textPositions: [Int] {
        ids.indices.filter { ![WordPieceTokenizer.cls, WordPieceTokenizer.sep, WordPieceTokenizer.pad].contains(ids[$0]) }
    }
}
