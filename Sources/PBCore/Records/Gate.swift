/// pb-verify's nine gates, each by the letter a verdict keys its result with (pb-verify(1) lists
/// them in this order).
public enum Gate: String, ClosedSet, CodingKeyRepresentable, CustomStringConvertible {
    case retrieval = "A"
    case coverage = "B"
    case numbers = "C"
    case contradictions = "D"
    case grounding = "E"
    case quotes = "F"
    case wellFormed = "G"
    case completeness = "H"
    case isolation = "I"

    /// The letter, as verdicts and messages write it.
    public var description: String { rawValue }
}
