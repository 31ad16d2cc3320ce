import PBCore
import PBText

/// The passages being packed, in priority order (strongest first), with the bytes they hold and
/// the tokens they cost. Chunks are offered one at a time; each is cut to its new bytes, joined to
/// the passage it continues (or starts one), and kept only if the budget still holds.
public struct Desk {
    public typealias Role = EvidenceRole

    /// What became of an offered chunk.
    public enum Outcome: Equatable {
        /// On the desk, in passage `index`.
        case placed(Int)
        /// Nothing new: its bytes were all present (in passage `index`, if one holds the chunk).
        case duplicate(Int?)
        /// It would not fit in the budget.
        case overBudget
    }

    public private(set) var passages: [DeskPassage] = []
    public private(set) var coverage = DeskCoverage()
    public private(set) var dropped: [DroppedHit] = []
    /// Tokens still free for passages.
    public private(set) var room: Int
    let counter: any TokenCounter

    public init(room: Int, counter: any TokenCounter) {
        self.room = room
        self.counter = counter
    }

    /// Offers a chunk. It joins passage `into` when given, else the first passage it continues
    /// (same chunk, or the next or previous chunk of the same section), else a new passage.
    @discardableResult
    public mutating func offer(_ chunk: Hit, role: Role, rank: Int? = nil, score: Double? = nil, into: Int? = nil) -> Outcome {
        let target = into ?? passages.firstIndex { $0.adjoins(docID: chunk.docID, section: chunk.section, seq: chunk.seq, chunkID: chunk.chunkID, bytes: chunk.start..<chunk.end) }
        let pieces = coverage.newPieces(of: chunk, role: role)
        if pieces.isEmpty {
            let holder = passages.firstIndex { $0.pieces.contains { $0.chunkID == chunk.chunkID } } ?? target
            if role == Role.anchor, let holder { promote(chunk.chunkID, in: holder, rank: rank, score: score) }
            return .duplicate(holder)
        }
        let cost: Int
        var passage: DeskPassage
        if let target {
            passage = passages[target].adding(pieces)
            passage.tokens = counter.countTokens(PromptWriter.passage(passage.pieces, number: target + 1))
            cost = passage.tokens - passages[target].tokens
        } else {
            passage = DeskPassage(docID: chunk.docID, section: chunk.section, pieces: pieces, rank: rank, score: score, tokens: 0)
            passage.tokens = counter.countTokens(PromptWriter.passage(pieces, number: passages.count + 1))
            cost = passage.tokens
        }
        guard cost <= room else { return .overBudget }
        room -= cost
        for p in pieces { coverage.add(docID: p.docID, p.start..<p.end) }
        if let target {
            passages[target] = passage
            if role == Role.anchor { promote(chunk.chunkID, in: target, rank: rank, score: score) }
            return .placed(target)
        }
        passages.append(passage)
        return .placed(passages.count - 1)
    }

    /// A hit found already on the desk is an anchor there; a passage without a hit takes its rank.
    mutating func promote(_ chunkID: String, in index: Int, rank: Int?, score: Double?) {
        for i in passages[index].pieces.indices where passages[index].pieces[i].chunkID == chunkID {
            passages[index].pieces[i].role = Role.anchor
        }
        if passages[index].rank == nil, let rank {
            passages[index].rank = rank
            passages[index].score = score
        }
    }

    public mutating func drop(_ chunkID: String, _ reason: DroppedHit.Reason) {
        dropped.append(DroppedHit(chunkID: chunkID, reason: reason))
    }

    /// Joins passages that continue one another (same section, chunks or bytes next to each other): the
    /// later one folds into the earlier, which keeps its place in the priority order. A merged
    /// passage has one header instead of two, so it never costs more.
    public mutating func mergeAdjoining() {
        var i = 0
        while i < passages.count {
            var j = i + 1
            var merged = false
            while j < passages.count {
                let other = passages[j]
                if other.pieces.contains(where: { passages[i].adjoins(docID: $0.docID, section: $0.section, seq: $0.seq, chunkID: $0.chunkID, bytes: $0.start..<$0.end) }) {
                    var p = passages[i].adding(other.pieces)
                    if p.rank == nil { p.rank = other.rank; p.score = other.score }
                    p.tokens = counter.countTokens(PromptWriter.passage(p.pieces, number: i + 1))
                    room += passages[i].tokens + other.tokens - p.tokens
                    passages[i] = p
                    passages.remove(at: j)
                    merged = true
                } else {
                    j += 1
                }
            }
            if !merged { i += 1 }
        }
    }

    /// Takes the weakest passage off the desk (the last resort if a final count disagrees).
    public mutating func removeLast() {
        guard let last = passages.popLast() else { return }
        room += last.tokens
        for p in last.pieces { drop(p.chunkID, .overBudget) }
    }
}
