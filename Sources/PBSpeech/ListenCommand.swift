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
/// `doc` records whose `path` is an audio file, or lines that are paths. `--record` takes speech
/// from the microphone instead, until Enter or the speaker stops.
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
            OptionSpec("beam", value: "N", help: "beam search over N sequences (default 1, greedy; 5 with --vocabulary)"),
            OptionSpec("record", help: "record from the microphone (ALSA's arecord) until Enter, or until the speaker stops, and transcribe that"),
            OptionSpec("device", value: "NAME", help: "with --record: the ALSA device to record from (arecord -L lists them; default: ALSA's default)"),
            OptionSpec("silence", value: "SECONDS", help: "with --record: quiet after speech that ends the recording (default 2)"),
            OptionSpec("limit", value: "SECONDS", help: "with --record: the longest recording (default 600, at most 3600)"),
            OptionSpec("save", value: "FILE", help: "with --record: keep the recording as a new WAV file (never over an existing one), private to you"),
            OptionSpec("threads", value: "N", help: "threads for the audio encoder and the logits (default 2)"),
            OptionSpec("check", help: "load the model and exit: 0 if it loads, 69 if not"),
            OptionSpec("keep-going", help: "write an error record for a file that cannot be transcribed and go on (exit 65 at the end)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let threads = try o.int("threads", default: 2, in: 1...64)
        let beam = try o.int("beam", default: o.flag("vocabulary") ? 5 : 1, in: 1...16)
        let recording = try Self.microphone(o)
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
        let listener = Listener(model: model, audio: try AudioInput.find(), threads: threads, beamSize: beam)
        if o.flag("no-names"), o.value("contacts") != nil {
            throw ToolFailure(.usage, "--contacts and --no-names exclude each other")
        }
        if !o.flag("no-names"), let book = try contacts(o.value("contacts"), environment: environment) {
            listener.names = SpokenNames(book: book)
        }
        listener.transcriber.initialPrompt = Self.prompt(o.flag("vocabulary") ? SpeechVocabulary.read(environment) : nil,
                                                         given: o.value("prompt"), model: model)
        let writer = NDJSONWriter.standardOutput
        if let (microphone, save) = recording {
            Diagnostics.shared.progress("recording: press Enter to stop, or stop speaking")
            let heard = try microphone.record(save: save)
            Diagnostics.shared.endProgress()
            if let save, let why = heard.saveFailed {
                Diagnostics.shared.error("--save: \(save): \(why); the file holds what was written before that, the transcript all that was said")
            }
            var record = listener.transcribe(heard.samples, path: save)
            record.time = ISO8601DateFormatter().string(from: heard.began)
            if heard.stop == .limit {
                Diagnostics.shared.note("the recording reached --limit (\(Int(microphone.detector.maximum)) s) and was stopped there")
                record.extra["truncated"] = .bool(true)
            }
            try writer.write(record)
            return heard.saveFailed == nil ? .success : .ioError
        }
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
    /// `--record`'s microphone and `--save`'s file, nil without `--record`; the recording options
    /// without it, or audio operands with it, are usage errors (a `--save` file that is already
    /// there is one too, found when the file is made, before anyone speaks).
    static func microphone(_ o: ParsedOptions) throws -> (Microphone, String?)? {
        let options = ["device", "silence", "limit", "save"]
        guard o.flag("record") else {
            if let given = options.first(where: { o.value($0) != nil }) { throw ToolFailure(.usage, "--\(given) needs --record") }
            return nil
        }
        guard o.operands.isEmpty else { throw ToolFailure(.usage, "--record takes no audio files (it records from the microphone)") }
        let detector = SpeechEndDetector(silenceAfterSpeech: try o.double("silence", default: 2, in: 0.3...60),
                                         maximum: try o.double("limit", default: 600, in: 1...3600))
        return (Microphone(device: o.value("device"), detector: detector), o.value("save"))
    }

    /// The decoder's prompt: the vocabulary's, when asked, then the words given, in the positions
    /// a prompt may take (the decoder keeps the last ones, which would cut the phrasing first).
    /// The store's names are given up a hundred characters at a time until it fits.
    static func prompt(_ vocabulary: SpeechVocabulary?, given: String?, model: WhisperModel) -> String? {
        let limit = model.dimensions.textContext / 2 - 1
        var budget = SpeechVocabulary.budget
        while true {
            let text = [vocabulary?.prompt(characters: budget), given].compactMap { $0 }.joined(separator: " ")
            if text.isEmpty { return nil }
            if vocabulary == nil || budget <= 0 || model.tokenizer.encode(" " + text).count <= limit { return text }
            budget -= 100
        }
    }

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

    public init(model: WhisperModel, audio: AudioInput, threads: Int, beamSize: Int = 1) {
        transcriber = WhisperTranscriber(model: model, threads: threads, beamSize: beamSize)
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
        let heard = try audio.listen(path, bands: transcriber.model.dimensions.mels, kernel: transcriber.model.path)
        // On a terminal, how far a long recording has gone, window by window.
        transcriber.progress = { done, whole in
            Diagnostics.shared.progress("\(TerminalText.visible(path)): \(Int(done)) of \(Int(whole)) s")
        }
        defer { Diagnostics.shared.endProgress() }
        var record = try transcribe(heard, path: path)
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
    /// (mkdtemp makes it 0700), copied there a piece at a time, and removed once decoded (a
    /// recording over five minutes, decoded twice, once transcribed).
    public func transcribeStandardInput() throws -> TranscriptRecord {
        var template = Array((FileManager.default.temporaryDirectory.path + "/pb-listen-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ToolFailure(.ioError, "cannot make a private folder for standard input's audio") }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/audio"
        let copy = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard copy >= 0 else { throw ToolFailure(.ioError, "cannot keep standard input's audio in \(folder): \(String(cString: strerror(errno)).lowercased())") }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(0, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n < 0 {
                close(copy)
                throw ToolFailure(.ioError, "cannot read standard input: \(String(cString: strerror(errno)).lowercased())")
            }
            if n == 0 { break }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(copy, $0.baseAddress! + offset, n - offset) }
                if w < 0, errno == EINTR { continue }
                guard w > 0 else {
                    close(copy)
                    throw ToolFailure(.ioError, "cannot keep standard input's audio in \(folder): \(String(cString: strerror(errno)).lowercased())")
                }
                offset += w
            }
        }
        close(copy)
        do {
            let heard = try audio.listen(file, bands: transcriber.model.dimensions.mels, kernel: transcriber.model.path)
            if heard.streamed == nil { try? FileManager.default.removeItem(atPath: folder) }
            var record = try transcribe(heard, path: nil)
            if heard.promisedSeconds != nil { record.extra["truncated"] = .bool(true) }
            return record
        } catch let failure as ToolFailure {
            throw ToolFailure(failure.code, failure.message.replacingOccurrences(of: file, with: "<stdin>"))
        }
    }

    /// The transcript of what `AudioInput.listen` read.
    func transcribe(_ heard: AudioInput.Listening, path: String?) throws -> TranscriptRecord {
        var segments: [TranscriptSegment] = []
        if heard.samples > 0, heard.cuts.count > 0 {
            if let mel = heard.spectrogram { segments = transcriber.transcribe(mel) } else if let mel = heard.streamed { segments = try transcriber.transcribe(mel) }
        }
        return record(segments, heard: heard, path: path)
    }

    /// The record of `segments` Whisper heard in `heard`, their times back in the file's (the
    /// silences left out put back).
    func record(_ segments: [TranscriptSegment], heard: AudioInput.Listening, path: String?) -> TranscriptRecord {
        var segments = segments
        if !heard.cuts.isEmpty {
            for i in segments.indices {
                (segments[i].start, segments[i].end) = heard.cuts.span(start: segments[i].start, end: segments[i].end)
            }
        }
        return record(segments, seconds: heard.seconds, empty: heard.samples == 0, path: path)
    }


    /// The transcript of samples in memory (a recording from the microphone), long silences left
    /// out as for a file.
    public func transcribe(_ samples: [Float], path: String?) -> TranscriptRecord {
        let heard = AudioInput.listening(samples: samples, bands: transcriber.model.dimensions.mels, kernel: transcriber.model.path)
        let segments = heard.cuts.count > 0 && !samples.isEmpty ? heard.spectrogram.map { transcriber.transcribe($0) } ?? [] : []
        return record(segments, heard: heard, path: path)
    }

    /// The record of `segments` heard in `seconds` of audio (none at all when `empty`).
    func record(_ heard: [TranscriptSegment], seconds: Double, empty: Bool, path: String?) -> TranscriptRecord {
        let model = transcriber.model
        // A timestamp past the end of the audio is the model's guess, not a time in the file.
        var segments = heard.map { s in
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
        let reason: TranscriptReason? = !text.isEmpty ? nil : empty ? .empty : .silence
        var record = TranscriptRecord(path: path, text: text, duration: (seconds * 1000).rounded() / 1000,
                                      segments: segments, reason: reason, model: model.name, kernel: model.kernel.rawValue)
        record.names = corrections.isEmpty ? nil : corrections
        return record
    }
}
