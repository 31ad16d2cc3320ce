import PBCore

/// The ranked lists pb-recall fuses (`--lists`, `--weights`, and the keys of an explained
/// query's `lists`).
public enum RecallList: String, ClosedSet, CustomStringConvertible {
    /// Items by the cosine of their embedding to the question's.
    case meaning
    /// Items by BM25 over their own words.
    case words
    /// Items by BM25 over the whole messages they came from.
    case messages
    /// Items said in the span of time the question asks about.
    case time
    /// The named speaker's own items, in the fused order.
    case speaker

    public var description: String { rawValue }
}
