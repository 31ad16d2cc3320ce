import Testing
@testable import PBSpeech

@Suite("timestamp rules")
struct TimestampRulesTests {
    // A vocabulary of 10 text tokens, the specials, then timestamps from 20.
    static let specials = WhisperTokenizer.Specials(endOfText: 10, startOfTranscript: 11, translate: 12, transcribe: 13, startOfLM: 14,
                                                    startOfPrevious: 15, noSpeech: 16, noTimestamps: 19, english: nil)
    static let rules = TimestampRules(specials: specials, suppressed: [3], suppressedAtBegin: [2, 10], maxInitialTimestamp: 5)

    static func choose(_ logits: [Float], after generated: [Int]) -> Int {
        var l = logits
        rules.apply(&l, generated: generated)
        return l.indices.max { l[$0] < l[$1] }!
    }

    @Test("the first token is a timestamp no later than the initial limit")
    func first() {
        var logits = [Float](repeating: 0, count: 60)
        logits[5] = 9      // a text token, likeliest
        logits[40] = 5     // a timestamp past the limit
        logits[22] = 1
        #expect(Self.choose(logits, after: []) == 22)
    }

    @Test("timestamps come in pairs, never go back, and the suppressed never come")
    func pairsAndOrder() {
        var logits = [Float](repeating: 0, count: 60)
        logits[3] = 20     // suppressed
        logits[4] = 8
        logits[21] = 9     // earlier than the last timestamp (24): forbidden
        #expect(Self.choose(logits, after: [24, 5]) == 4)
        // After text then a timestamp, text may not follow: a timestamp (not earlier) or the end.
        var closing = [Float](repeating: -10, count: 60)
        closing[4] = 9
        closing[23] = 8    // earlier than 26: forbidden
        closing[10] = 2
        #expect(Self.choose(closing, after: [20, 4, 26]) == 10)
        // Two timestamps in a row: text next.
        var opening = [Float](repeating: 0, count: 60)
        opening[30] = 9
        opening[6] = 1
        #expect(Self.choose(opening, after: [20, 4, 26, 26]) == 6)
    }

    @Test("timestamps together likelier than the best text token win")
    func timestampMass() {
        var logits = [Float](repeating: -10, count: 60)
        logits[4] = 2.0
        for t in 30..<40 { logits[t] = 0.5 }   // each below the text token, together above it
        let chosen = Self.choose(logits, after: [20, 4])
        #expect(chosen >= 30 && chosen < 40)
    }
}
