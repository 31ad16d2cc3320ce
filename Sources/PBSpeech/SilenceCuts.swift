import Foundation

/// The long silences of a recording, left out before Whisper hears it, and the way back from
/// the time in what it heard to the time in the file.
///
/// Whisper takes digital or near silence for speech: on a memo with a long pause, tiny.en writes
/// " you" every two seconds of it, and carried as the prompt, the loop can swallow the speech
/// after it (seen on a request after 200 s of silence). faster-whisper's answer is a voice
/// detector (Silero) before the model; this is the same step on loudness alone: a stretch of at
/// least `minimumSilence` whose every frame is quiet is cut, keeping `margin` of it at each side,
/// and the spectrogram's remaining frames are joined. A recording with no such stretch (every
/// utterance of the speech eval) is heard exactly as before.
///
/// Quiet is below twice the recording's floor (its 10th-percentile frame), and below -60 dBFS
/// or 30 dB under its loudest frame, whichever is lower, at the least: a room's hum counts as
/// silence, but a quiet voice does not, nor a recording made very quietly (Whisper scales a file
/// by its loudest, and hears it). Only digital silence is cut whole.
public struct SilenceCuts: Sendable, Equatable {
    /// The frames (10 ms) kept, in order, as ranges of the file's frames.
    public let kept: [Range<Int>]
    /// Frames in the file.
    public let frames: Int

    public static let minimumSilence = 2.0
    public static let margin = 0.5

    public init(kept: [Range<Int>], frames: Int) {
        self.kept = kept
        self.frames = frames
    }

    /// The cuts for frames of these loudnesses (`MelFrames.levels`).
    public init(levels: [Float]) {
        frames = levels.count
        guard !levels.isEmpty else { kept = []; return }
        let sorted = levels.sorted()
        let floor = sorted[sorted.count / 10], loudest = sorted[sorted.count - 1]
        // Digital silence (under -120 dBFS) is quiet whatever else the file holds.
        let quiet = max(min(1e-3, loudest * 0.03), 2 * floor, 1e-6)
        let shortest = Int(Self.minimumSilence * 100), pad = Int(Self.margin * 100)
        var kept: [Range<Int>] = []
        var keepFrom = 0, f = 0
        while f < levels.count {
            guard levels[f] < quiet else { f += 1; continue }
            var end = f
            while end < levels.count, levels[end] < quiet { end += 1 }
            if end - f >= shortest {
                // The start of the file and its end need no margin on their outer side.
                let cutFrom = f == 0 ? 0 : f + pad, cutTo = end == levels.count ? end : end - pad
                if cutFrom > keepFrom { kept.append(keepFrom..<cutFrom) }
                keepFrom = cutTo
            }
            f = end
        }
        if keepFrom < levels.count { kept.append(keepFrom..<levels.count) }
        // A steady sound with nothing louder is all "quiet" beside its own floor: unless it is
        // digital silence, it is heard whole.
        self.kept = kept.isEmpty && loudest >= 1e-5 ? [0..<levels.count] : kept
    }

    /// Nothing is cut.
    public var isEmpty: Bool { kept == [0..<frames] }
    /// Frames left.
    public var count: Int { kept.reduce(0) { $0 + $1.count } }

    /// The file's time of a time in the joined frames. A time at a join is the end of the part
    /// before it when `end`, the start of the part after it otherwise.
    public func original(_ seconds: Double, end: Bool) -> Double {
        var left = seconds * 100
        for (i, part) in kept.enumerated() {
            let length = Double(part.count)
            if left < length || (end && left == length) || i == kept.count - 1 {
                return (Double(part.lowerBound) + min(left, length)) / 100
            }
            left -= length
        }
        return seconds
    }

    /// A segment's times in the file. Whisper's times are coarse: a segment said after a cut may
    /// start in the margin of quiet kept before it, and would then span the whole silence; it is
    /// taken to start where the part after the cut does (its margin, half a second before its
    /// speech).
    public func span(start: Double, end: Double) -> (start: Double, end: Double) {
        var from = original(start, end: false)
        let to = original(end, end: true)
        let pad = Self.margin
        if let i = kept.firstIndex(where: { Double($0.lowerBound) / 100 <= from && from < Double($0.upperBound) / 100 }),
           i + 1 < kept.count, Double(kept[i].upperBound) / 100 - from <= pad, to > Double(kept[i].upperBound) / 100 {
            from = Double(kept[i + 1].lowerBound) / 100
        }
        return (from, max(from, to))
    }
}
