import Foundation
import PBCore
import PBIndex

/// pb-search: `query` records in, the same records out with `hits`.
public enum SearchCommand {
    public static let spec = CommandSpec(
        name: "pb-search",
        summary: "hybrid search: FTS5 BM25 and exact dense search, fused by reciprocal rank",
        operands: "[FILE ...]",
        options: [
            OptionSpec("library", short: "l", value: "NAME", help: "library to search (default 'default'; a query's own library wins)"),
            OptionSpec("k", value: "N", help: "hits per query (default 10; a query's own k wins)"),
            OptionSpec("depth", value: "N", help: "candidates taken from each list before fusion (default 100)"),
            OptionSpec("rrf-k", value: "K", help: "the k of reciprocal rank fusion (default 20)"),
            OptionSpec("lists", value: "LISTS", help: "lists to use: lexical, dense or both (default lexical,dense)"),
            OptionSpec("weights", value: "T,S,X", help: "BM25 weights of title, section and text (default 2,1,1)"),
            OptionSpec("no-correct", help: "search for the question's words as typed (default: a word no chunk holds is corrected to the library's nearest word, recorded in 'analysis')"),
            OptionSpec("explain", help: "keep each list's ranking in a 'lists' field"),
            OptionSpec("batch", value: "N", help: "queries scored together in one pass over the vectors (default 64)"),
            OptionSpec("keep-going", help: "write an error record for a bad query and go on (exit 65 at the end)"),
        ])

    public struct Settings {
        public var k = 10
        public var depth = 100
        /// The constant of reciprocal rank fusion. 20 rather than the customary 60: the top of
        /// each list counts for more. Chosen on SciFact train's tuning half (fused nDCG@10 0.704 at
        /// 60, 0.710 at 20 and at 10) and confirmed on the check half (0.740 -> 0.746); SQuAD and
        /// the household set answer the same.
        public var rrfK = 20.0
        public var useLexical = true
        public var useDense = true
        public var explain = false
        /// Misspelt words are corrected against the library's vocabulary before searching.
        public var correct = true
        /// Title counts double: fitted on the even-id half of SciFact train (nDCG@10 0.683 -> 0.686),
        /// confirmed on the odd half (0.723 -> 0.725).
        public var weights = (2.0, 1.0, 1.0)
        public init() {}
    }

    public static func settings(_ o: ParsedOptions) throws -> Settings {
        var s = Settings()
        s.k = try o.int("k", default: 10, in: 1...10_000)
        s.depth = try o.int("depth", default: 100, in: 1...100_000)
        s.rrfK = try o.double("rrf-k", default: s.rrfK, in: 0...1_000_000)
        s.explain = o.flag("explain")
        s.correct = !o.flag("no-correct")
        if let lists = o.value("lists") {
            let names = Set(lists.split(separator: ",").map(String.init))
            guard !names.isEmpty, names.isSubset(of: ["lexical", "dense"]) else {
                throw ToolFailure(.usage, "--lists: expected lexical, dense or lexical,dense, got '\(lists)'")
            }
            s.useLexical = names.contains("lexical")
            s.useDense = names.contains("dense")
        }
        if let w = o.value("weights") {
            let parts = w.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 3, parts.allSatisfy({ $0 >= 0 }) else {
                throw ToolFailure(.usage, "--weights: expected three non-negative numbers like 1,1,1, got '\(w)'")
            }
            s.weights = (parts[0], parts[1], parts[2])
        }
        return s
    }

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let settings = try settings(o)
        let defaultLibrary = environment.libraryName(option: o.value("library")) ?? "default"
        let batchSize = try o.int("batch", default: 64, in: 1...4096)
        let engine = SearchEngine(environment: environment, settings: settings)
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let codec = RecordCodec()
        for reader in try RecordLoop.readers(for: o.operands) {
            while true {
                let lines = reader.nextBatch(max: batchSize)
                if lines.isEmpty { break }
                // Results go out in input order, error records included.
                var queries: [(index: Int, record: QueryRecord)] = []
                var failures: [Int: ToolFailure] = [:]
                for (i, line) in lines.enumerated() {
                    do {
                        var q = try codec.decode(QueryRecord.self, from: line.data)
                        if q.library == nil { q.library = defaultLibrary }
                        queries.append((i, q))
                    } catch {
                        failures[i] = Tool.failure(for: error)
                    }
                }
                let results = try engine.search(queries.map(\.record))
                var records: [Int: QueryRecord] = [:]
                for (q, result) in zip(queries, results) {
                    switch result {
                    case .success(let record): records[q.index] = record
                    case .failure(let failure): failures[q.index] = failure
                    }
                }
                for (i, line) in lines.enumerated() {
                    if let record = records[i] {
                        try NDJSONWriter.standardOutput.write(record)
                    } else if let failure = failures[i] {
                        guard failure.code == .badInput else { throw failure.located(at: line) }
                        try loop.report(failure.message, at: line)
                    }
                }
            }
            if let io = reader.ioError { throw ToolFailure(.ioError, io) }
        }
        return loop.badLines > 0 ? .badInput : .success
    }
}
