/// The one-line account pb-index prints on standard error when it ends.
public struct IndexSummary: Codable, Sendable, Equatable {
    public var program = "pb-index"
    public var library: String
    /// New documents.
    public var added = 0
    /// Documents whose content changed and were re-indexed.
    public var replaced = 0
    /// Documents already indexed with the same content.
    public var skipped = 0
    /// Documents refused because they were deleted earlier with this content (use --restore).
    public var tombstoned = 0
    /// Documents removed by --prune because this run did not bring them.
    public var pruned = 0
    /// Error records from upstream: documents that could not be read (kept, not pruned), or a
    /// stage that failed as a whole (then nothing is pruned).
    public var failed = 0
    public var chunks = 0
    public var vectors = 0
    public var seconds = 0.0

    public init(library: String) { self.library = library }
}
