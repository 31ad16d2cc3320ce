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
        var result = WindowDecoding(tokens: [], sumLogProbability: 0, noSpeechProbability: feed(decoder, prompt: prompt))
        let limit = model.dimensions.textContext
        while decoder.position < limit {
            var logits = decoder.logits()
            rules.apply(&logits, generated: result.tokens)
            var best = 0
            for t in 1..<logits.count where logits[t] > logits[best] { best = t }
            result.sumLogProbability += logSoftmax(logits, at: best)
            if best == specials.endOfText { break }
            result.tokens.append(best)
            // The last position's token is kept but not fed: no position is left for the next.
            if decoder.position == limit - 1 { break }
            decoder.step(best, wantLogits: true)
        }
        return result
    }

    /// Beam search as OpenAI's decoder does it: `size` sequences kept; at each step every one's
    /// `size + 1` likeliest next tokens (the rules applied to each) are ranked by summed
    /// log-probability, the best `size` that do not end are kept, and those that end are set aside
    /// until `size` have ended (patience 1) or the decoder is full. The ended sequence with the
    /// best log-probability per token wins (with those still going, when fewer ended). Likelier
    /// word sequences than greedy's; the sequences share the audio's encoding and step through
    /// the decoder together (`WhisperDecoder.step(_:wantLogits:)` with one token per slot).
    static func beam(_ decoder: WhisperDecoder, prompt: [Int], rules: TimestampRules, size: Int) -> WindowDecoding {
        let model = decoder.model, specials = model.tokenizer.specials, width = min(size, decoder.slots)
        guard width > 1 else { return greedy(decoder, prompt: prompt, rules: rules) }
        let noSpeech = feed(decoder, prompt: prompt)
        decoder.replicateFirstSlot()
        let first = decoder.position, limit = model.dimensions.textContext
        var alive: [(tokens: [Int], score: Double)] = [([], 0)]
        var finished: [(tokens: [Int], score: Double)] = []
        while true {
            var candidates: [(tokens: [Int], score: Double, source: Int, ends: Bool)] = []
            for (slot, beam) in alive.enumerated() {
                var logits = decoder.logits(slot: slot)
                rules.apply(&logits, generated: beam.tokens)
                let normalizer = logNormalizer(logits)
                for token in topTokens(logits, count: width + 1) {
                    let score = beam.score + Double(logits[token]) - normalizer
                    let ends = token == specials.endOfText
                    candidates.append((ends ? beam.tokens : beam.tokens + [token], score, slot, ends))
                }
            }
            // A stable sort keeps the beams' order among equal scores, as Python's sorted does.
            let ranked = candidates.enumerated().sorted { a, b in
                a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
            }.map(\.element)
            var next: [(tokens: [Int], score: Double)] = [], sources: [Int] = [], ended: [(tokens: [Int], score: Double)] = []
            for c in ranked {
                if c.ends { ended.append((c.tokens, c.score)); continue }
                next.append((c.tokens, c.score))
                sources.append(c.source)
                if next.count == width { break }
            }
            for e in ended where finished.count < width { finished.append(e) }
            if finished.count >= width || next.isEmpty || decoder.position >= limit {
                alive = next
                break
            }
            decoder.reorder(sources, from: first)
            decoder.step(next.map { $0.tokens.last! }, wantLogits: true)
            alive = next
        }
        for beam in alive.sorted(by: { $0.score > $1.score }) where finished.count < width { finished.append(beam) }
        // Ranked by log-probability per token (OpenAI's ranker without a length penalty).
        let best = finished.enumerated().max { a, b in
            let x = a.element.score / Double(max(a.element.tokens.count, 1)), y = b.element.score / Double(max(b.element.tokens.count, 1))
            return x != y ? x < y : a.offset > b.offset
        }!.element
        return WindowDecoding(tokens: best.tokens, sumLogProbability: best.score, noSpeechProbability: noSpeech)
    }

    /// The prompt fed to a rewound decoder, leaving the logits after its last token in slot 0;
    /// the probability of no speech, read where OpenAI's decoder reads it: after
    /// <|startoftranscript|> (a multilingual prompt goes on with the language and the task).
    ///
    /// A prompt of a few tokens (the start sequence alone, without earlier text) is stepped a
    /// token at a time: products over so few rows save nothing, and stepping keeps decoding
    /// without a prompt exactly as it was (faster-whisper's reference run); a longer one is
    /// prefilled.
    static func feed(_ decoder: WhisperDecoder, prompt: [Int]) -> Double {
        precondition(!prompt.isEmpty, "a window's prompt holds at least the start of the transcript")
        let specials = decoder.model.tokenizer.specials
        decoder.rewind(to: 0)
        if prompt.count <= steppedPrompt {
            var noSpeech = 0.0
            for (i, token) in prompt.enumerated() {
                let start = token == specials.startOfTranscript
                decoder.step(token, wantLogits: start || i == prompt.count - 1)
                if start { noSpeech = probabilities(decoder.logits())[specials.noSpeech] }
            }
            return noSpeech
        }
        decoder.prefill(prompt)
        var noSpeech = 0.0
        if let start = prompt.lastIndex(of: specials.startOfTranscript) {
            decoder.prefillLogits(row: start)
            noSpeech = probabilities(decoder.logits())[specials.noSpeech]
            if start == prompt.count - 1 { return noSpeech }
        }
        decoder.prefillLogits(row: prompt.count - 1)
        return noSpeech
    }

    /// The longest prompt stepped rather than prefilled: a multilingual model's start sequence
    /// (start, language, task, and no timestamps when asked).
    static let steppedPrompt = 4

    /// The `count` tokens with the highest logits, best first (the lower index among equals).
    static func topTokens(_ logits: [Float], count: Int) -> [Int] {
        var top: [Int] = []
        for t in logits.indices where logits[t] > -.infinity {
            if top.count == count, logits[t] <= logits[top[count - 1]] { continue }
            var i = top.count
            while i > 0, logits[top[i - 1]] < logits[t] { i -= 1 }
            top.insert(t, at: i)
            if top.count > count { top.removeLast() }
        }
        return top
    }

    /// log(sum(exp(logits))) over the tokens the rules allow.
    static func logNormalizer(_ logits: [Float]) -> Double {
        let (top, logSum) = shiftedLogSum(logits)
        return Double(top) + logSum
    }

    static func logSoftmax(_ logits: [Float], at index: Int) -> Double {
        let (top, logSum) = shiftedLogSum(logits)
        return Double(logits[index] - top) - logSum
    }

    /// The largest logit and log(sum(exp(logit - largest))), the sum in doubles: the shift keeps
    /// exp from overflowing. Greedy decoding subtracts in floats (`logSoftmax`), as it always has,
    /// so its log-probabilities stay as they were to the bit.
    private static func shiftedLogSum(_ logits: [Float]) -> (top: Float, logSum: Double) {
        let top = logits.max() ?? 0
        var sum: Double = 0
        for v in logits where v > -.infinity { sum += exp(Double(v - top)) }
        return (top, log(sum))
    }

    static func probabilities(_ logits: [Float]) -> [Double] {
        let top = logits.max() ?? 0
        var e = logits.map { $0 > -.infinity ? exp(Double($0 - top)) : 0 }
        let sum = e.reduce(0, +)
        for i in e.indices { e[i] /= sum }
        return e
    }
}
