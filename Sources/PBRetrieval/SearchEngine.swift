import Foundation
import PBCore
import PBIndex
import PBText

/// Runs a batch of queries: lexical per query, dense in one pass per library, then fusion.
public final class SearchEngine {
    let environment: PBEnvironment
    public var settings: SearchCommand.Settings
    private var searchers: [String: Searcher] = [:]
    private var correctors: [String: SpellingCorrector] = [:]
    private var saidLexicalOnly = false

    public init(environment: PBEnvironment, settings: SearchCommand.Settings) {
        self.environment = environment
        self.settings = settings
    }

    func searcher(_ name: String) throws -> Searcher {
        if let s = searchers[name] { return s }
        let s = Searcher(library: try Library(environment: environment, name: name, create: false))
        s.columnWeights = settings.weights
        searchers[name] = s
        return s
    }

    /// One result per query, in order: the query with hits, or why it failed.
    public func search(_ queries: [QueryRecord]) throws -> [Result<QueryRecord, ToolFailure>] {
        var results = [Result<QueryRecord, ToolFailure>?](repeating: nil, count: queries.count)
        var denseInput: [String: [(index: Int, vector: [Float])]] = [:]
        var lexical: [[(id: Int64, score: Double)]] = Array(repeating: [], count: queries.count)
        var lacksEmbedding = false
        var analysed = [QuestionReading?](repeating: nil, count: queries.count)
        for (i, q) in queries.enumerated() {
            do {
                let name = q.library ?? "default"
                do { try PBEnvironment.validateLibraryName(name) } catch let f as ToolFailure { throw ToolFailure(.badInput, "field 'library': " + f.message.replacingOccurrences(of: "--library: ", with: "")) }
                if let k = q.k, !(1...10_000).contains(k) {
                    throw ToolFailure(.badInput, "field 'k': expected 1...10000, got \(k)")
                }
                let s = try searcher(name)
                var query = q
                if query.analysis == nil {
                    query.analysis = try reading(q.text, library: name)
                }
                analysed[i] = query.analysis
                if settings.useLexical {
                    lexical[i] = try s.lexical(query.questionText, filters: q.filters, depth: settings.depth)
                    // A corrected word is searched for beside the question as typed, the two
                    // rankings fused: the word put in counts, but a common word ("fluorescent" for
                    // "florescent") does not by itself push aside what the other words found.
                    if query.analysis?.corrected != nil {
                        let typed = try s.lexical(q.text, filters: q.filters, depth: settings.depth)
                        lexical[i] = Self.fuseLexical(corrected: lexical[i], typed: typed, k: settings.rrfK, depth: settings.depth)
                    }
                }
                guard settings.useDense else { continue }
                guard let e = q.embedding else { lacksEmbedding = true; continue }
                let v = try e.values()
                if let m = try s.vectorModel() {
                    let weights = e.weights ?? ""
                    guard m.model == e.model, m.dim == e.dim, weights.isEmpty || m.weights.isEmpty || weights == m.weights else {
                        throw ToolFailure(.badInput, "query embedding is \(e.dim)-d '\(e.model)'\(weights.isEmpty ? "" : " (weights \(weights))") but library '\(name)' holds \(m.dim)-d '\(m.model)'\(m.weights.isEmpty ? "" : " (weights \(m.weights))") vectors")
                    }
                    denseInput[name, default: []].append((i, v))
                } else {
                    lacksEmbedding = true
                }
            } catch {
                results[i] = .failure(Tool.failure(for: error))
            }
        }
        if lacksEmbedding, !saidLexicalOnly {
            saidLexicalOnly = true
            Diagnostics.shared.note("note: lexical search only (queries without an embedding, or a library without vectors); pipe queries through pb-embed for dense search")
        }
        var dense: [Int: [(id: Int64, score: Double)]] = [:]
        for (name, items) in denseInput {
            let s = try searcher(name)
            let lists = try s.dense(items.map(\.vector), filters: items.map { queries[$0.index].filters }, depth: settings.depth)
            for (item, list) in zip(items, lists) { dense[item.index] = list }
        }
        let fusion = ReciprocalRankFusion(k: settings.rrfK)
        for (i, var q) in queries.enumerated() where results[i] == nil {
            do {
                q.analysis = q.analysis ?? analysed[i]
                results[i] = .success(try assemble(q, lexical: lexical[i], dense: dense[i], fusion: fusion))
            } catch {
                results[i] = .failure(Tool.failure(for: error))
            }
        }
        return results.map { $0! }
    }

    /// What the question asks for, with its misspelt words corrected against the library's
    /// vocabulary (unless --no-correct).
    func reading(_ text: String, library name: String) throws -> QuestionReading {
        guard settings.correct else { return QuestionReader.read(text) }
        let corrector: SpellingCorrector
        if let c = correctors[name] { corrector = c } else {
            corrector = SpellingCorrector(db: try searcher(name).library.db)
            correctors[name] = corrector
        }
        let (fixed, corrections) = try corrector.correct(text)
        var r = QuestionReader.read(fixed)
        if !corrections.isEmpty {
            r.corrected = fixed
            r.corrections = corrections
        }
        return r
    }

    func assemble(_ query: QueryRecord, lexical: [(id: Int64, score: Double)], dense: [(id: Int64, score: Double)]?,
                  fusion: ReciprocalRankFusion) throws -> QueryRecord {
        var q = query
        let s = try searcher(q.library ?? "default")
        var lists: [[Int64]] = []
        if settings.useLexical { lists.append(lexical.map(\.id)) }
        if let dense { lists.append(dense.map(\.id)) }
        let fused = fusion.fuse(lists)
        let k = q.k ?? settings.k
        let top = Array(fused.prefix(k))
        let rows = try s.hits(top.map(\.id))
        var lexRank: [Int64: (Int, Double)] = [:]
        for (i, h) in lexical.enumerated() { lexRank[h.id] = (i + 1, h.score) }
        var denseRank: [Int64: (Int, Double)] = [:]
        for (i, h) in (dense ?? []).enumerated() { denseRank[h.id] = (i + 1, h.score) }
        q.hits = top.enumerated().compactMap { i, f in
            guard var hit = rows[f.id] else { return nil }
            hit.rank = i + 1
            hit.scores = HitScores(bm25: lexRank[f.id].map { Self.round($0.1) }, bm25Rank: lexRank[f.id]?.0,
                                   dense: denseRank[f.id].map { Self.round($0.1) }, denseRank: denseRank[f.id]?.0,
                                   fused: Self.round(f.score))
            return hit
        }
        if settings.explain {
            var explained: [String: [String]] = [:]
            let ids = Set(lexical.map(\.id)).union((dense ?? []).map(\.id))
            let names = try s.chunkIDs(Array(ids))
            if settings.useLexical { explained["lexical"] = lexical.compactMap { names[$0.id] } }
            if let dense { explained["dense"] = dense.compactMap { names[$0.id] } }
            q.lists = explained
        }
        return q
    }

    /// The corrected and the typed question's BM25 rankings as one, by reciprocal rank fusion;
    /// each chunk keeps the corrected query's score (or the typed one's where only it found it).
    static func fuseLexical(corrected: [(id: Int64, score: Double)], typed: [(id: Int64, score: Double)], k: Double, depth: Int)
        -> [(id: Int64, score: Double)] {
        var score: [Int64: Double] = [:]
        for h in typed { score[h.id] = h.score }
        for h in corrected { score[h.id] = h.score }
        let order = ReciprocalRankFusion(k: k).fuse([corrected.map(\.id), typed.map(\.id)])
        return order.prefix(depth).map { (id: $0.id, score: score[$0.id] ?? 0) }
    }

    /// Six decimals: enough to rank, few enough to read and to compare in golden files.
    static func round(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }
}
