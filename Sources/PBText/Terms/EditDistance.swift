/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring elements each count one ("bolier" is one from "boiler"). The one measure the
/// spelling corrector, WordNet's nearest words and the contact book's name matching share.
public enum EditDistance {
    /// The distance between `a` and `b`; with `limit`, `limit + 1` as soon as it must exceed it
    /// (a scan over a lexicon stops early on words that cannot be near).
    public static func optimalAlignment<E: Equatable>(_ a: [E], _ b: [E], limit: Int? = nil) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            var smallest = row[0]
            for j in 1...b.count {
                var d = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, beforePrevious[j - 2] + 1) }
                row[j] = d
                smallest = min(smallest, d)
            }
            if let limit, smallest > limit { return limit + 1 }
            (beforePrevious, previous, row) = (previous, row, beforePrevious)
        }
        return previous[b.count]
    }
}
