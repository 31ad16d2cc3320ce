/// `transcript`: what was said in one audio file (or one recording), from pb-listen.
///
/// `text` is the whole transcript, so the next stage reads it as it reads any text: pb-do as a
/// request, pb-thread and pb-remember as a message, pb-ask as a question. `segments` are the
/// stretches of speech with their times in seconds from the start and Whisper's confidence.
/// An empty `text` always comes with `reason`. `names` lists the names changed to a contact's.
public struct TranscriptRecord: PBRecord, Equatable {
    public static let kindName = "transcript"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "transcript"
    public var path: String?
    public var text: String
    /// Seconds of audio.
    public var duration: Double
    public var segments: [TranscriptSegment]
    /// Why `text` is empty.
    public var reason: TranscriptReason?
    public var names: [NameCorrection]?
    /// The model folder's name and the kernel path that ran it.
    public var model: String
    public var kernel: String
    /// When the recording was made (the file's modification time), ISO 8601 with an offset.
    public var time: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, path, text, duration, segments, reason, names, model, kernel, time
    }

    public init(path: String?, text: String, duration: Double, segments: [TranscriptSegment], reason: TranscriptReason? = nil,
                model: String, kernel: String, time: String? = nil) {
        self.path = path
        self.text = text
        self.duration = duration
        self.segments = segments
        self.reason = reason
        self.model = model
        self.kernel = kernel
        self.time = time
    }
}

/// A stretch of speech and its text, with Whisper's confidence in it.
public struct TranscriptSegment: Codable, Sendable, Equatable {
    /// Seconds from the start of the audio.
    public var start: Double
    public var end: Double
    public var text: String
    /// Mean log-probability per token of the window the segment came from (its end counted).
    public var averageLogProbability: Double
    /// The window's probability of holding no speech.
    public var noSpeechProbability: Double

    enum CodingKeys: String, CodingKey {
        case start, end, text
        case averageLogProbability = "avg_logprob"
        case noSpeechProbability = "no_speech_prob"
    }

    public init(start: Double, end: Double, text: String, averageLogProbability: Double, noSpeechProbability: Double) {
        self.start = start
        self.end = end
        self.text = text
        self.averageLogProbability = averageLogProbability
        self.noSpeechProbability = noSpeechProbability
    }
}

/// Why a transcript is empty (pb-records(5)): a closed set.
public enum TranscriptReason: String, ClosedSet {
    /// The audio holds no samples.
    case empty
    /// Whisper heard no speech in it.
    case silence
}

/// A word of the transcript heard after a word that names a person ("call", "text", "with"...)
/// that sounds like a contact's name: replaced by the name when one contact sounds so
/// (`name`), left as heard when several do (`candidates`), so nothing is guessed.
public struct NameCorrection: Codable, Sendable, Equatable {
    public var heard: String
    public var name: String?
    public var candidates: [String]?

    public init(heard: String, name: String? = nil, candidates: [String]? = nil) {
        self.heard = heard
        self.name = name
        self.candidates = candidates
    }
}
