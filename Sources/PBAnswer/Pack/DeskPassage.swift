import PBCore

/// One numbered passage on the desk: pieces of one section of one document, in source order
/// (an anchor with the neighbours read around it, or a lookup or reference chunk), and what the
/// passage costs in prompt tokens.
public struct DeskPassage: Sendable {
    public var docID: String
    public var section: [String]
    public var pieces: [Evidence]
    /// The rank and score of the strongest hit in the passage (nil for a lookup or reference
    /// passage that holds no hit).
    public var rank: Int?
    public var score: Double?
    /// Tokens of the passage as rendered in the prompt (header and pieces).
    public var tokens: Int

    public init(docID: String, section: [String], pieces: [Evidence], rank: Int?, score: Double?, tokens: Int) {
        self.docID = docID
        self.section = section
        self.pieces = pieces
        self.rank = rank
        self.score = score
        self.tokens = tokens
    }

    /// Whether a chunk of `docID` in `section` at `seq`, spanning `bytes`, continues this passage:
    /// it is the same chunk as a piece, the next or previous chunk of the section, or its bytes
    /// touch a piece's (a chunk between them may have been all overlap, hence all on the desk).
    public func adjoins(docID: String, section: [String], seq: Int?, chunkID: String, bytes: Range<Int>) -> Bool {
        guard docID == self.docID else { return false }
        if pieces.contains(where: { $0.chunkID == chunkID }) { return true }
        guard section == self.section else { return false }
        return pieces.contains { p in
            if let seq, let s = p.seq, abs(s - seq) <= 1 { return true }
            return bytes.lowerBound <= p.end + Self.touching && p.start <= bytes.upperBound + Self.touching
        }
    }

    /// Bytes between two pieces that still count as touching: the whitespace between sentences.
    static let touching = 3

    /// `pieces` plus `more`, in source order.
    public func adding(_ more: [Evidence]) -> DeskPassage {
        var p = self
        p.pieces = (pieces + more).sorted { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
        return p
    }
}
