import Foundation
import Testing
@testable import PBSpeech

@Suite("window decoding")
struct WindowDecodingTests {
    @Test("a text that repeats itself compresses past faster-whisper's 2.4; a plain sentence does not")
    func compressionRatio() {
        let loop = Array(repeating: "Sam Lee,", count: 40).joined(separator: " ")
        #expect(WindowDecoding.compressionRatio(loop) > 2.4)
        #expect(WindowDecoding.compressionRatio("Remind me to renew the car insurance on Friday.") < 2.4)
        #expect(WindowDecoding.compressionRatio("") == 0)
    }

    @Test("the mean log-probability counts the end of text as a token")
    func average() {
        let w = WindowDecoding(tokens: [1, 2, 3], sumLogProbability: -2, noSpeechProbability: 0)
        #expect(w.averageLogProbability == -0.5)
    }

    @Test("a beam's candidates are the likeliest tokens the rules allow, best first, the lower token among equals")
    func topTokens() {
        let logits: [Float] = [0.5, -.infinity, 2, 0.5, 3, -.infinity, 1]
        #expect(WindowDecoding.topTokens(logits, count: 3) == [4, 2, 6])
        #expect(WindowDecoding.topTokens(logits, count: 5) == [4, 2, 6, 0, 3])
        #expect(WindowDecoding.topTokens(logits, count: 9) == [4, 2, 6, 0, 3])
        #expect(WindowDecoding.topTokens([-.infinity, -.infinity], count: 2).isEmpty)
        let normalizer = WindowDecoding.logNormalizer([0, 0, -.infinity])
        #expect(abs(normalizer - log(2.0)) < 1e-12)
    }
}
