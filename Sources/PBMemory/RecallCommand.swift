import Foundation
import PBCore
import PBNeural
import PBDates

/// pb-recall: query records in, the same records out with `hits` from a memory, in pb-search's
/// shape, so pb-rerank, pb-pack, pb-answer and pb-verify work on memories unchanged.
public enum RecallCommand {
    public static let spec = CommandSpec(
        name: "pb-recall",
        summary: "recall memories for questions: meaning, words and time as ranked lists fused by rank, superseded items below their successors",
        operands: "[FILE ...]",
        options: [
            OptionSpec("memory", value: "NAME", help: "the memory to recall from (default: default)"),
            OptionSpec("k", help: "hits per query, one per message (default 10; a query's own k wins)"),
            OptionSpec("now", help: "the time questions are asked at, for 'last month' (default: a query's own now, else the current time)"),
            OptionSpec("lists", value: "LIST", help: "the lists to fuse, comma-separated: meaning, words, messages, time, speaker (default all five)"),
            OptionSpec("weights", value: "W", help: "list weights in the fusion, as meaning=1,words=1,messages=2,time=2,speaker=0.25 (the defaults)"),
            OptionSpec("context", help: "add `background`: the question's workstream, its summary and its latest messages (for pb-pack)"),
            OptionSpec("recent", value: "N", help: "with --context, the latest messages shown (default 6)"),
            OptionSpec("explain", help: "add each list's ranking (item ids) as `lists`"),
            OptionSpec("no-replies", help: "keep a question found in its place instead of giving it to the reply"),
            OptionSpec("no-attribution", help: "leave out `attribution` (a question naming a speaker asked again without the name; needs the model)"),
            OptionSpec("keep-going", help: "write an error record for a bad line and go on (exit 65 at the end)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let name = o.value("memory") ?? "default"
        try MemoryStore.validateName(name)
        var settings = Recaller.Settings()
        settings.k = try o.int("k", default: 10, in: 1...10_000)
        if let lists = o.value("lists") {
            let names = lists.split(separator: ",").map { RecallList(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
            guard !names.isEmpty, !names.contains(nil) else {
                throw ToolFailure(.usage, "--lists: expected \(RecallList.expected) (comma-separated), got '\(lists)'")
            }
            settings.lists = Set(names.compactMap { $0 })
        }
        settings.replies = !o.flag("no-replies")
        if let weights = o.value("weights") {
            for pair in weights.split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2, let list = RecallList(rawValue: kv[0]), let w = Double(kv[1]), w.isFinite, w >= 0 else {
                    throw ToolFailure(.usage, "--weights: expected LIST=W pairs such as words=1.5 (lists \(RecallList.allCases.map(\.rawValue).joined(separator: ", "))), got '\(pair)'")
                }
                settings.weights[list] = w
            }
        }
        let format = DateValueFormat(timeZone: TimeZone(secondsFromGMT: 0)!)
        func instant(_ text: String, _ what: String) throws -> Date {
            guard let d = format.parseInstant(text) else {
                throw ToolFailure(.badInput, "\(what): expected an ISO 8601 time such as 2026-03-02T09:00:00+01:00, got '\(text)'")
            }
            return d
        }
        let defaultNow = try o.value("now").map { try instant($0, "--now") } ?? Date()
        let readers = try RecordLoop.readers(for: o.operands)
        let store = try MemoryStore(readingOnly: name, environment: environment)
        let recaller = try Recaller(store: store, settings: settings)
        var backgroundSettings = WorkstreamBackground.Settings()
        backgroundSettings.recent = try o.int("recent", default: 6, in: 0...1000)
        if o.value("recent") != nil, !o.flag("context") { throw ToolFailure(.usage, "--recent needs --context") }
        let background = o.flag("context") ? WorkstreamBackground(store: store, settings: backgroundSettings) : nil
        // The encoder, for `attribution` only (a question naming a speaker, asked again without
        // the name): loaded at the first such question, so other memories never pay for it.
        var encoder: MiniLMEncoder?
        let embed: (String) throws -> [Float] = { text in
            if encoder == nil { encoder = try EmbedCommand.loadEncoder(environment) }
            return encoder!.embed([text])[0]
        }
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let writer = NDJSONWriter.standardOutput
        let codec = RecordCodec()
        return try loop.run(readers) { line in
            let q: QueryRecord
            if line.data.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
                q = try codec.decode(QueryRecord.self, from: line.data)
            } else {
                q = QueryRecord(text: line.text)
            }
            let now = try q.now.map { try instant($0, "now") } ?? defaultNow
            var out = try recaller.recall(q, now: now, explain: o.flag("explain"), embed: o.flag("no-attribution") ? nil : embed)
            if let background { out.background = try background.background(for: q, vector: try q.embedding?.values()) }
            try writer.write(out)
        }
    }
}
