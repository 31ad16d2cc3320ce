import Foundation
import Testing
@testable import PBSpeech

@Suite("When a recording ends")
struct SpeechEndDetectorTests {
    /// Frames of a tone at `level` (peak), or of room noise at 1e-3.
    static func frame(_ level: Float) -> [Float] {
        (0..<SpeechEndDetector.frame).map { i in level * sin(Float(i) * 0.2) + 1e-3 * (i % 2 == 0 ? 1 : -1) }
    }

    /// Feeds frames until a stop; the stop and after how many frames.
    static func run(_ d: inout SpeechEndDetector, _ frames: [[Float]]) -> (SpeechEndDetector.Stop?, Int) {
        for (i, f) in frames.enumerated() { if let stop = d.feed(f) { return (stop, i + 1) } }
        return (nil, frames.count)
    }

    @Test func quietAfterSpeechEndsIt() {
        var d = SpeechEndDetector(silenceAfterSpeech: 0.6)
        let room = Array(repeating: Self.frame(0), count: 10), speech = Array(repeating: Self.frame(0.3), count: 50)
        let (stop, at) = Self.run(&d, room + speech + Array(repeating: Self.frame(0), count: 100))
        // 0.6 s is 20 frames of 30 ms after the last loud one.
        #expect(stop == .silence && at == 10 + 50 + 20)
    }

    @Test func nobodySpeakingEndsItLater() {
        var d = SpeechEndDetector(silenceAfterSpeech: 0.6, waitForSpeech: 3)
        let (stop, at) = Self.run(&d, Array(repeating: Self.frame(0), count: 500))
        #expect(stop == .noSpeech && at == 100 && !d.heardSpeech)
    }

    @Test func aClickIsNoSpeech() {
        var d = SpeechEndDetector(silenceAfterSpeech: 0.3, waitForSpeech: 3)
        let (stop, _) = Self.run(&d, Array(repeating: Self.frame(0), count: 20) + [Self.frame(0.5), Self.frame(0.5)]
                                    + Array(repeating: Self.frame(0), count: 500))
        #expect(stop == .noSpeech)
    }

    @Test func aQuietRoomBelowMinus40dBFSIsNotSpeechWhateverTheRatio() {
        var d = SpeechEndDetector(waitForSpeech: 1)
        let (stop, _) = Self.run(&d, Array(repeating: Self.frame(0.005), count: 100))
        #expect(stop == .noSpeech)
    }

    @Test func theLimitEndsEvenSpeech() {
        var d = SpeechEndDetector(maximum: 1.5)
        let (stop, at) = Self.run(&d, Array(repeating: Self.frame(0.3), count: 200))
        #expect(stop == .limit && at == 50)
    }
}

@Suite("When a recording ends, over a noisy room")
struct NoisyRoomTests {
    @Test func digitalZerosAtTheStartDoNotSetTheRoomsNoise() {
        // Noise at -32 dBFS (RMS 0.025) with speech four times louder; 50 ms of zeros first.
        let zeros = [Float](repeating: 0, count: SpeechEndDetector.frame)
        let noise = (0..<SpeechEndDetector.frame).map { Float($0 % 2 == 0 ? 0.025 : -0.025) }
        let speech = noise.map { $0 * 8 }
        var d = SpeechEndDetector(silenceAfterSpeech: 0.6)
        var stop: SpeechEndDetector.Stop?
        var at = 0
        for (i, f) in ([zeros, zeros] + Array(repeating: noise, count: 20) + Array(repeating: speech, count: 30)
                       + Array(repeating: noise, count: 200)).enumerated() {
            if let s = d.feed(f) { stop = s; at = i + 1; break }
        }
        #expect(stop == .silence && at == 2 + 20 + 30 + 20)
    }
}
