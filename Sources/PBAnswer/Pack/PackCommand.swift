import Foundation
import PBCore
import PBText

/// pb-pack: query records with `hits` in, the same records out with `context`: the evidence,
/// prompt and instructions an answer is written from, under a hard token budget.
public enum PackCommand {
    public static let spec = CommandSpec(
        name: "pb-pack",
        summary: "pack reranked hits into a cited prompt under a hard token budget",
        operands: "[FILE ...]",
        options: [
            OptionSpec("budget", short: "b", value: "N", help: "tokens for instructions, prompt and answer together (default 4096)"),
            OptionSpec("reserve", value: "N", help: "tokens of the budget kept for the answer (default 512)"),
            OptionSpec("k", value: "N", help: "hits used as anchors, best first (default 8)"),
            OptionSpec("mode", short: "m", value: "MODE", help: "fast, standard or deep: 2, 3 or 5 neighbours per side (default standard; a query's own mode wins)"),
            OptionSpec("neighbours", value: "N", help: "neighbours read on each side of an anchor, instead of the mode's"),
            OptionSpec("library", short: "l", value: "NAME", help: "library to read neighbours from (default 'default'; a query's own library wins)"),
            OptionSpec("keep-going", help: "write an error record for a bad query and go on (exit 65 at the end)"),
        ])

    /// The WordPiece tokenizer every budget is counted with; a missing model is status 69.
    public static func loadTokenizer(_ environment: PBEnvironment) throws -> WordPieceTokenizer {
        let vocab = environment.modelDirectory.appendingPathComponent("vocab.txt")
        // The vocabulary is all it reads, but it comes with the model, and so does the advice.
        guard FileManager.default.fileExists(atPath: vocab.path) else { throw environment.modelMissing }
        do {
            return try WordPieceTokenizer(vocabularyAt: vocab)
        } catch {
            throw ToolFailure(.unavailable, "cannot load the vocabulary: \(error)")
        }
    }

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        var base = ContextPacker.Settings()
        base.budget = try o.int("budget", default: 4096, in: 1...1_000_000)
        base.reserve = try o.int("reserve", default: 512, in: 0...1_000_000)
        guard base.reserve < base.budget else {
            throw ToolFailure(.usage, "--reserve: \(base.reserve) leaves nothing of the budget of \(base.budget)")
        }
        base.k = try o.int("k", default: 8, in: 1...10_000)
        let mode = try Mode.option(o)
        base.mode = mode
        if o.value("neighbours") != nil { base.neighbours = try o.int("neighbours", default: 3, in: 0...100) }
        let defaultLibrary = environment.libraryName(option: o.value("library")) ?? "default"
        try PBEnvironment.validateLibraryName(defaultLibrary)
        let tokenizer = try loadTokenizer(environment)
        var libraries: [String: PackLibrary] = [:]
        let codec = RecordCodec()
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        return try loop.run(try RecordLoop.readers(for: o.operands)) { line in
            var q = try codec.decode(QueryRecord.self, from: line.data)
            var s = base
            s.mode = try Mode.of(record: q.mode, else: mode)
            var library: PackLibrary?
            // Memory hits (each with its `source` messages) are packed as they are, without a library.
            if let hits = q.hits, !hits.isEmpty, !hits.allSatisfy({ $0.source != nil }) {
                let name = q.library ?? defaultLibrary
                do { try PBEnvironment.validateLibraryName(name) } catch let f as ToolFailure {
                    throw ToolFailure(.badInput, "field 'library': " + f.message.replacingOccurrences(of: "--library: ", with: ""))
                }
                if libraries[name] == nil { libraries[name] = try PackLibrary(environment: environment, name: name) }
                library = libraries[name]
            }
            q.context = try ContextPacker(settings: s, counter: tokenizer).pack(q, library: library)
            try NDJSONWriter.standardOutput.write(q)
        }
    }
}
