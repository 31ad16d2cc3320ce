import Foundation
import PBCore
import PBText

/// pb-listen's Whisper as pb-chunk's ear: a recording in a library (a voice memo) is read as what
/// was said in it. The model is loaded at the first recording, so a run over text loads none.
///
/// Names are not recovered here: a document keeps what was heard, and a contact book changing
/// would otherwise change an unchanged memo's text.
public final class RecordingTranscriber: AudioTranscribing, @unchecked Sendable {
    let modelDirectory: URL
    let threads: Int
    private var listener: Listener?

    public init(environment: PBEnvironment = PBEnvironment(), threads: Int = 2) {
        modelDirectory = environment.speechModelDirectory
        self.threads = threads
    }

    var weights: URL { modelDirectory.appendingPathComponent("model.bin") }

    public var unavailable: String? {
        guard FileManager.default.fileExists(atPath: weights.path) else {
            return "pb-listen's Whisper model is not installed at \(modelDirectory.path) (make model-speech)"
        }
        guard ExternalProgram.find("sox") != nil else { return "sox is not installed (apt-get install sox libsox-fmt-all): it reads the audio" }
        return nil
    }

    /// The weights' folder, size and time, and the decoder's revision: bumped when decoding
    /// changes what a recording's transcript says.
    public var identity: String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: weights.path)
        let size = (attributes?[.size] as? Int) ?? 0
        let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(modelDirectory.lastPathComponent) \(size) \(Int(time)) decoder 2"
    }

    public func transcribe(path: String) throws -> TranscriptRecord {
        if listener == nil {
            let model: WhisperModel
            do {
                model = try WhisperModel(directory: modelDirectory)
            } catch let error as ExitStatusProviding {
                throw ToolFailure(error.exitCode, error.description)
            }
            listener = Listener(model: model, audio: try AudioInput.find(), threads: threads)
        }
        return try listener!.transcribe(path: path)
    }
}
