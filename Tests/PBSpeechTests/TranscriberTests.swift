import CKernels
import Foundation
import PBCore
import PBNeural
import Testing
@testable import PBSpeech

@Suite("Whisper transcription", .serialized, .enabled(if: SpeechFixtures.modelPresent && SpeechFixtures.soxPresent, SpeechFixtures.missingModel))
struct TranscriberTests {
    static let paths = KernelPath.allCases.filter { $0 != .blas && $0.isSupported }

    @Test("a spoken request reads as faster-whisper reads it (tokens equal on this fixture), on every kernel path",
          arguments: paths)
    func sameOnEveryPath(kernel: KernelPath) throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory, kernel: kernel)
        #expect(model.name == "whisper-tiny.en")
        #expect(model.dimensions == WhisperModel.Dimensions(mels: 80, width: 384, heads: 6, encoderLayers: 4, decoderLayers: 4,
                                                            audioContext: 1500, textContext: 448, vocabulary: 51864))
        let listener = Listener(model: model, audio: try AudioInput.find(), threads: 2)
        let request = try listener.transcribe(path: SpeechFixtures.file("request.wav"))
        #expect(request.text == "Remind me to renew the car insurance on Friday.")
        #expect(request.segments.count == 1 && request.segments[0].start == 0 && request.segments[0].end == 3)
        let question = try listener.transcribe(path: SpeechFixtures.file("question.wav"))
        #expect(question.text == "How long is the warranty on the dishwasher?")
        #expect(question.reason == nil && question.kernel == kernel.rawValue)
    }

    @Test("a beam of five reads as faster-whisper's beam of five where greedy decoding reads otherwise, on every kernel path",
          arguments: paths)
    func beamSearch(kernel: KernelPath) throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory, kernel: kernel)
        let samples = try AudioInput.find().read(SpeechFixtures.file("memo.wav")).samples
        // faster-whisper 1.2.1 (float32) on these samples: beam_size=1 " My gym locker code is 4719.",
        // beam_size=5 " My gym locker code is 47-19." (the likelier sequence per token).
        let greedy = WhisperTranscriber(model: model, threads: 2).transcribe(samples)
        let beam = WhisperTranscriber(model: model, threads: 2, beamSize: 5).transcribe(samples)
        #expect(greedy.map(\.text).joined() == " My gym locker code is 4719.")
        #expect(beam.map(\.text).joined() == " My gym locker code is 47-19.")
        #expect(beam.count == 1 && beam[0].start == 0)
        // The beam's sum is of the sequence it chose: its mean is a log-probability, below zero.
        #expect(beam[0].averageLogProbability < 0 && beam[0].averageLogProbability > -1)
    }

    @Test("the transcript does not depend on the number of threads")
    func threads() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let samples = try AudioInput.find().read(SpeechFixtures.file("memo.wav")).samples
        let one = WhisperTranscriber(model: model, threads: 1).transcribe(samples)
        let two = WhisperTranscriber(model: model, threads: 2).transcribe(samples)
        #expect(one == two)
        #expect(one.map(\.text).joined() == " My gym locker code is 4719.")
    }

    @Test("silence and no samples are empty transcripts that say why")
    func nothingSaid() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let listener = Listener(model: model, audio: try AudioInput.find(), threads: 2)
        let silence = listener.transcribe([Float](repeating: 0, count: 32_000), path: nil)
        #expect(silence.text == "" && silence.reason == .silence && silence.segments.isEmpty)
        let empty = listener.transcribe([], path: nil)
        #expect(empty.reason == .empty && empty.duration == 0)
        // A beam on silence: the end of text comes first in every sequence.
        let beam = Listener(model: model, audio: try AudioInput.find(), threads: 2, beamSize: 5)
        let quiet = beam.transcribe([Float](repeating: 0, count: 32_000), path: nil)
        #expect(quiet.text == "" && quiet.reason == .silence && quiet.segments.isEmpty)
    }

    @Test("a window's tokens are cut at timestamp pairs, and the next window starts at the last complete one")
    func split() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let t = WhisperTranscriber(model: model)
        let b = model.tokenizer.specials.timestampBegin
        // <0.00> a b <1.00><1.00> c <2.00>: two segments, the last closed by a single timestamp.
        let (pieces, next) = t.split([b, 1, 2, b + 50, b + 50, 3, b + 100], timeOffset: 10, size: 3000, seek: 1000)
        #expect(pieces.map(\.start) == [10, 11] && pieces.map(\.end) == [11, 12])
        #expect(next == 4000)
        // An unfinished last segment: seek to the last timestamp pair's end.
        let (open, resume) = t.split([b, 1, b + 50, b + 50, 3], timeOffset: 0, size: 3000, seek: 0)
        #expect(open.count == 1 && resume == 100)
    }
}

@Suite("Long recordings, streamed", .serialized, .enabled(if: SpeechFixtures.modelPresent && SpeechFixtures.soxPresent, SpeechFixtures.missingModel))
struct StreamedTranscriptionTests {
    @Test("a recording longer than what is held is decoded twice and read window by window; its transcript is the held one's")
    func streamedEqualsHeld() throws {
        let model = try WhisperModel(directory: SpeechFixtures.modelDirectory)
        let input = try AudioInput.find()
        let listener = Listener(model: model, audio: input, threads: 2)
        for name in ["request.wav", "question.wav", "silence.wav", "empty.wav"] {
            let path = SpeechFixtures.file(name)
            let held = try input.listen(path, bands: 80, kernel: model.path)
            let streamed = try input.listen(path, bands: 80, kernel: model.path, heldSeconds: 0.5)
            #expect(held.spectrogram != nil && held.streamed == nil)
            #expect(held.samples == streamed.samples)
            #expect(held.cuts == streamed.cuts)
            if held.samples > 0 {
                #expect(streamed.spectrogram == nil && streamed.streamed != nil)
            }
            if held.cuts.count > 5 {
                // Every window the transcriber could ask for is the held spectrogram's.
                let whole = held.spectrogram!
                let window = try streamed.streamed!.window(from: 5, count: whole.frames - 5)
                #expect(window == Array(whole.values[(5 * 80)...]))
            }
            let again = try input.listen(path, bands: 80, kernel: model.path, heldSeconds: 0.5)
            #expect(try listener.transcribe(again, path: path) == listener.transcribe(held, path: path))
        }
    }
}
