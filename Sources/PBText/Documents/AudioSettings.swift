import Foundation
import PBCore

/// Turns a recording into what was said in it: pb-listen's Whisper, handed to pb-chunk by the
/// executable (the speech target sits above this one, so the reader cannot name it).
public protocol AudioTranscribing: AnyObject, Sendable {
    /// Why recordings cannot be transcribed here (the model is not installed), nil when they can.
    var unavailable: String? { get }
    /// The model and the program that would transcribe: part of every cached transcript's key,
    /// so new weights or a new decoder hear a memo again.
    var identity: String { get }
    /// The transcript of the audio file at `path` (`ToolFailure` 65 when it is not audio).
    func transcribe(path: String) throws -> TranscriptRecord
}

/// Whether and how recordings (voice memos) are read as documents.
///
/// On when a transcriber is given: a memo that yields nothing is worse than one that takes a
/// tenth of its length to hear. `--no-audio` turns it off, and then a recording is an error naming
/// it, never dropped without a word.
public struct AudioSettings: Sendable {
    public var transcriber: (any AudioTranscribing)?
    /// Where transcripts are kept by content hash, so a re-ingest hears no memo twice (nil: no cache).
    public var cacheDirectory: URL?
    /// Why recordings are not read when `transcriber` is nil.
    public var offReason: String

    public init(transcriber: (any AudioTranscribing)?, cacheDirectory: URL? = nil,
                offReason: String = "recordings are not transcribed here (pb-chunk runs pb-listen's Whisper)") {
        self.transcriber = transcriber
        self.cacheDirectory = cacheDirectory
        self.offReason = offReason
    }

    /// No transcriber: what a reader outside the pocketbrains executable (a unit test) has.
    public static let off = AudioSettings(transcriber: nil)
}
