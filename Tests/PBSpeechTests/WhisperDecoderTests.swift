import CKernels
import Foundation
import PBCore
import PBNeural
import Testing
@testable import PBSpeech

@Suite("Whisper decoder", .serialized, .enabled(if: SpeechFixtures.modelPresent && SpeechFixtures.soxPresent, SpeechFixtures.missingModel))
struct WhisperDecoderTests {
    /// A window of the request fixture, encoded, and the tokens of a prompt before it.
    static func window(_ model: WhisperModel) throws -> (audio: [Float], prompt: [Int]) {
        let samples = try AudioInput.find().read(SpeechFixtures.file("request.wav")).samples
        let mel = LogMelSpectrogram(samples: samples, bands: model.dimensions.mels, path: model.path)
        let encoder = WhisperEncoder(model: model, threads: 2)
        let frames = encoder.frames
        let window = Array(mel.values[0..<(min(frames, mel.frames - 1) * mel.bands)])
        let audio = window.withUnsafeBufferPointer { encoder.encode($0) }
        let s = model.tokenizer.specials
        let prompt = [s.startOfPrevious] + model.tokenizer.encode(" Snooze the insurance letter. Undo that.") + model.tokenizer.startSequence
        return (audio, prompt)
    }

    @Test("a slot stepped beside others has the logits it has alone, to the bit", arguments: [1, 2])
    func slotsAreIndependent(threads: Int) throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let (audio, prompt) = try Self.window(model)
        let alone = WhisperDecoder(model: model, threads: threads)
        let beside = WhisperDecoder(model: model, threads: threads, slots: 3)
        for decoder in [alone, beside] {
            decoder.begin(audio: audio)
            for token in prompt { decoder.step(token, wantLogits: false) }
        }
        beside.replicateFirstSlot()
        let words = model.tokenizer.encode(" Remind me to renew")
        #expect(words.count >= 4)
        for (i, token) in words.enumerated() {
            alone.step(token, wantLogits: true)
            // Slots 1 and 2 go their own way with other tokens; after the second step slot 2
            // takes slot 1's history, and from then on both are fed the same tokens.
            let other = words[(i + 1) % words.count]
            beside.step([token, other, i >= 2 ? other : words[(i + 2) % words.count]], wantLogits: true)
            #expect(beside.logits(slot: 0) == alone.logits())
            if i < 2 { #expect(beside.logits(slot: 1) != beside.logits(slot: 2)) }
            if i >= 2 { #expect(beside.logits(slot: 1) == beside.logits(slot: 2)) }
            if i == 1 { beside.reorder([0, 1, 1], from: prompt.count) }
        }
        #expect(beside.logits(slot: 1) != beside.logits(slot: 0))
    }

    @Test("a prompt fed at once gives the logits that feeding it a token at a time gives, within float rounding")
    func prefillMatchesSteps() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let (audio, prompt) = try Self.window(model)
        let stepped = WhisperDecoder(model: model, threads: 2)
        let prefilled = WhisperDecoder(model: model, threads: 2)
        stepped.begin(audio: audio)
        for (i, token) in prompt.enumerated() { stepped.step(token, wantLogits: i == prompt.count - 1) }
        prefilled.begin(audio: audio)
        prefilled.prefill(prompt)
        prefilled.prefillLogits(row: prompt.count - 1)
        #expect(prefilled.position == stepped.position)
        let a = stepped.logits(), b = prefilled.logits()
        let largest = a.map(abs).max() ?? 1
        let difference = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        #expect(difference <= 1e-4 * largest, "logits differ by \(difference) (largest \(largest))")
        #expect(a.indices.max { a[$0] < a[$1] } == b.indices.max { b[$0] < b[$1] })
        // The next token decoded after either is decoded alike.
        let next = a.indices.max { a[$0] < a[$1] }!
        stepped.step(next, wantLogits: true)
        prefilled.step(next, wantLogits: true)
        let c = stepped.logits(), d = prefilled.logits()
        #expect((zip(c, d).map { abs($0 - $1) }.max() ?? 0) <= 1e-4 * (c.map(abs).max() ?? 1))
    }

    @Test("a vocabulary prompt gives up the store's names, not the phrasing, to fit the positions a prompt may take")
    func promptFits() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let limit = model.dimensions.textContext / 2 - 1
        // Names that tokenize densely: 800 characters of them are far more than 223 tokens.
        let names = (0..<80).map { i in "Zq\(i)x" }
        let vocabulary = SpeechVocabulary(projects: names, tasks: names)
        #expect(model.tokenizer.encode(" " + vocabulary.prompt()).count > limit)
        let fitted = try #require(ListenCommand.prompt(vocabulary, given: "Mira", model: model))
        #expect(fitted.hasPrefix(SpeechVocabulary.phrasing) && fitted.hasSuffix(" Mira"))
        #expect(fitted.contains("Projects: Zq0x"))
        #expect(model.tokenizer.encode(" " + fitted).count <= limit)
        #expect(ListenCommand.prompt(nil, given: nil, model: model) == nil)
        #expect(ListenCommand.prompt(nil, given: "Mira", model: model) == "Mira")
    }
    @Test("slots that trade sequences each go on as the other would have")
    func swappedSlots() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let (audio, prompt) = try Self.window(model)
        let words = model.tokenizer.encode(" Remind me to renew")
        let kept = WhisperDecoder(model: model, threads: 2, slots: 2)
        let swapped = WhisperDecoder(model: model, threads: 2, slots: 2)
        for decoder in [kept, swapped] {
            decoder.begin(audio: audio)
            decoder.prefill(prompt)
            decoder.replicateFirstSlot()
            decoder.step([words[0], words[1]], wantLogits: false)
            decoder.step([words[2], words[3]], wantLogits: false)
        }
        swapped.reorder([1, 0], from: prompt.count)
        for decoder in [kept, swapped] { decoder.step([words[0], words[0]], wantLogits: true) }
        #expect(kept.logits(slot: 0) != kept.logits(slot: 1))
        #expect(swapped.logits(slot: 0) == kept.logits(slot: 1))
        #expect(swapped.logits(slot: 1) == kept.logits(slot: 0))
    }

    @Test("a beam that reaches the decoder's last position stops there, with at most one token more than the positions left; greedy decoding with one for each")
    func beamAtLastPosition() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let (audio, prompt) = try Self.window(model)
        let limit = model.dimensions.textContext, s = model.tokenizer.specials
        // Earlier text filling all but three positions: the beam is cut off mid-sentence (the
        // request's audio has more than three tokens of speech, so no sequence ends before).
        let earlier = Array(prompt.dropFirst().dropLast(model.tokenizer.startSequence.count))
        var long = [s.startOfPrevious]
        while long.count + earlier.count + model.tokenizer.startSequence.count <= limit - 3 { long += earlier }
        long += Array(repeating: earlier[0], count: limit - 3 - long.count - model.tokenizer.startSequence.count)
        long += model.tokenizer.startSequence
        #expect(long.count == limit - 3)
        let decoder = WhisperDecoder(model: model, threads: 2, slots: 3)
        decoder.begin(audio: audio)
        let rules = TimestampRules(specials: s, suppressed: model.suppressed, suppressedAtBegin: model.suppressedAtBegin)
        let beam = WindowDecoding.beam(decoder, prompt: long, rules: rules, size: 3)
        #expect(decoder.position == limit, "the beam stopped at \(decoder.position), before the last position")
        #expect(!beam.tokens.isEmpty && beam.tokens.count <= 4)
        #expect(beam.sumLogProbability < 0 && beam.sumLogProbability.isFinite)
        // Greedy decoding takes a token for each position left; the beam may add the one its
        // sequences' last logits choose, which no position holds (OpenAI's beam goes as far).
        decoder.begin(audio: audio)
        #expect(WindowDecoding.greedy(decoder, prompt: long, rules: rules).tokens.count == 3)
        #expect(decoder.position == limit - 1, "greedy decoding fed the last token, whose next has no position")
    }
}
