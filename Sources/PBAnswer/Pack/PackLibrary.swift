import Foundation
import PBCore
import PBSQLite
import PBIndex
import PBRetrieval

/// What pb-pack reads from a library: a chunk's neighbours in its section, the chunks of a
/// document (to follow cross references), and lexical candidates with term rarity (for lookups).
/// It only reads; opening is the same as pb-search's (a missing library is status 66).
public final class PackLibrary {
    public let searcher: Searcher
    private var db: Database { searcher.library.db }
    private var frequencies: [String: Int] = [:]
    private var chunkTotal: Int?

    public init(library: Library) {
        searcher = Searcher(library: library)
    }

    public convenience init(environment: PBEnvironment, name: String) throws {
        self.init(library: try Library(environment: environment, name: name, create: false))
    }

    /// A chunk's place in its document, by chunk id; nil when the library does not hold it.
    public func place(of chunkID: String) throws -> (seq: Int, section: [String])? {
        let s = try db.prepare("SELECT seq, section FROM chunks WHERE chunk_id = ?")
        try s.bind([.text(chunkID)])
        guard try s.step() else { return nil }
        return (Int(s.int(0)), Self.section(s.text(1)))
    }

    /// The chunks of document `docID` with seq in `seqs` and the given section path, by seq.
    public func sectionChunks(docID: String, section: [String], seqs: ClosedRange<Int>) throws -> [Int: Hit] {
        let s = try db.prepare("""
            SELECT c.id, c.section FROM chunks c JOIN documents d ON d.id = c.doc
            WHERE d.doc_id = ? AND c.seq BETWEEN ? AND ?
            """)
        try s.bind([.text(docID), .int(Int64(seqs.lowerBound)), .int(Int64(seqs.upperBound))])
        var ids: [Int64] = []
        while try s.step() { if Self.section(s.text(1)) == section { ids.append(s.int(0)) } }
        var out: [Int: Hit] = [:]
        for hit in try searcher.hits(ids).values { if let seq = hit.seq { out[seq] = hit } }
        return out
    }

    /// Every chunk of document `docID` (text included), in seq order.
    public func documentChunks(docID: String) throws -> [Hit] {
        let s = try db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc WHERE d.doc_id = ? ORDER BY c.seq")
        try s.bind([.text(docID)])
        var ids: [Int64] = []
        while try s.step() { ids.append(s.int(0)) }
        return try searcher.hits(ids).values.sorted { ($0.seq ?? 0) < ($1.seq ?? 0) }
    }

    /// The first chunk of every document within the filters, by path: the library's catalogue.
    public func firstChunks(filters: QueryFilters?, limit: Int) throws -> [Hit] {
        let (clause, values) = Searcher.filterSQL(filters)
        let s = try db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc WHERE c.seq = 0"
            + (clause.isEmpty ? "" : " AND \(clause)") + " ORDER BY d.path LIMIT ?")
        try s.bind(values + [.int(Int64(limit))])
        var ids: [Int64] = []
        while try s.step() { ids.append(s.int(0)) }
        let hits = try searcher.hits(ids)
        return ids.compactMap { hits[$0] }
    }

    /// Chunks holding a term, from the FTS index (title, section and text).
    public func documentFrequency(_ term: String) throws -> Int {
        if let f = frequencies[term] { return f }
        guard let match = LexicalQuery.match(term) else { return 0 }
        let f = Int(try db.scalarInt("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", [.text(match)]) ?? 0)
        frequencies[term] = f
        return f
    }

    public func chunkCount() throws -> Int {
        if let chunkTotal { return chunkTotal }
        let n = Int(try db.scalarInt("SELECT count(*) FROM chunks") ?? 0)
        chunkTotal = n
        return n
    }

    /// The best BM25 matches of any of `terms`, within the query's filters, best first.
    public func lexicalCandidates(_ terms: [String], filters: QueryFilters?, depth: Int) throws -> [Hit] {
        let ranked = try searcher.lexical(terms.joined(separator: " "), filters: filters, depth: depth)
        let rows = try searcher.hits(ranked.map(\.id))
        return ranked.compactMap { rows[$0.id] }
    }

    /// Chunks outside document `docID` that hold `amount` ("8.50": FTS5 reads it as the words
    /// 8 and 50, so as that phrase), best first.
    public func chunksStating(amount: String, outside docID: String, filters: QueryFilters?, depth: Int) throws -> [Hit] {
        let phrase = "\"" + LexicalQuery.terms(amount).joined(separator: " ") + "\""
        let ranked = try searcher.lexical(match: phrase, filters: filters, depth: depth)
        let rows = try searcher.hits(ranked.map(\.id))
        return ranked.compactMap { rows[$0.id] }.filter { $0.docID != docID }
    }

    static func section(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
