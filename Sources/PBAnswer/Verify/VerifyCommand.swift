import Foundation
import PBCore
import PBNeural

/// pb-verify: query records with `hits`, `context` and `answer` in, the same records out with a
/// `verdict`, the answer replaced by a grounded abstention when a critical gate fails or the
/// calibrated confidence is under the mode's threshold.
public enum VerifyCommand {
    public static let spec = CommandSpec(
        name: "pb-verify",
        summary: "check answers against their evidence with nine gates and abstain when they do not hold",
        operands: "[FILE ...]",
        options: [
            OptionSpec("mode", short: "m", value: "MODE", help: "fast, standard or deep: confidence floor " + Mode.allCases.map { String(format: "%.2f", Verifier.Settings.threshold(forMode: $0)) }.joined(separator: ", ") + " (default standard; a query's own mode wins)"),
            OptionSpec("threshold", short: "t", value: "T", help: "confidence an answer needs, in 0...1, instead of the mode's"),
            OptionSpec("calibration", value: "FILE", help: "gate weights and Platt parameters as JSON (default: the built-in ones)"),
            OptionSpec("critical", value: "LETTERS", help: "gates whose failure forces an abstention (default ABCEFGHI; '' for none)"),
            OptionSpec("exit-status", short: "e", help: "exit 1 when any answer was withheld"),
            OptionSpec("keep-going", help: "write an error record for a bad query and go on (exit 65 at the end)"),
        ])

    public static func settings(_ o: ParsedOptions, environment: PBEnvironment) throws -> Verifier.Settings {
        var s = Verifier.Settings()
        s.mode = try Mode.option(o)
        if o.value("threshold") != nil { s.threshold = try o.double("threshold", default: Verifier.Settings.threshold(forMode: .standard), in: 0...1) }
        if let path = o.value("calibration") { s.calibration = try Calibration.load(path: path) }
        if let letters = o.value("critical") {
            let said = Set(letters.uppercased().map(String.init))
            if let bad = said.sorted().first(where: { Gate(rawValue: $0) == nil }) {
                throw ToolFailure(.usage, "--critical: '\(bad)' is not a gate (expected letters A to I)")
            }
            s.critical = Set(said.compactMap(Gate.init(rawValue:)))
        }
        s.library = environment.library ?? "default"
        return s
    }

    /// The sentence encoder from the model folder (missing or unloadable is status 69), behind
    /// the sentence-vector cache in PB_HOME when that can be opened.
    public static func encoder(_ environment: PBEnvironment) throws -> any GroundingEncoder {
        let encoder = try EmbedCommand.loadEncoder(environment)
        guard let cache = SentenceVectorCache(home: environment.home, encoder: encoder) else { return encoder }
        return CachedGroundingEncoder(encoder: encoder, cache: cache)
    }

    /// `writer`: where records go (standard output; tests pass another).
    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment(),
                           writer: NDJSONWriter = .standardOutput) throws -> ExitCode {
        let settings = try settings(o, environment: environment)
        let verifier = try Verifier(settings: settings, encoder: try encoder(environment))
        let codec = RecordCodec()
        let loop = RecordLoop(keepGoing: o.flag("keep-going"), writer: writer)
        var withheld = 0
        let code = try loop.run(try RecordLoop.readers(for: o.operands)) { line in
            let q = try codec.decode(QueryRecord.self, from: line.data)
            _ = try Mode.of(record: q.mode, else: .standard)
            guard q.answer != nil else {
                throw ToolFailure(.badInput, "expected a query with an 'answer' (run pb-answer first)")
            }
            let out = verifier.verify(q)
            if out.verdict?.status == .abstained { withheld += 1 }
            try writer.write(out)
        }
        if code != .success { return code }
        return o.flag("exit-status") && withheld > 0 ? .verdict : .success
    }
}
