import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PBCore
import PBAgent
import PBNeural

/// pb-listen: audio files to `transcript` records, on PocketBrains' own Whisper.
///
/// Operands are audio files (`-`: audio on standard input). Without operands it reads records:
/// `doc` records whose `path` is an audio file (what pb-ingest hands on), or lines that are paths.
public enum ListenCommand {
    public static let spec = CommandSpec(
        name: "pb-listen",
        summary: "transcribe speech in audio files to transcript records (Whisper, offline)",
        operands: "[AUDIO ...]",
        options: [
            OptionSpec("model", value: "DIR", help: "the Whisper model folder (default: PB_SPEECH_MODEL_DIR, else $PB_HOME/models/whisper-tiny.en)"),
            OptionSpec("prompt", value: "TEXT", help: "words the speaker is likely to say (names, terms), given to the decoder as earlier text"),
            OptionSpec("contacts", value: "PATH", help: "a .vcf file or a folder of them whose names are heard (default: PB_CONTACTS, else $PB_HOME/contacts)"),
            OptionSpec("no-names", help: "use no contacts: recover no names"),
            OptionSpec("vocabulary", help: "prompt the decoder with the agent's phrasing and the store's projects and open tasks (requests for pb-do)"),
            OptionSpec("threads", value: "N", help: "threads for the audio encoder and the logits (default 2)"),
            OptionSpec("check", help: "load the model and exit: 0 if it loads, 69 if not"),
            OptionSpec("keep-going", help: "write an error record for a file that cannot be transcribed and go on (exit 65 at the end)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let threads = try o.int("threads", default: 2, in: 1...64)
        let directory = o.value("model").map { URL(fileURLWithPath: $0) } ?? environment.speechModelDirectory
        let model: WhisperModel
        do {
            model = try WhisperModel(directory: directory)
        } catch let error as ExitStatusProviding {
            throw ToolFailure(error.exitCode, error.description)
        }
        if o.flag("check") {
            let d = model.dimensions
            Diagnostics.shared.note("model \(model.name) (\(d.encoderLayers)+\(d.decoderLayers) layers, width \(d.width)) at \(directory.path); kernels \(model.kernel)")
            return .success
        }
        let listener = Listener(model: model, audio: try AudioInput.find(), threads: threads)
        if o.flag("no-names"), o.value("contacts") != nil {
            throw ToolFailure(.usage, "--contacts and --no-names exclude each other")
        }
        if !o.flag("no-names"), let book = try contacts(o.value("contacts"), environment: environment) {
            listener.names = SpokenNames(book: book)
        }
        let vocabulary = o.flag("vocabulary") ? SpeechVocabulary.read(environment).prompt() : nil
        listener.transcriber.initialPrompt = [vocabulary, o.value("prompt")].compactMap { $0 }.joined(separator: " ").nilIfEmpty
        let writer = NDJSONWriter.standardOutput
        if o.operands.isEmpty {
            let loop = RecordLoop(keepGoing: o.flag("keep-going"))
            return try loop.run(try RecordLoop.readers(for: [])) { line in
                let path = try Listener.path(of: line)
                try writer.write(try listener.transcribe(path: path))
            }
        }
        // A file that is not audio stops the run (65), or with --keep-going becomes an error record
        // in its place; a file that cannot be opened always stops it (66).
        var bad = 0
        for operand in o.operands {
            do {
                try writer.write(operand == "-" ? try listener.transcribeStandardInput() : try listener.transcribe(path: operand))
            } catch let failure as ToolFailure where failure.code == .badInput && o.flag("keep-going") {
                bad += 1
                Diagnostics.shared.error(failure.message)
                try writer.write(ErrorRecord(tool: spec.name, source: operand, line: 0, message: failure.message, input: operand, path: operand))
            }
        }
        return bad > 0 ? .badInput : .success
    }
}

extension ListenCommand {
    /// `--contacts`, else PB_CONTACTS, else `$PB_HOME/contacts` when it is there; nil when the
    /// user keeps none. A path given that names nothing is an error (66), not an empty book.
    static func contacts(_ option: String?, environment: PBEnvironment) throws -> ContactBook? {
        let given = option ?? ProcessInfo.processInfo.environment["PB_CONTACTS"].flatMap { $0.isEmpty ? nil : $0 }
        let path = given ?? environment.home.appendingPathComponent("contacts").path
        guard given != nil || FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try ContactBook.load(path)
        } catch {
            throw ToolFailure(.cannotOpen, "--contacts: \(error)")
        }
    }
}

/// The work of pb-listen on one input, apart from option parsing so tests can drive it.
public final class Listener {
    public let transcriber: WhisperTranscriber
    let audio: AudioInput
    /// The user's contacts, whose names are recovered in the transcript.
    public var names: SpokenNames?

    public init(model: WhisperModel, audio: AudioInput, threads: Int) {
        transcriber = WhisperTranscriber(model: model, threads: threads)
        self.audio = audio
    }

    /// The audio file a record or a line names.
    static func path(of line: InputLine) throws -> String {
        let text = line.text.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("{") else {
            guard !text.isEmpty else { throw ToolFailure(.badInput, "an empty line (expected a doc record or an audio file's path)") }
            return text
        }
        let doc = try RecordCodec().decode(DocRecord.self, from: line.data)
        guard let path = doc.path, !path.isEmpty else { throw ToolFailure(.badInput, "a doc record without a path (pb-listen reads audio files)") }
        return path
    }

    public func transcribe(path: String) throws -> TranscriptRecord {
        let heard = try audio.read(path)
        // On a terminal, how far a long recording has gone, window by window.
        transcriber.progress = { done, whole in
            Diagnostics.shared.progress("\(TerminalText.visible(path)): \(Int(done)) of \(Int(whole)) s")
        }
        defer { Diagnostics.shared.endProgress() }
        var record = transcribe(heard.samples, path: path)
        if let promised = heard.promisedSeconds {
            Diagnostics.shared.note("\(path): the file is cut short: its header promises \(String(format: "%.2f", promised)) s of audio and it holds \(String(format: "%.2f", heard.seconds)) s; transcribed what is there")
            record.extra["truncated"] = .bool(true)
        }
        if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
            record.time = ISO8601DateFormatter().string(from: modified)
        }
        return record
    }

    /// Audio on standard input, kept for sox to read in a folder only its owner can enter
    /// (mkdtemp makes it 0700), and removed as soon as it is decoded.
    public func transcribeStandardInput() throws -> TranscriptRecord {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var template = Array((FileManager.default.temporaryDirectory.path + "/pb-listen-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ToolFailure(.ioError, "cannot make a private folder for standard input's audio") }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/audio"
        guard FileManager.default.createFile(atPath: file, contents: data) else {
            throw ToolFailure(.ioError, "cannot keep standard input's audio in \(folder)")
        }
        let heard: AudioInput.Audio
        do {
            heard = try audio.read(file)
        } catch let failure as ToolFailure {
            throw ToolFailure(failure.code, failure.message.replacingOccurrences(of: file, with: "<stdin>"))
        }
        try? FileManager.default.removeItem(atPath: folder)
        var record = transcribe(heard.samples, path: nil)
        if heard.promisedSeconds != nil { record.extra["truncated"] = .bool(true) }
        return record
    }

    public func transcribe(_ samples: [Float], path: String?) -> TranscriptRecord {
        let model = transcriber.model
        let seconds = Double(samples.count) / Double(AudioInput.sampleRate)
        // A timestamp past the end of the audio is the model's guess, not a time in the file.
        var segments = (samples.isEmpty ? [] : transcriber.transcribe(samples)).map { s in
            var s = s
            s.end = (min(s.end, seconds) * 1000).rounded() / 1000
            s.start = min((s.start * 1000).rounded() / 1000, s.end)
            return s
        }
        var corrections: [NameCorrection] = []
        if let names {
            for i in segments.indices {
                let (text, found) = names.recover(segments[i].text)
                segments[i].text = text
                corrections += found
            }
        }
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines)
        let reason: TranscriptReason? = !text.isEmpty ? nil : samples.isEmpty ? .empty : .silence
        var record = TranscriptRecord(path: path, text: text, duration: (seconds * 1000).rounded() / 1000,
                                      segments: segments, reason: reason, model: model.name, kernel: model.kernel.rawValue)
        record.names = corrections.isEmpty ? nil : corrections
        return record
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
