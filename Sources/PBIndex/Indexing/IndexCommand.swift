import Foundation
import PBCore

/// pb-index: chunk records into a library; `--changed` as a pre-filter; `--stats` to report.
public enum IndexCommand {
    public static let spec = CommandSpec(
        name: "pb-index",
        summary: "index chunk records into a library (SQLite FTS5 and a memory-mapped vector file)",
        operands: "[FILE ...]",
        options: [
            OptionSpec("library", short: "l", value: "NAME", help: "library to write (default: the records' library, else 'default')"),
            OptionSpec("batch", value: "N", help: "documents per transaction (default 256)"),
            OptionSpec("prune", help: "delete (and tombstone) documents this run did not bring"),
            OptionSpec("restore", help: "re-add documents that were deleted with the same content"),
            OptionSpec("changed", help: "filter: pass on chunks of new or changed documents, mark the rest unchanged"),
            OptionSpec("stats", help: "print a JSON report of the library and exit"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let explicit = o.value("library") ?? ProcessInfo.processInfo.environment["PB_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
        if o.flag("stats") {
            let library = try Library(environment: environment, name: explicit ?? "default", create: false)
            try NDJSONWriter.standardOutput.writeValue(try LibraryStats(library))
            return .success
        }
        let batch = try o.int("batch", default: 256, in: 1...1_000_000)
        if o.flag("changed"), o.flag("prune") {
            throw ToolFailure(.usage, "--changed is a filter and writes nothing; give --prune to the pb-index that indexes")
        }
        var options = Indexer.Options()
        options.batchDocuments = batch
        options.prune = o.flag("prune")
        options.restore = o.flag("restore")

        let readers = try RecordLoop.readers(for: o.operands)
        var library: Library?
        var indexer: Indexer?
        var filter: ChangeFilter?
        func target(for line: InputLine) throws -> Library {
            if let library { return library }
            let name = explicit ?? (try? RecordCodec().decodeObject(line.data)["library"]?.stringValue) ?? "default"
            let opened = try Library(environment: environment, name: name, create: true)
            library = opened
            return opened
        }
        let loop = RecordLoop(keepGoing: false)
        let status = try loop.run(readers) { line in
            let lib = try target(for: line)
            if let name = try RecordCodec().decodeObject(line.data)["library"]?.stringValue, name != lib.name {
                throw RecordError.badField(name: "library", reason: "record belongs to library '\(name)' but this run writes '\(lib.name)' (give --library \(name))")
            }
            if o.flag("changed") {
                if filter == nil { filter = ChangeFilter(library: lib, restore: options.restore) }
                try filter!.consume(line)
            } else {
                if indexer == nil { indexer = Indexer(library: lib, options: options) }
                try indexer!.consume(line)
            }
        }
        guard !o.flag("changed") else { return status }
        if indexer == nil {
            // Empty input still means something with --prune: nothing is present any more.
            indexer = Indexer(library: try Library(environment: environment, name: explicit ?? "default", create: true), options: options)
        }
        let summary: IndexSummary
        do {
            summary = try indexer!.finish()
        } catch let e as RecordError {
            throw ToolFailure(.badInput, "\(readers.last?.source ?? "<stdin>"): end of input: \(e.description)")
        }
        let json = String(decoding: try RecordCodec().encodeValue(summary), as: UTF8.self)
        Diagnostics.shared.summary(json)
        return status
    }
}
