import Foundation
import PBCore
import PBEndpoint

/// What a remote endpoint is sent instead of the whole desk (the minimised payload):
/// the passages by rank, each cut to an allowance, until a character budget runs out.
///
/// Every passage is granted at most `budgetChars / min(count, 8)` characters, but never less than
/// 240 (a shorter cut stops being a passage); a passage longer than its grant is cut at a word
/// boundary and marked with "…". When the budget left cannot grant the next passage its floor,
/// sending stops and the rest are counted as omitted. Short passages leave room for more, so up
/// to eight long passages, or more short ones, go out. Loopback calls do not use this: they send
/// the packed prompt unchanged.
public enum PayloadMinimizer {
    /// Most passages that share the budget evenly.
    public static let maximumShares = 8
    /// The smallest cut worth sending, in characters.
    public static let floorChars = 240

    /// One passage: the evidence pieces sharing a number, joined in source order.
    struct Passage: Equatable {
        var n: Int
        var rank: Int?
        var score: Double?
        var text: String
    }

    /// The chat messages (the context's instructions, then the kept passages and the question),
    /// the characters of evidence in them, and the number of passages left out.
    public static func minimise(_ context: PackedContext, question: String, budgetChars: Int)
        -> (messages: [ChatMessage], payloadChars: Int, omitted: Int) {
        let ranked = passages(context.evidence)
        let kept = select(ranked, budgetChars: budgetChars)
        var user = "Evidence:\n"
        for p in kept { user += "\n[\(p.n)] \(p.text)\n" }
        if kept.isEmpty { user += "\n(none)\n" }
        user += "\nQuestion: \(question)"
        var messages: [ChatMessage] = []
        if !context.instructions.isEmpty { messages.append(ChatMessage(role: "system", content: context.instructions)) }
        messages.append(ChatMessage(role: "user", content: user))
        return (messages, kept.reduce(0) { $0 + $1.text.count }, ranked.count - kept.count)
    }

    /// Each passage's grant before the budget runs low.
    public static func allowance(budgetChars: Int, passages count: Int) -> Int {
        guard count > 0 else { return 0 }
        return max(floorChars, budgetChars / min(count, maximumShares))
    }

    /// The passages in rank order, cut to their grants, up to where the budget runs out.
    static func select(_ ranked: [Passage], budgetChars: Int) -> [Passage] {
        let share = allowance(budgetChars: budgetChars, passages: ranked.count)
        var left = budgetChars
        var kept: [Passage] = []
        for p in ranked {
            let grant = min(share, left)
            if grant < min(floorChars, p.text.count) { break }
            var cut = p
            cut.text = truncate(p.text, to: grant)
            left -= cut.text.count
            kept.append(cut)
        }
        return kept
    }

    /// Groups pieces by passage number and orders passages by rank (unranked lookup passages
    /// last, by score), then by number.
    static func passages(_ evidence: [Evidence]) -> [Passage] {
        var order: [Int] = []
        var pieces: [Int: [Evidence]] = [:]
        for e in evidence {
            if pieces[e.n] == nil { order.append(e.n) }
            pieces[e.n, default: []].append(e)
        }
        let grouped = order.map { n -> Passage in
            let group = pieces[n]!.sorted { ($0.docID, $0.start) < ($1.docID, $1.start) }
            var text = ""
            for (i, piece) in group.enumerated() {
                if i > 0 {
                    let previous = group[i - 1]
                    // Neighbours that meet in the source join as the source does; a gap is marked.
                    text += previous.docID == piece.docID && previous.end == piece.start ? "" : "\n…\n"
                }
                text += piece.text
            }
            return Passage(n: n, rank: group.compactMap(\.rank).min(), score: group.compactMap(\.score).max(),
                           text: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return grouped.sorted { a, b in
            switch (a.rank, b.rank) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                let (x, y) = (a.score ?? -.infinity, b.score ?? -.infinity)
                return x != y ? x > y : a.n < b.n
            }
        }
    }

    /// `text` within `limit` characters: whole if it fits, else cut at the last space in the final
    /// quarter of the allowance (or mid-word when there is none) and ended with "…".
    static func truncate(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        guard limit > 1 else { return String(text.prefix(max(limit, 0))) }
        var cut = Substring(text.prefix(limit - 1))
        if let space = cut.lastIndex(where: \.isWhitespace), cut.distance(from: cut.startIndex, to: space) >= (limit * 3) / 4 {
            cut = cut[..<space]
        }
        while let last = cut.last, last.isWhitespace { cut.removeLast() }
        return cut + "…"
    }
}
