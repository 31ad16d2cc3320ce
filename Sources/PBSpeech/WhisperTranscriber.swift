import Foundation
import PBCore

/// Speech to segments: the spectrogram cut into 30-second windows, each encoded and decoded
/// with timestamps; the next window starts where the last complete segment ended (faster-whisper's
/// and OpenAI's seeking), with the text so far as the prompt, so a long recording reads on.
public final class WhisperTranscriber {
    public let model: WhisperModel
    let encoder: WhisperEncoder
    let decoder: WhisperDecoder
    /// Words the speaker is likely to say (contact names, the store's vocabulary), given to the
    /// decoder as text that came before.
    public var initialPrompt: String?
    /// A window whose no-speech probability is above this, and whose text is unlikely (mean
    /// log-probability below `logProbabilityThreshold`), is taken as silence.
    public var noSpeechThreshold = 0.6
    public var logProbabilityThreshold = -1.0
    /// Seconds of audio transcribed so far, and the whole, after each window.
    public var progress: ((Double, Double) -> Void)?
    /// Sequences a window's beam search keeps (1: greedy decoding, faster-whisper's reference).
    public let beamSize: Int

    static let secondsPerTimestamp = 0.02
    static let framesPerTimestamp = 2

    public init(model: WhisperModel, threads: Int = 1, beamSize: Int = 1) {
        self.model = model
        self.beamSize = max(1, beamSize)
        encoder = WhisperEncoder(model: model, threads: threads)
        decoder = WhisperDecoder(model: model, threads: threads, slots: self.beamSize)
    }

    func decode(prompt: [Int], rules: TimestampRules) -> WindowDecoding {
        beamSize > 1 ? WindowDecoding.beam(decoder, prompt: prompt, rules: rules, size: beamSize)
            : WindowDecoding.greedy(decoder, prompt: prompt, rules: rules)
    }

    /// The segments spoken in `samples` (16 kHz mono), in order; empty when nothing was said.
    public func transcribe(_ samples: [Float]) -> [TranscriptSegment] {
        let mel = LogMelSpectrogram(samples: samples, bands: model.dimensions.mels, path: model.path)
        return transcribe(mel)
    }

    public func transcribe(_ mel: LogMelSpectrogram) -> [TranscriptSegment] {
        transcribe(frames: mel.frames) { seek, size in
            Array(mel.values[(seek * mel.bands)..<((seek + size) * mel.bands)])
        }
    }

    /// A long recording's spectrogram, read a window at a time.
    func transcribe(_ mel: StreamedSpectrogram) throws -> [TranscriptSegment] {
        try transcribe(frames: mel.frames) { seek, size in try mel.window(from: seek, count: size) }
    }

    /// The segments of a spectrogram of `frames` frames whose frames `seek ..< seek + size`
    /// `window` gives (asked in order, moving forward).
    func transcribe(frames: Int, window: (Int, Int) throws -> [Float]) rethrows -> [TranscriptSegment] {
        let tokenizer = model.tokenizer, specials = tokenizer.specials
        let windowFrames = encoder.frames
        let contentFrames = max(frames - 1, 0)
        let rules = TimestampRules(specials: specials, suppressed: model.suppressed, suppressedAtBegin: model.suppressedAtBegin)
        var previous: [Int] = (initialPrompt.map { tokenizer.encode(" " + $0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? [])
            .filter { $0 < specials.endOfText }
        var segments: [TranscriptSegment] = []
        var seek = 0
        while seek < contentFrames {
            let size = min(windowFrames, contentFrames - seek)
            let timeOffset = Double(seek) * 0.01
            let audio = try window(seek, size).withUnsafeBufferPointer { encoder.encode($0) }
            decoder.begin(audio: audio)
            var prompt: [Int] = []
            if !previous.isEmpty {
                prompt = [specials.startOfPrevious] + previous.suffix(model.dimensions.textContext / 2 - 1)
            }
            prompt += tokenizer.startSequence
            var result = decode(prompt: prompt, rules: rules)
            // A prompt of the caller's (--prompt, --vocabulary) can lead a small model into
            // repeating it or itself; such a window (as repetitive as faster-whisper's fallback
            // threshold, or unlikely) is decoded again without any prompt, and the likelier of the
            // two kept. Without a caller's prompt nothing changes: decoding stays the reference's.
            if initialPrompt != nil, result.needsFallback(tokenizer) {
                let plain = decode(prompt: tokenizer.startSequence, rules: rules)
                if !plain.needsFallback(tokenizer) || plain.averageLogProbability > result.averageLogProbability { result = plain }
            }
            if result.noSpeechProbability > noSpeechThreshold && result.averageLogProbability <= logProbabilityThreshold {
                seek += size
                progress?(Double(min(seek, contentFrames)) * 0.01, Double(contentFrames) * 0.01)
                continue
            }
            let (pieces, next) = split(result.tokens, timeOffset: timeOffset, size: size, seek: seek)
            for piece in pieces {
                let text = tokenizer.decode(piece.tokens)
                if piece.start == piece.end || text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
                previous += piece.tokens
                segments.append(TranscriptSegment(start: piece.start, end: piece.end, text: text,
                                              averageLogProbability: result.averageLogProbability,
                                              noSpeechProbability: result.noSpeechProbability))
            }
            // A window that ends on <|0.00|> would be decoded again with the same prompt: the whole
            // window is taken as read instead.
            seek = next > seek ? next : seek + size
            progress?(Double(min(seek, contentFrames)) * 0.01, Double(contentFrames) * 0.01)
        }
        return segments
    }

    /// A window's tokens cut at its timestamp pairs, and where the next window starts.
    func split(_ tokens: [Int], timeOffset: Double, size: Int, seek: Int) -> ([(start: Double, end: Double, tokens: [Int])], Int) {
        let begin = model.tokenizer.specials.timestampBegin
        let singleEnding = tokens.count >= 2 && tokens[tokens.count - 2] < begin && tokens[tokens.count - 1] >= begin
        let consecutive = tokens.indices.filter { $0 > 0 && tokens[$0] >= begin && tokens[$0 - 1] >= begin }
        func time(_ token: Int) -> Double { timeOffset + Double(token - begin) * Self.secondsPerTimestamp }
        guard !consecutive.isEmpty else {
            var duration = Double(size) * 0.01
            if let last = tokens.last(where: { $0 >= begin }), last != begin { duration = Double(last - begin) * Self.secondsPerTimestamp }
            return ([(timeOffset, timeOffset + duration, tokens)], seek + size)
        }
        var slices = consecutive
        if singleEnding { slices.append(tokens.count) }
        var pieces: [(start: Double, end: Double, tokens: [Int])] = []
        var last = 0
        for current in slices {
            let part = Array(tokens[last..<current])
            pieces.append((time(part[0]), time(part[part.count - 1]), part))
            last = current
        }
        if singleEnding { return (pieces, seek + size) }
        return (pieces, seek + (tokens[last - 1] - begin) * Self.framesPerTimestamp)
    }
}
