/// Why a piece of evidence is on the desk (`context.evidence[].role`).
public enum EvidenceRole: String, ClosedSet {
    /// A reranked hit.
    case anchor
    /// Read around an anchor (small-to-big).
    case neighbour
    /// A section an anchor points at ("see section 4.2").
    case reference
    /// A section read in turn for a summary question.
    case section
    /// Rare question terms next to numbers, for lookup questions.
    case lookup
    /// Another file's line stating an anchor's amount under the same name (the bank statement's
    /// line for a receipt's total).
    case link
    /// A search hit verified without a packed context (pb-verify on hits alone).
    case hit
}
