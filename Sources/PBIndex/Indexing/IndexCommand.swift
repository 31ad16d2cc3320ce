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
            OptionSpec("prune-unseen", help: "delete (and tombstone) documents the last complete run did not bring, and exit"),
            OptionSpec("restore", help: "re-add documents that were deleted with the same content"),
            OptionSpec("changed", help: "filter: pass on chunks of new or changed documents, mark the rest unchanged"),
            OptionSpec("stats", help: "print a JSON report of the library and exit"),
            OptionSpec("list", help: "list the library's documents (format, chunks, date, path) and tombstones, and exit"),
            OptionSpec("json", short: "j", help: "with --list: records even on a terminal"),
            OptionSpec("check", help: "check the library's consistency; exit 1 if it is not consistent"),
        ])

    /// The one-line JSON summary on standard error.
    static func report(_ summary: IndexSummary) throws {
        Diagnostics.shared.summary(String(decoding: try RecordCodec().encodeValue(summary), as: UTF8.self))
    }

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let explicit = environment.libraryName(option: o.value("library"))
        if let explicit { try PBEnvironment.validateLibraryName(explicit) }
        let modes = ["stats", "list", "check", "prune-unseen", "changed"].filter { o.flag($0) }
        if modes.count > 1 || (modes.first.map { $0 != "changed" } ?? false) && (o.flag("prune") || o.flag("restore")) {
            throw ToolFailure(.usage, "--\((modes + ["prune", "restore"].filter { o.flag($0) }).joined(separator: " and --")) do not go together")
        }
        if o.flag("stats") {
            let library = try Library(environment: environment, name: explicit ?? "default", create: false)
            try NDJSONWriter.standardOutput.writeValue(try LibraryStats(library))
            return .success
        }
        if o.flag("list") {
            let library = try Library(environment: environment, name: explicit ?? "default", create: false)
            let listing = try LibraryListing(library)
            let writer = NDJSONWriter.standardOutput
            if !o.flag("json"), isatty(1) == 1 {
                writer.writeText(listing.text)
            } else {
                for d in listing.documents { try writer.writeValue(d) }
                for t in listing.tombstones { try writer.writeValue(t) }
            }
            return .success
        }
        if o.flag("json") { throw ToolFailure(.usage, "--json goes with --list") }
        if o.flag("check") {
            let library = try Library(environment: environment, name: explicit ?? "default", create: false, damagedOK: true)
            let check = try LibraryCheck(library)
            try NDJSONWriter.standardOutput.writeValue(check)
            return check.consistent ? .success : .verdict
        }
        if o.flag("prune-unseen") {
            guard o.operands.isEmpty else { throw ToolFailure(.usage, "--prune-unseen reads no input") }
            let name = explicit ?? "default"
            guard Library.exists(environment: environment, name: name) else {
                // Nothing was ever indexed here, so nothing can be unseen.
                try report(IndexSummary(library: name))
                return .success
            }
            let summary = try Indexer(library: try Library(environment: environment, name: name, create: true)).pruneUnseen()
            try report(summary)
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
        var targetName: String?
        let codec = RecordCodec()
        let loop = RecordLoop(keepGoing: false)
        let status = try loop.run(readers) { line in
            // Parsed once here; the indexer takes the same object.
            let raw = try codec.decodeObject(line.data)
            let named = raw["library"]?.stringValue
            if targetName == nil { targetName = explicit ?? named ?? "default" }
            if let named, named != targetName! {
                throw RecordError.badField(name: "library", reason: "record belongs to library '\(named)' but this run writes '\(targetName!)' (give --library \(named))")
            }
            if o.flag("changed") {
                if filter == nil {
                    // Read-only: the pb-index at the end of the pipe is the writer.
                    // A library that does not exist yet makes every document new; any other failure to
                    // open it is an error, not a reason to re-embed everything.
                    let exists = Library.exists(environment: environment, name: targetName!)
                    let existing = exists ? try Library(environment: environment, name: targetName!, create: false) : nil
                    filter = ChangeFilter(library: existing, restore: options.restore)
                }
                try filter!.consume(line, raw: raw)
            } else {
                if library == nil { library = try Library(environment: environment, name: targetName!, create: true) }
                if indexer == nil { indexer = Indexer(library: library!, options: options) }
                try indexer!.consume(line, raw: raw)
            }
        }
        guard !o.flag("changed") else { return status }
        var summary = IndexSummary(library: targetName ?? explicit ?? "default")
        if let indexer {
            do {
                summary = try indexer.finish()
            } catch let e as RecordError {
                throw ToolFailure(.badInput, "\(readers.last?.source ?? "<stdin>"): end of input: \(e.description)")
            }
        } else if Library.exists(environment: environment, name: summary.library) {
            // Empty input is a complete run too: it brought nothing (and --prune refuses to empty the library).
            let lib = try Library(environment: environment, name: summary.library, create: true)
            summary = try Indexer(library: lib, options: options).finish()
        }
        try report(summary)
        return status
    }
}
