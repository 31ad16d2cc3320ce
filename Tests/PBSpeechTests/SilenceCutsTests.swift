import Foundation
import Testing
@testable import PBSpeech

@Suite("Long silences left out")
struct SilenceCutsTests {
    /// Loudness per 10 ms frame: speech at 0.1, silence at `quiet`, in (seconds, loud) stretches.
    static func levels(_ parts: [(Double, Bool)], quiet: Float = 0) -> [Float] {
        parts.flatMap { seconds, loud in Array(repeating: loud ? Float(0.1) : quiet, count: Int(seconds * 100)) }
    }

    @Test func aPauseUnderTwoSecondsIsKept() {
        let cuts = SilenceCuts(levels: Self.levels([(0.3, false), (3, true), (1.9, false), (2, true), (0.4, false)]))
        #expect(cuts.isEmpty && cuts.count == 760)
    }

    @Test func longSilencesAreCutWithHalfASecondKeptAtEachSideOfSpeech() {
        // 200 s of silence, 4 s of speech, 130 s of silence, 3 s of speech, 25 s of silence.
        let cuts = SilenceCuts(levels: Self.levels([(200, false), (4, true), (130, false), (3, true), (25, false)]))
        #expect(cuts.kept == [19_950..<20_450, 33_350..<33_750])
        #expect(cuts.count == 900 && cuts.frames == 36_200)
        // 1 s into what Whisper hears is 1 s into the first speech's margin; 6 s is in the second part.
        #expect(cuts.original(1, end: false) == 200.5 && cuts.original(6, end: false) == 334.5)
        // A time at the join: the end of the part before, or the start of the part after.
        #expect(cuts.original(5, end: true) == 204.5 && cuts.original(5, end: false) == 333.5)
        // A segment that starts in the quiet kept after speech and ends after the cut starts after it.
        #expect(cuts.span(start: 4.6, end: 7.5) == (333.5, 336.0))
        #expect(cuts.span(start: 1, end: 3) == (200.5, 202.5))
    }

    @Test func aRoomsHumCountsAsQuietAQuietVoiceDoesNot() {
        // Hum at -54 dBFS (0.002) around speech: cut. Speech at 0.005 beside a floor of 0.002: kept.
        let hum = SilenceCuts(levels: Self.levels([(10, false), (3, true), (10, false)], quiet: 0.002))
        #expect(hum.kept == [950..<1350])
        var quietVoice = Self.levels([(5, false)], quiet: 0.002)
        quietVoice += Array(repeating: 0.005, count: 500)
        #expect(SilenceCuts(levels: quietVoice).kept == [450..<1000])
    }

    @Test func digitalSilenceLeavesNothingASteadySoundEverything() {
        let cuts = SilenceCuts(levels: Self.levels([(30, false)]))
        #expect(cuts.kept.isEmpty && cuts.count == 0)
        let hum = SilenceCuts(levels: Self.levels([(30, false)], quiet: 0.002))
        #expect(hum.isEmpty && hum.count == 3000)
    }

    @Test func aRecordingMadeVeryQuietlyIsHeard() {
        // Speech at -66 dBFS (0.0005) between stretches of digital silence: 30 dB under its
        // loudest is quiet, the speech is not.
        var levels = Self.levels([(5, false)])
        levels += Array(repeating: 0.0005, count: 300)
        levels += Self.levels([(5, false)])
        #expect(SilenceCuts(levels: levels).kept == [450..<850])
    }
}
