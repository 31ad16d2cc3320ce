import PBCore
import PBText

/// Memory hits keep one order whatever ranks them: an item another one replaced (its
/// `superseded_by`) sits right below the item that replaced it, unless the question asks for the
/// earlier state, when it sits right above. pb-recall ranks this way, and pb-rerank keeps it.
public enum SupersessionOrder {
    /// Words in a question that ask for the state before a change.
    public static let earlierCues: Set<String> = ["original", "originally", "first", "old", "before", "previous", "previously",
                                                  "initially", "earlier", "initial", "formerly", "prior"]

    public static func asksForEarlier(_ question: String) -> Bool {
        !Set(LexicalQuery.terms(question)).isDisjoint(with: earlierCues)
    }

    /// The hits reordered so that each superseded hit follows (or, for an earlier-state
    /// question, precedes) its successor when both are in the list; ranks renumbered.
    public static func arrange(_ hits: [Hit], question: String) -> [Hit] {
        guard hits.contains(where: { $0.supersededBy != nil }) else { return hits }
        let earlier = asksForEarlier(question)
        let byID = Dictionary(hits.map { ($0.chunkID, $0) }, uniquingKeysWith: { a, _ in a })
        var predecessor: [String: String] = [:]
        for h in hits { if let next = h.supersededBy, byID[next] != nil { predecessor[next] = h.chunkID } }
        var out: [Hit] = []
        var placed: Set<String> = []
        func put(_ id: String) { if placed.insert(id).inserted, let h = byID[id] { out.append(h) } }
        for h in hits where !placed.contains(h.chunkID) {
            if earlier {
                var chain: [String] = []
                var id = h.chunkID
                while let p = predecessor[id], !placed.contains(p), chain.count < 64 { chain.append(p); id = p }
                chain.reversed().forEach(put)
                put(h.chunkID)
            } else {
                // The latest state in the list of this one's chain goes first.
                var head = h.chunkID
                var steps = 0
                while let next = byID[head]?.supersededBy, byID[next] != nil, !placed.contains(next), steps < 64 { head = next; steps += 1 }
                if head != h.chunkID { put(head) }
                put(h.chunkID)
            }
        }
        for i in out.indices { out[i].rank = i + 1 }
        return out
    }
}
