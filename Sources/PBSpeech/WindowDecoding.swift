import CZlib
import Foundation

/// One window's decoding: the tokens chosen after the prompt (timestamps included, the end of
/// text not), their summed log-probability (the end's included), and how likely the window was
/// to hold no speech (the probability of `<|nocaptions|>` right after the start token).
struct WindowDecoding: Equatable {
    var tokens: [Int]
    var sumLogProbability: Double
    var noSpeechProbability: Double

    /// Whether faster-whisper would decode this window again: its text compresses more than
    /// 2.4 times (it repeats itself) or its tokens are unlikely (mean log-probability below -1).
    func needsFallback(_ tokenizer: WhisperTokenizer) -> Bool {
        Self.compressionRatio(tokenizer.decode(tokens).trimmingCharacters(in: .whitespaces)) > 2.4 || averageLogProbability < -1
    }

    /// Bytes of the text over bytes of its zlib compression (the default level), as faster-whisper measures it (zlib.compress).
    static func compressionRatio(_ text: String) -> Double {
        let input = Array(text.utf8)
        guard !input.isEmpty else { return 0 }
        var size = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        guard compress2(&output, &size, input, uLong(input.count), Z_DEFAULT_COMPRESSION) == Z_OK, size > 0 else { return 0 }
        return Double(input.count) / Double(size)
    }

    /// Per token, the end of text counted as one.
    var averageLogProbability: Double { sumLogProbability / Double(tokens.count + 1) }

    /// Greedy decoding: at each step the likeliest token the rules allow, until the end of text
    /// or the decoder's last position.
    static func greedy(_ decoder: WhisperDecoder, prompt: [Int], rules: TimestampRules) -> WindowDecoding {
        let model = decoder.model, specials = model.tokenizer.specials
        decoder.rewind(to: 0)
        var result = WindowDecoding(tokens: [], sumLogProbability: 0, noSpeechProbability: 0)
        // The no-speech probability is read where OpenAI's decoder reads it: the logits after
        // <|startoftranscript|> (a multilingual prompt goes on with the language and the task).
        for (i, token) in prompt.enumerated() {
            let start = token == specials.startOfTranscript
            decoder.step(token, wantLogits: start || i == prompt.count - 1)
            if start { result.noSpeechProbability = probabilities(decoder.logits)[specials.noSpeech] }
        }
        let limit = model.dimensions.textContext
        while decoder.position < limit {
            var logits = decoder.logits
            rules.apply(&logits, generated: result.tokens)
            var best = 0
            for t in 1..<logits.count where logits[t] > logits[best] { best = t }
            result.sumLogProbability += logSoftmax(logits, at: best)
            if best == specials.endOfText { break }
            result.tokens.append(best)
            if decoder.position == limit { break }
            decoder.step(best, wantLogits: true)
        }
        return result
    }

    static func logSoftmax(_ logits: [Float], at index: Int) -> Double {
        let top = logits.max() ?? 0
        var sum: Double = 0
        for v in logits where v > -.infinity { sum += exp(Double(v - top)) }
        return Double(logits[index] - top) - log(sum)
    }

    static func probabilities(_ logits: [Float]) -> [Double] {
        let top = logits.max() ?? 0
        var e = logits.map { $0 > -.infinity ? exp(Double($0 - top)) : 0 }
        let sum = e.reduce(0, +)
        for i in e.indices { e[i] /= sum }
        return e
    }
}
