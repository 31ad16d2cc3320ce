import CKernels
import Foundation
import Testing
@testable import PBSpeech

@Suite("log-mel spectrogram", .enabled(if: SpeechFixtures.soxPresent, "sox is not installed"))
struct LogMelSpectrogramTests {
    struct Reference: Decodable {
        let frames_total: Int
        let frames: [String: [Float]]
        let filter_row_sums: [Double]
    }

    @Test("equals faster-whisper's feature extractor on a spoken question, on every kernel path",
          arguments: [Int32(PBK_PORTABLE), Int32(PBK_AVX2), Int32(PBK_AVX512)].filter { pbk_supported($0) != 0 })
    func matchesReference(path: Int32) throws {
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: URL(fileURLWithPath: SpeechFixtures.file("question.mel.json"))))
        let audio = try AudioInput.find().read(SpeechFixtures.file("question.wav"))
        let mel = LogMelSpectrogram(samples: audio.samples, bands: 80, path: path)
        #expect(mel.frames == reference.frames_total)
        var worst: Float = 0
        for (frame, values) in reference.frames {
            let f = Int(frame)!
            for b in 0..<80 { worst = max(worst, abs(mel.values[f * 80 + b] - values[b])) }
        }
        #expect(worst < 2e-4, "largest difference \(worst)")
        let sums = LogMelSpectrogram.Analysis.melFilters(bands: 80)
        for (m, want) in reference.filter_row_sums.enumerated() {
            let got = (0..<LogMelSpectrogram.bins).reduce(0.0) { $0 + sums[m * LogMelSpectrogram.bins + $1] }
            #expect(abs(got - want) < 1e-5)
        }
    }

    @Test("a tone lights the band of its frequency; silence is flat")
    func toneAndSilence() {
        let tone = (0..<16_000).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 16_000)) }
        let mel = LogMelSpectrogram(samples: tone)
        #expect(mel.frames == 101)
        let middle = Array(mel.values[(50 * 80)..<(51 * 80)])
        let loudest = middle.indices.max { middle[$0] < middle[$1] }!
        // 1 kHz is mel 15 on the Slaney scale (linear to there, 200/3 Hz a mel); the 80 bands are
        // centred every 45.2456/81 mel from 0 to 8 kHz (mel 45.2456): centre m is mel (m + 1) x 0.5586.
        #expect((25...27).contains(loudest))
        let silent = LogMelSpectrogram(samples: [Float](repeating: 0, count: 3200))
        #expect(Set(silent.values).count == 1)
        #expect(LogMelSpectrogram(samples: []).frames == 1)
    }
}
