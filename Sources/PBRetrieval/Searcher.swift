import Foundation
import PBCore
import PBSQLite
import PBIndex

/// Lexical and dense retrieval over one library, and the hits they name.
public final class Searcher {
    public let library: Library
    /// BM25 weights of the FTS columns title, section, text.
    public var columnWeights: (Double, Double, Double) = (2.0, 1.0, 1.0)
    private var rowMap: (file: String, map: [Int64])?  // vector row -> chunk id, -1 for a dead row

    public init(library: Library) {
        self.library = library
    }

    /// SQL restricting chunk ids (alias `c`, documents `d`) to the filters, with its bindings.
    public static func filterSQL(_ f: QueryFilters?) -> (String, [SQLValue]) {
        guard let f, !f.isEmpty else { return ("", []) }
        var clauses: [String] = []
        var values: [SQLValue] = []
        if let prefix = f.pathPrefix {
            clauses.append("substr(d.path, 1, length(?)) = ?")
            values += [.text(prefix), .text(prefix)]
        }
        if let ids = f.docIDs, !ids.isEmpty {
            clauses.append("d.doc_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))")
            values += ids.map { .text($0) }
        }
        return (clauses.joined(separator: " AND "), values)
    }

    /// BM25 over the FTS index: chunk ids with scores (negated bm25: higher is better), best first.
    public func lexical(_ text: String, filters: QueryFilters?, depth: Int) throws -> [(id: Int64, score: Double)] {
        guard let match = LexicalQuery.match(text) else { return [] }
        return try lexical(match: match, filters: filters, depth: depth)
    }

    /// BM25 for an FTS5 MATCH expression (LexicalQuery's, or a quoted phrase of its terms).
    public func lexical(match: String, filters: QueryFilters?, depth: Int) throws -> [(id: Int64, score: Double)] {
        let (w0, w1, w2) = columnWeights
        var sql = "SELECT rowid, bm25(chunks_fts, \(w0), \(w1), \(w2)) AS s FROM chunks_fts WHERE chunks_fts MATCH ?"
        var bindings: [SQLValue] = [.text(match)]
        let (clause, values) = Self.filterSQL(filters)
        if !clause.isEmpty {
            sql += " AND rowid IN (SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc WHERE \(clause))"
            bindings += values
        }
        sql += " ORDER BY s, rowid LIMIT ?"
        bindings.append(.int(Int64(depth)))
        let s = try library.db.prepare(sql)
        try s.bind(bindings)
        var out: [(Int64, Double)] = []
        while try s.step() { out.append((s.int(0), -s.double(1))) }
        return out
    }

    /// Whether the library holds vectors, and of which model.
    public func vectorModel() throws -> (model: String, dim: Int, weights: String)? {
        try library.vectorModel()
    }

    /// Exact top-`depth` by cosine for a batch of query vectors, each with its own filters.
    public func dense(_ queries: [[Float]], filters: [QueryFilters?], depth: Int) throws -> [[(id: Int64, score: Double)]] {
        guard let model = try library.vectorModel(), let (file, map, allowedRows) = try vectorsAndRows(filters) else {
            return Array(repeating: [], count: queries.count)
        }
        let rows = try file.mapped()
        let results = DenseSearcher(dim: model.dim).search(rows: rows, queries: queries, k: depth) { q, row in
            guard map[row] >= 0 else { return false }
            return allowedRows[q]?.contains(row) ?? true
        }
        return results.map { $0.map { (id: map[$0.row], score: Double($0.score)) } }
    }

    /// The vector file the index names, its row map and, per query, the rows its filters allow
    /// (nil: all live rows), read in one snapshot: a compaction renames the file and renumbers the
    /// rows in one transaction. When the file a snapshot names was replaced and unlinked before it
    /// could be opened, a newer snapshot names its successor.
    private func vectorsAndRows(_ filters: [QueryFilters?]) throws -> (VectorFile, [Int64], [Set<Int>?])? {
        var attempt = 0
        while true {
            do {
                return try library.db.snapshot {
                    guard let file = try library.vectors() else { return nil }
                    let map = try loadRowMap(file: file)
                    var allowed: [Set<Int>?] = []
                    for f in filters {
                        let (clause, values) = Self.filterSQL(f)
                        if clause.isEmpty { allowed.append(nil); continue }
                        let s = try library.db.prepare("SELECT c.vector_row FROM chunks c JOIN documents d ON d.id = c.doc WHERE c.vector_row IS NOT NULL AND \(clause)")
                        try s.bind(values)
                        var set = Set<Int>()
                        while try s.step() { set.insert(Int(s.int(0))) }
                        allowed.append(set)
                    }
                    return (file, map, allowed)
                }
            } catch is VectorFileError where attempt < 3 {
                attempt += 1
            }
        }
    }

    private func loadRowMap(file: VectorFile) throws -> [Int64] {
        let rows = file.rows
        if let rowMap, rowMap.file == file.path, rowMap.map.count == rows { return rowMap.map }
        var map = [Int64](repeating: -1, count: rows)
        let s = try library.db.prepare("SELECT id, vector_row FROM chunks WHERE vector_row IS NOT NULL")
        while try s.step() {
            let row = Int(s.int(1))
            if row < rows { map[row] = s.int(0) }
        }
        rowMap = (file.path, map)
        return map
    }

    /// chunk_id of each chunk row (for --explain: the lists name chunks, and need nothing else).
    public func chunkIDs(_ ids: [Int64]) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        for slice in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let s = try library.db.prepare("SELECT id, chunk_id FROM chunks WHERE id IN (\(Array(repeating: "?", count: slice.count).joined(separator: ",")))")
            try s.bind(slice.map { .int($0) })
            while try s.step() { out[s.int(0)] = s.text(1) }
        }
        return out
    }

    /// The hits for chunk ids (missing ids are left out).
    public func hits(_ ids: [Int64]) throws -> [Int64: Hit] {
        guard !ids.isEmpty else { return [:] }
        var out: [Int64: Hit] = [:]
        let codec = JSONDecoder()
        for slice in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let s = try library.db.prepare("""
                SELECT c.id, c.chunk_id, d.doc_id, d.path, d.title, c.section, c.text, c.prefix, c.start, c.end,
                       c.line_start, c.line_end, c.page_start, c.page_end, c.seq
                FROM chunks c JOIN documents d ON d.id = c.doc WHERE c.id IN (\(Array(repeating: "?", count: slice.count).joined(separator: ",")))
                """)
            try s.bind(slice.map { .int($0) })
            while try s.step() {
                let section = (try? codec.decode([String].self, from: Data(s.text("section").utf8))) ?? []
                let span = SourceSpan(chunkID: s.text("chunk_id"), docID: s.text("doc_id"), path: s.text("path"), title: s.text("title"),
                                      section: section, start: Int(s.int("start")), end: Int(s.int("end")),
                                      lineStart: Int(s.int("line_start")), lineEnd: Int(s.int("line_end")),
                                      pageStart: s.optionalInt("page_start").map { Int($0) }, pageEnd: s.optionalInt("page_end").map { Int($0) })
                out[s.int("id")] = Hit(span: span, text: s.text("text"), prefix: s.text("prefix"), seq: Int(s.int("seq")))
            }
        }
        return out
    }
}
