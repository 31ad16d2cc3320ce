import Foundation

/// Finds the item a step means by its title: verbatim (ignoring case) first, then by content
/// words (lowercased, stop words dropped, simple suffix stemming) where every word of the query,
/// or all but one when it has three or more, appears in the title. Open items are preferred.
/// When two items fit equally the lookup fails and names them: a step never guesses. A fit that
/// needed the all-but-one rule is `loose`: a step that deletes or completes asks back on it.
public struct TitleMatcher: Sendable {
    public struct Candidate: Sendable, Equatable {
        public var ref: String
        public var title: String
        public var open: Bool

        public init(ref: String, title: String, open: Bool) {
            self.ref = ref
            self.title = title
            self.open = open
        }
    }

    /// Which status wins a tie: `open` for most tools, `done` for reopening.
    public var prefer: Bool = true

    public init(preferOpen: Bool = true) { prefer = preferOpen }

    static let stopWords: Set<String> = ["a", "an", "the", "to", "my", "our", "your", "his", "her", "their", "for", "of", "and", "or",
                                         "on", "in", "at", "with", "by", "from", "up", "this", "that", "it", "its", "me", "i", "is",
                                         "be", "some", "task", "todo"]

    /// Lowercases, splits on non-alphanumerics, drops stop words, stems.
    public static func contentWords(_ text: String) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for raw in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let w = String(raw)
            guard !stopWords.contains(w) else { continue }
            let s = stem(w)
            if seen.insert(s).inserted { out.append(s) }
        }
        return out
    }

    /// A light suffix stemmer: enough that "booked", "booking" and "books" meet "book".
    public static func stem(_ w: String) -> String {
        var w = w
        func strip(_ suffix: String, minStem: Int) -> Bool {
            guard w.hasSuffix(suffix), w.count - suffix.count >= minStem else { return false }
            w.removeLast(suffix.count)
            return true
        }
        if w.hasSuffix("ies"), w.count > 4 { w.removeLast(3); w += "y"; return w }
        if strip("ing", minStem: 3) || strip("ed", minStem: 3) {
            // "booked" -> "book"; "planned" -> "plann" -> "plan"
            if let last = w.last, w.count > 3, w.dropLast().last == last, !"lsz".contains(last) { w.removeLast() }
            return w
        }
        if w.hasSuffix("es"), w.count > 4, ["sses", "shes", "ches", "xes", "zes"].contains(where: { w.hasSuffix($0) }) { w.removeLast(2); return w }
        if w.hasSuffix("s"), !w.hasSuffix("ss"), !w.hasSuffix("us"), w.count > 3 { w.removeLast(); return w }
        return w
    }

    public enum Outcome: Equatable, Sendable {
        case found(Candidate)
        /// The one best fit, but a word of the query is not in its title ("delete my bank account
        /// password" meeting "Pay the bank account fee").
        case loose(Candidate, missing: [String])
        case none
        case ambiguous([Candidate])
    }

    public func match(_ query: String, in candidates: [Candidate]) -> Outcome {
        let q = query.trimmingCharacters(in: .whitespaces).lowercased()
        let verbatim = candidates.filter { $0.title.trimmingCharacters(in: .whitespaces).lowercased() == q }
        if !verbatim.isEmpty { return pick(verbatim.map { ($0, 0) }) }
        let words = Self.contentWords(query)
        guard !words.isEmpty else { return .none }
        let need = words.count >= 3 ? words.count - 1 : words.count
        var fits: [(Candidate, Int)] = []
        for c in candidates {
            let title = Set(Self.contentWords(c.title))
            let hits = words.filter { title.contains($0) }.count
            if hits >= need { fits.append((c, hits)) }
        }
        guard let best = fits.map(\.1).max() else { return .none }
        let outcome = pick(fits.filter { $0.1 == best })
        if best < words.count, case .found(let c) = outcome {
            let title = Set(Self.contentWords(c.title))
            return .loose(c, missing: words.filter { !title.contains($0) })
        }
        return outcome
    }

    private func pick(_ fits: [(Candidate, Int)]) -> Outcome {
        let preferred = fits.filter { $0.0.open == prefer }
        let pool = preferred.isEmpty ? fits : preferred
        if pool.count == 1 { return .found(pool[0].0) }
        return .ambiguous(pool.map(\.0))
    }
}
