import Foundation
import PBCore
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
            OptionSpec("threads", value: "N", help: "threads for the audio encoder (default 2)"),
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
        listener.transcriber.initialPrompt = o.value("prompt")
        let writer = NDJSONWriter.standardOutput
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        if o.operands.isEmpty {
            return try loop.run(try RecordLoop.readers(for: [])) { line in
                let path = try Listener.path(of: line)
                try writer.write(try listener.transcribe(path: path))
            }
        }
        for operand in o.operands {
            do {
                try writer.write(operand == "-" ? try listener.transcribeStandardInput() : try listener.transcribe(path: operand))
            } catch let failure as ToolFailure where failure.code == .badInput && loop.keepGoing {
                try loop.report(failure.message, at: InputLine(data: Data(operand.utf8), source: operand, number: 0), path: operand)
            }
        }
        return loop.badLines > 0 ? .badInput : .success
    }
}

/// The work of pb-listen on one input, apart from option parsing so tests can drive it.
public final class Listener {
    public let transcriber: WhisperTranscriber
    let audio: AudioInput

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

    /// Audio on standard input, kept in a private temporary file for sox to read.
    public func transcribeStandardInput() throws -> TranscriptRecord {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pb-listen-\(getpid()).audio")
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ToolFailure(.ioError, "cannot keep standard input's audio in \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        var record = try transcribe(path: file.path)
        record.path = nil
        record.time = nil
        return record
    }

    public func transcribe(_ samples: [Float], path: String?) -> TranscriptRecord {
        let model = transcriber.model
        let seconds = Double(samples.count) / Double(AudioInput.sampleRate)
        // A timestamp past the end of the audio is the model's guess, not a time in the file.
        let segments = (samples.isEmpty ? [] : transcriber.transcribe(samples)).map { s in
            var s = s
            s.end = (min(s.end, seconds) * 1000).rounded() / 1000
            s.start = min((s.start * 1000).rounded() / 1000, s.end)
            return s
        }
        let text = segments.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines)
        let reason: TranscriptReason? = !text.isEmpty ? nil : samples.isEmpty ? .empty : .silence
        return TranscriptRecord(path: path, text: text, duration: (seconds * 1000).rounded() / 1000,
                                segments: segments, reason: reason, model: model.name, kernel: model.kernel.rawValue)
    }
}
