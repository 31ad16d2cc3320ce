import Foundation
import Testing
@testable import PBCore
@testable import PBRetrieval

/// Hand-made hits for the reranker's tests.
enum RerankFixture {
    static func hit(_ id: String, doc: String? = nil, title: String = "", section: [String] = [], text: String,
                    bm25: Double? = nil, bm25Rank: Int? = nil, dense: Double? = nil, denseRank: Int? = nil,
                    fused: Double? = nil, rank: Int = 0) -> Hit {
        Hit(span: SourceSpan(chunkID: id, docID: doc ?? id, path: "docs/\(doc ?? id).md", title: title, section: section,
            start: 0, end: text.utf8.count, lineStart: 1, lineEnd: 1),
            text: text, scores: HitScores(bm25: bm25, bm25Rank: bm25Rank, dense: dense, denseRank: denseRank, fused: fused), rank: rank)
    }

    static func query(_ text: String, _ hits: [Hit]) -> QueryRecord {
        var q = QueryRecord(id: .string("q"), text: text)
        q.hits = hits
        return q
    }
}
