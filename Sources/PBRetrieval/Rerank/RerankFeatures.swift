import PBText
import Foundation
import PBCore

/// The per-hit features the reranker's linear model combines. Every feature is scaled to about
/// 0...1 within one query's candidates, so one set of weights fits queries of any length.
public struct RerankFeatures: Sendable {
    /// Feature names in vector order (also the keys of `weights.json`).
    public static let names = [
        "bm25", "bm25_rank", "dense", "dense_rank", "fused",
        "coverage", "proximity", "title", "section", "phrase", "number", "order",
    ]

    /// Words that make a question a lookup (a figure is wanted), besides a digit in the question.
    static let lookupWords: Set<String> = ["many", "much", "percent", "percentage", "dose", "dosage", "rate",
                                           "ratio", "number", "level", "amount", "size", "age", "year", "time"]

    public let queryTerms: [String]
    let queryBigrams: Set<[String]>
    let isLookup: Bool

    public init(query: String) {
        let tokens = TermAnalyzer.contentTokens(query)
        var seen: Set<String> = []
        queryTerms = tokens.filter { seen.insert($0).inserted }
        var bigrams: Set<[String]> = []
        if tokens.count > 1 {
            for i in 0..<(tokens.count - 1) where tokens[i] != tokens[i + 1] { bigrams.insert([tokens[i], tokens[i + 1]]) }
        }
        queryBigrams = bigrams
        isLookup = TermAnalyzer.tokens(query).contains { TermAnalyzer.isNumber($0) || Self.lookupWords.contains($0) }
    }

    /// One feature vector per hit, in the order of `hits`.
    public func vectors(_ hits: [Hit]) -> [[Double]] {
        let maxBM25 = hits.compactMap(\.scores.bm25).max() ?? 0
        let dense = hits.compactMap(\.scores.dense)
        let (minDense, maxDense) = (dense.min() ?? 0, dense.max() ?? 0)
        let maxFused = hits.compactMap(\.scores.fused).max() ?? 0
        return hits.map { hit in
            var x = [Double]()
            x.reserveCapacity(Self.names.count)
            x.append(maxBM25 > 0 ? max(0, hit.scores.bm25 ?? 0) / maxBM25 : 0)
            x.append(Self.rankFeature(hit.scores.bm25Rank))
            if let d = hit.scores.dense {
                x.append(maxDense > minDense ? (d - minDense) / (maxDense - minDense) : 1)
            } else {
                x.append(0)
            }
            x.append(Self.rankFeature(hit.scores.denseRank))
            x.append(maxFused > 0 ? (hit.scores.fused ?? 0) / maxFused : 0)
            x.append(contentsOf: textFeatures(hit))
            // The retriever's own order: pb-recall's holds what no score does (a time asked
            // about, the named speaker, a reply in a question's place, a successor first).
            x.append(Self.rankFeature(hit.rank))
            return x
        }
    }

    /// Rank 1 is 1, rank 10 about 0.23, absent 0: the top of a list matters most.
    static func rankFeature(_ rank: Int?) -> Double {
        guard let rank, rank > 0 else { return 0 }
        return 1 / (1 + log2(Double(rank)))
    }

    /// coverage, proximity, title, section, phrase, number for one hit.
    public func textFeatures(_ hit: Hit) -> [Double] {
        guard !queryTerms.isEmpty else { return [0, 0, 0, 0, 0, 0] }
        let n = Double(queryTerms.count)
        let body = TermAnalyzer.tokens(hit.text)
        let title = Set(TermAnalyzer.tokens(hit.title))
        let section = Set(hit.section.flatMap { TermAnalyzer.tokens($0) })
        let bodySet = Set(body)
        let query = Set(queryTerms)
        let matched = query.filter { bodySet.contains($0) || title.contains($0) }
        let coverage = Double(matched.count) / n
        let inBody = query.intersection(bodySet)
        let proximity = inBody.count >= 2 ? Double(inBody.count) / Double(Self.smallestWindow(body, holding: inBody)) : 0
        let titleShare = Double(query.intersection(title).count) / n
        let sectionShare = Double(query.intersection(section).count) / n
        let phrase: Double
        if queryBigrams.isEmpty {
            phrase = 0
        } else {
            let content = body.filter { !TermAnalyzer.isStopword($0) }
            var found: Set<[String]> = []
            if content.count > 1 {
                for i in 0..<(content.count - 1) where queryBigrams.contains([content[i], content[i + 1]]) {
                    found.insert([content[i], content[i + 1]])
                }
            }
            phrase = Double(found.count) / Double(queryBigrams.count)
        }
        let number = isLookup && Self.numberNear(body, terms: inBody, within: 3) ? 1.0 : 0.0
        return [coverage, proximity, titleShare, sectionShare, phrase, number]
    }

    /// Length in tokens of the shortest stretch of `tokens` holding every term of `terms` (which
    /// must all occur); a sliding window over the positions.
    static func smallestWindow(_ tokens: [String], holding terms: Set<String>) -> Int {
        var counts: [String: Int] = [:]
        var have = 0
        var best = tokens.count
        var left = 0
        for (right, t) in tokens.enumerated() where terms.contains(t) {
            counts[t, default: 0] += 1
            if counts[t] == 1 { have += 1 }
            while have == terms.count {
                let l = tokens[left]
                if terms.contains(l) {
                    best = min(best, right - left + 1)
                    counts[l]! -= 1
                    if counts[l] == 0 { have -= 1 }
                }
                left += 1
            }
        }
        return max(best, terms.count)
    }

    /// Whether a number sits within `distance` tokens of one of `terms`.
    static func numberNear(_ tokens: [String], terms: Set<String>, within distance: Int) -> Bool {
        guard !terms.isEmpty else { return false }
        for (i, t) in tokens.enumerated() where TermAnalyzer.isNumber(t) {
            let lo = max(0, i - distance), hi = min(tokens.count - 1, i + distance)
            if tokens[lo...hi].contains(where: { terms.contains($0) }) { return true }
        }
        return false
    }
}
