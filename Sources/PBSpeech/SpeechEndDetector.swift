import Foundation

/// When a recording from the microphone has ended, judged from the sound alone: after speech,
/// a stretch of quiet (the speaker has finished); before any, a longer wait (nobody spoke); and
/// in any case a limit. Time is counted in samples, not on the clock, so the same sound always
/// ends at the same place.
///
/// Speech is a run of 30 ms frames louder than the room: the quietest frame so far stands for
/// the room's noise, and a frame four times louder (12 dB), and at least -40 dBFS, is speech.
/// Frames of digital silence (under -80 dBFS: a device's first buffers are often zeros) are no
/// room, and do not set the noise.
/// Three such frames in a row (90 ms) are needed, so a click or a knock is not taken for it.
public struct SpeechEndDetector: Sendable {
    /// Why a recording ended (pb-records(5): not written; said in a note).
    public enum Stop: String, Sendable, Equatable {
        /// Quiet for `silenceAfterSpeech` after speech.
        case silence
        /// No speech within `waitForSpeech`.
        case noSpeech = "no speech"
        /// `maximum` reached.
        case limit
        /// Enter pressed on the terminal.
        case enter
        /// The recorder stopped by itself.
        case ended
    }

    public static let frame = 480
    public var silenceAfterSpeech: Double
    public var waitForSpeech: Double
    public var maximum: Double

    public private(set) var heardSpeech = false
    private var frames = 0
    private var loudRun = 0
    private var quietFrames = 0
    private var noise: Float = .infinity

    public init(silenceAfterSpeech: Double = 2, waitForSpeech: Double = 10, maximum: Double = 600) {
        self.silenceAfterSpeech = silenceAfterSpeech
        self.waitForSpeech = waitForSpeech
        self.maximum = maximum
    }

    var seconds: Double { Double(frames * Self.frame) / Double(AudioInput.sampleRate) }

    /// One frame of samples (`frame` of them); the reason to stop once there is one.
    public mutating func feed<C: Collection>(_ samples: C) -> Stop? where C.Element == Float {
        var energy: Float = 0
        for s in samples { energy += s * s }
        let rms = (energy / Float(max(1, samples.count))).squareRoot()
        frames += 1
        if rms >= 1e-4 { noise = min(noise, rms) }
        let loud = rms > max(0.01, noise.isFinite ? noise * 4 : 0)
        loudRun = loud ? loudRun + 1 : 0
        if loudRun >= 3 { heardSpeech = true }
        quietFrames = loud ? 0 : quietFrames + 1
        if seconds >= maximum { return .limit }
        if heardSpeech, Double(quietFrames * Self.frame) / Double(AudioInput.sampleRate) >= silenceAfterSpeech { return .silence }
        if !heardSpeech, seconds >= waitForSpeech { return .noSpeech }
        return nil
    }
}
