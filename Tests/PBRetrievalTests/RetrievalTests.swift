import Foundation
import Testing
@testable import PBCore
@testable import PBIndex
@testable import PBRetrieval
import PBText

@Suite struct LexicalQueryTests {
    @Test func userTextNeverBecomesFTSSyntax() {
        #expect(LexicalQuery.match("NEAR(\"a\" b) title:x* OR -c AND ^d") ==
                "\"near\" OR \"b\" OR \"title\" OR \"x\" OR \"c\" OR \"d\"")
        // Stopwords go, unless nothing else is left.
        #expect(LexicalQuery.match("the boiler") == "\"boiler\"")
        #expect(LexicalQuery.match("to be or not to be") == "\"to\" OR \"be\" OR \"or\" OR \"not\"")
        #expect(LexicalQuery.match("*** \"\" ()") == nil)
        #expect(LexicalQuery.terms("Café CAFÉ café 3.5 bar") == ["café", "3", "5", "bar"])
    }
}

@Suite struct ReciprocalRankFusionTests {
    @Test func agreementBeatsOneListsTop() {
        let fused = ReciprocalRankFusion(k: 60).fuse([[1, 2, 3], [2, 3, 1], [2, 4]])
        #expect(fused.first?.id == 2)
        #expect(abs(fused[0].score - (1.0 / 62 + 1.0 / 61 + 1.0 / 61)) < 1e-12)
        #expect(Set(fused.map(\.id)) == [1, 2, 3, 4])
    }

    @Test func tiesBreakDeterministically() {
        let a = ReciprocalRankFusion().fuse([[5, 6], [6, 5]])
        let b = ReciprocalRankFusion().fuse([[6, 5], [5, 6]])
        #expect(a.map(\.id) == b.map(\.id))
        #expect(a.map(\.id) == [5, 6])
    }
}

@Suite struct DenseSearcherTests {
    static func random(_ n: Int, _ dim: Int, seed: UInt64) -> [Float] {
        var g = SeededGenerator(seed: seed)
        var out = [Float](repeating: 0, count: n * dim)
        for r in 0..<n {
            var norm: Float = 0
            for d in 0..<dim { let x = g.nextFloat() - 0.5; out[r * dim + d] = x; norm += x * x }
            for d in 0..<dim { out[r * dim + d] /= norm.squareRoot() }
        }
        return out
    }

    @Test func matchesBruteForceForOneAndManyQueriesAcrossBlocks() {
        let dim = 32, n = 10_000
        let rows = Self.random(n, dim, seed: 1)
        let queries = (0..<5).map { Array(Self.random(1, dim, seed: UInt64(100 + $0))) }
        let results = rows.withUnsafeBufferPointer { DenseSearcher(dim: dim).search(rows: $0, queries: queries, k: 7) { _, _ in true } }
        let single = rows.withUnsafeBufferPointer { DenseSearcher(dim: dim).search(rows: $0, queries: [queries[2]], k: 7) { _, _ in true } }
        for (q, got) in zip(queries, results) {
            let scores = (0..<n).map { r in (r, (0..<dim).reduce(Float(0)) { $0 + rows[r * dim + $1] * q[$1] }) }
            let want = scores.sorted { $0.1 > $1.1 }.prefix(7).map(\.0)
            #expect(got.map(\.row) == Array(want))
        }
        #expect(single[0].map(\.row) == results[2].map(\.row))
    }

    @Test func filtersNeverReturnFewerHitsThanExist() {
        let dim = 16, n = 5_000
        let rows = Self.random(n, dim, seed: 3)
        let q = Array(Self.random(1, dim, seed: 4))
        // Only every 500th row is allowed: exactly 10 exist, all 10 must come back for k = 25.
        let got = rows.withUnsafeBufferPointer { DenseSearcher(dim: dim).search(rows: $0, queries: [q], k: 25) { _, r in r % 500 == 0 } }
        #expect(got[0].count == 10)
        #expect(got[0].allSatisfy { $0.row % 500 == 0 })
    }
}

/// End to end over a real library: chunk, index with vectors, search with filters.
@Suite struct SearchEngineTests {
    struct Words: TokenCounter { func countTokens(_ t: String) -> Int { t.split(separator: " ").count } }

    @Test func hybridSearchWithFiltersAndFusion() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = PBEnvironment(variables: ["PB_HOME": home.path])
        let chunker = DocumentChunker(library: "s", chunker: try Chunker(tokens: Words()))
        let docs = [("/a/boiler.md", "# Boiler\n\nThe boiler pressure should read 1.5 bar."),
                    ("/a/bread.md", "# Bread\n\nBake the loaf at 230 degrees."),
                    ("/b/boiler-2.md", "# Boiler log\n\nBoiler pressure was low in May.")]
        var lines: [InputLine] = []
        for (i, (path, text)) in docs.enumerated() {
            for var c in try chunker.chunk(path: path, text: text, title: nil, format: "markdown") {
                var v = [Float](repeating: 0, count: 4)
                v[i] = 1
                c.embedding = Embedding(model: "m", values: v)
                lines.append(InputLine(data: try RecordCodec().encode(c), source: "t", number: lines.count + 1))
            }
        }
        do {
            let indexer = Indexer(library: try Library(environment: env, name: "s", create: true))
            for l in lines { try indexer.consume(l) }
            _ = try indexer.finish()
        }
        let engine = SearchEngine(environment: env, settings: SearchCommand.Settings())
        var q = QueryRecord(text: "boiler pressure low", library: "s")
        q.embedding = Embedding(model: "m", values: [0, 0, 1, 0])
        var filtered = q
        filtered.filters = QueryFilters(pathPrefix: "/a/")
        var wrongModel = q
        wrongModel.embedding = Embedding(model: "other", values: [1, 0, 0, 0])
        let results = try engine.search([q, filtered, wrongModel])
        let hits = try results[0].get().hits!
        // Both lists put boiler-2 first (dense: the same vector; lexical: it alone has "low").
        #expect(hits.first?.path == "/b/boiler-2.md")
        #expect(hits.first?.scores.denseRank == 1)
        #expect(hits.allSatisfy { $0.scores.fused != nil })
        let onlyA = try results[1].get().hits!
        #expect(!onlyA.isEmpty && onlyA.allSatisfy { $0.path.hasPrefix("/a/") })
        #expect(onlyA.count == 2) // dense brings bread too: filters apply before ranking
        guard case .failure(let f) = results[2] else { Issue.record("wrong model accepted"); return }
        #expect(f.code == .badInput)
    }

    @Test func misspeltWordsAreCorrectedAgainstTheLibrary() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-correct-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = PBEnvironment(variables: ["PB_HOME": home.path])
        let chunker = DocumentChunker(library: "s", chunker: try Chunker(tokens: Words()))
        let docs = [("/a/boiler.md", "# Boiler\n\nThe boiler service is due in April. The home insurance renews in March."),
                    ("/a/summer.md", "# Summer\n\nThe summer fete is in the village hall.")]
        var lines: [InputLine] = []
        for (path, text) in docs {
            for c in try chunker.chunk(path: path, text: text, title: nil, format: "markdown") {
                lines.append(InputLine(data: try RecordCodec().encode(c), source: "t", number: lines.count + 1))
            }
        }
        do {
            let indexer = Indexer(library: try Library(environment: env, name: "s", create: true))
            for l in lines { try indexer.consume(l) }
            _ = try indexer.finish()
        }
        let engine = SearchEngine(environment: env, settings: SearchCommand.Settings())
        let typed = ["when is the bolier service due?", "insurence renewal", "summarise the notes", "Australia's capital", "boiler"]
        let results = try engine.search(typed.map { QueryRecord(text: $0, library: "s") }).map { try $0.get() }
        #expect(results[0].analysis?.corrections == [.init(from: "bolier", to: "boiler", distance: 1)])
        #expect(results[0].analysis?.corrected == "when is the boiler service due?")
        #expect(results[0].hits?.first?.path == "/a/boiler.md")
        // FTS5's Porter stemmer reads "insurence" as "insurance" (both "insur"): found as typed.
        #expect(results[1].analysis?.corrections == [])
        #expect(results[1].hits?.first?.path == "/a/boiler.md")
        // English words and names are what the person meant, even where the library lacks them.
        #expect(results[2].analysis?.corrections == [])
        #expect(results[3].analysis?.corrections == [])
        #expect(results[4].analysis?.corrected == nil)
        var off = SearchCommand.Settings()
        off.correct = false
        let asTyped = try SearchEngine(environment: env, settings: off).search([QueryRecord(text: typed[0], library: "s")])[0].get()
        #expect(asTyped.analysis?.corrections == [])
        #expect(SpellingCorrector.distance(Array("bolier"), Array("boiler")) == 1)
        // Names of genes and abbreviations are not slips: a short word keeps its length, two
        // edits keep the first three letters.
        #expect(!SpellingCorrector.plausible("runx", "run", distance: 1))
        #expect(SpellingCorrector.plausible("levle", "level", distance: 1))
        #expect(!SpellingCorrector.plausible("depresents", "decrements", distance: 2))
        #expect(SpellingCorrector.plausible("transgultaminase", "transglutaminase", distance: 2))
        // A contraction's parts are never corrected: "didn" to "did" would drop the negation.
        let words = SpellingCorrector.words("Who didn't the Mongols send to Bukhara?")
        #expect(words.filter { !$0.1 }.map(\.0) == ["Who", "the", "send", "to"])
        let names = SpellingCorrector.words("RUNX is in hDLE, polymerase m (polm) too")
        #expect(names.filter { !$0.1 }.map(\.0) == ["is", "in", "polymerase", "m", "too"])
        #expect(SpellingCorrector.distance(Array("summarise"), Array("summer")) == 4)
        // Nothing in the library near a word, but one English word is: that word is meant.
        if let wn = WordNet.shared {
            #expect(SpellingCorrector.englishWord(for: "apointment", in: wn)?.word == "appointment")
            #expect(SpellingCorrector.englishWord(for: "lenght", in: wn)?.word == "length")
        }
    }
}
