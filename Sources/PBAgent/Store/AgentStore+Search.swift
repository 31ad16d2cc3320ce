import Foundation
import PBRetrieval

/// Full-text search over every item's words (the `item_words` FTS5 table of migration 2).
extension AgentStore {
    /// The kinds of item `item_words` holds, numbered as its rowids are (rowid = id * 4 + code).
    public enum ItemKind: Int, CaseIterable, Sendable {
        case task = 0, project, milestone, note

        public init?(name: String) {
            guard let k = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = k
        }

        public var name: String { ["task", "project", "milestone", "note"][rawValue] }
    }

    public struct WordHit: Sendable, Equatable {
        public var kind: ItemKind
        public var id: Int64
        /// BM25 with a title word worth four body words, negated so that higher is better.
        public var score: Double
    }

    /// Items holding any word of `query` (stemmed, stopwords dropped, nothing in it read as FTS5
    /// syntax), best first; ties keep kind order (tasks first) and then age.
    public func searchWords(_ query: String, kinds: Set<ItemKind> = Set(ItemKind.allCases)) throws -> [WordHit] {
        guard let match = LexicalQuery.match(query), !kinds.isEmpty else { return [] }
        let codes = kinds.map { String($0.rawValue) }.sorted().joined(separator: ",")
        let s = try db.prepare("""
            SELECT rowid, bm25(item_words, 4.0, 1.0) FROM item_words
            WHERE item_words MATCH ? AND rowid % 4 IN (\(codes))
            """)
        defer { s.reset() }
        try s.bind([.text(match)])
        var hits: [WordHit] = []
        while try s.step() {
            let rowid = s.int(0)
            hits.append(WordHit(kind: ItemKind(rawValue: Int(rowid % 4))!, id: rowid / 4, score: -s.double(1)))
        }
        return hits.sorted {
            if $0.score != $1.score { return $0.score > $1.score }
            if $0.kind != $1.kind { return $0.kind.rawValue < $1.kind.rawValue }
            return $0.id < $1.id
        }
    }
}
