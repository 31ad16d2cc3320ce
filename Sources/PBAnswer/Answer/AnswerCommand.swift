import Foundation
import PBCore
import PBNeural

/// pb-answer: query records with `context` in, the same records out with `answer`.
///
/// The extractive composer is the default and the fallback; `--endpoint` sends the packed prompt
/// to an OpenAI-compatible chat server instead (see EndpointRoute).
public enum AnswerCommand {
    public static let spec = CommandSpec(
        name: "pb-answer",
        summary: "write a cited answer from a packed context: extractive by default, or through a chat endpoint",
        operands: "[FILE ...]",
        options: [
            OptionSpec("mode", short: "m", value: "MODE", help: "fast, standard or deep (default standard; a query's own mode wins)"),
            OptionSpec("sentences", value: "N", help: "sentences in an extractive fact answer at most, one more for a question of several parts (default 1; 2 in deep mode)"),
            OptionSpec("embed-top", value: "N", help: "sentences compared with the question by meaning, the best by words (default 8; 4 fast, 16 deep)"),
            OptionSpec("no-embed", help: "score sentences by their words only (no MiniLM; faster, less exact)"),
            OptionSpec("endpoint", value: "URL", help: "OpenAI-compatible chat server (loopback only unless --allow-remote)"),
            OptionSpec("model", value: "NAME", help: "model name sent to the endpoint"),
            OptionSpec("timeout", value: "SECONDS", help: "whole-request time limit for the endpoint (default 60)"),
            OptionSpec("temperature", value: "T", help: "sampling temperature (default 0.4; 0.3 in deep mode)"),
            OptionSpec("allow-remote", help: "allow a non-loopback endpoint; the exact payload is written to stderr first"),
            OptionSpec("remote-chars", value: "N", help: "evidence characters sent to a remote endpoint at most (default 6000)"),
            OptionSpec("keep-going", help: "write an error record for a bad record and go on (exit 65 at the end)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let mode = try Mode.option(o)
        let sentences = o.value("sentences") == nil ? nil : try o.int("sentences", default: 2, in: 1...20)
        let embedTop = o.value("embed-top") == nil ? nil : try o.int("embed-top", default: 8, in: 0...1000)
        let route = try EndpointRoute(options: o)
        var encoder: MiniLMEncoder?
        if !o.flag("no-embed") {
            encoder = try EmbedCommand.loadEncoder(environment)
        }
        let composer = try ExtractiveComposer(encoder: encoder,
                                              cache: encoder.flatMap { SentenceVectorCache(home: environment.home, encoder: $0) })
        let resolver = try CitationResolver()
        let codec = RecordCodec()
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        return try loop.run(try RecordLoop.readers(for: o.operands)) { line in
            var q = try codec.decode(QueryRecord.self, from: line.data)
            let queryMode = try Mode.of(record: q.mode, else: mode)
            var settings = ExtractiveComposer.Settings.forMode(queryMode)
            if let sentences { settings.maxSentences = sentences }
            if let embedTop { settings.embedTop = embedTop }
            composer.settings = settings
            if let route {
                q.answer = route.answer(q, mode: queryMode, composer: composer, resolver: resolver)
            } else {
                q.answer = composer.compose(question: q.questionText, context: q.context, reading: q.analysis)
            }
            try NDJSONWriter.standardOutput.write(q)
        }
    }
}
