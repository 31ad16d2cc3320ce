import Foundation

/// What may come next in a Whisper transcript with timestamps, applied to the logits before a
/// token is chosen (the rules of OpenAI's decoder, which CTranslate2 and faster-whisper follow):
///
/// - `<|notimestamps|>` never; the suppressed tokens never; a blank or the end not first;
/// - the first token is a timestamp no later than `maxInitialTimestamp` steps (1 s);
/// - timestamps come in pairs (a segment's end, the next one's start), except just before the end;
/// - timestamps never go back;
/// - when the timestamps together are likelier than the likeliest text token, a timestamp.
struct TimestampRules {
    let specials: WhisperTokenizer.Specials
    let suppressed: [Int]
    let suppressedAtBegin: [Int]
    var maxInitialTimestamp: Int? = 50

    /// Masks `logits` for the token after `generated` (the tokens sampled so far in this window).
    func apply(_ logits: inout [Float], generated: [Int]) {
        let begin = specials.timestampBegin, eot = specials.endOfText, count = logits.count
        for t in suppressed where t < count { logits[t] = -.infinity }
        if generated.isEmpty { for t in suppressedAtBegin where t < count { logits[t] = -.infinity } }
        logits[specials.noTimestamps] = -.infinity

        let lastWasTimestamp = (generated.last ?? 0) >= begin
        let penultimateWasTimestamp = generated.count < 2 || generated[generated.count - 2] >= begin
        if lastWasTimestamp {
            if penultimateWasTimestamp {
                for t in begin..<count { logits[t] = -.infinity }
            } else {
                for t in 0..<eot { logits[t] = -.infinity }
            }
        }
        if let lastTimestamp = generated.last(where: { $0 >= begin }) {
            let floor = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1
            for t in begin..<min(floor, count) { logits[t] = -.infinity }
        }
        if generated.isEmpty {
            for t in 0..<begin { logits[t] = -.infinity }
            if let maxInitialTimestamp {
                for t in min(begin + maxInitialTimestamp + 1, count)..<count { logits[t] = -.infinity }
            }
        }

        // Log-sum-exp of the timestamps against the best text token (the shared normalizer cancels).
        var textBest = -Float.infinity
        for t in 0..<begin where logits[t] > textBest { textBest = logits[t] }
        var stampBest = -Float.infinity
        for t in begin..<count where logits[t] > stampBest { stampBest = logits[t] }
        guard stampBest > -.infinity else { return }
        var sum: Double = 0
        for t in begin..<count where logits[t] > -.infinity { sum += exp(Double(logits[t] - stampBest)) }
        let stampMass = Double(stampBest) + log(sum)
        if stampMass > Double(textBest) {
            for t in 0..<begin { logits[t] = -.infinity }
        }
    }
}
