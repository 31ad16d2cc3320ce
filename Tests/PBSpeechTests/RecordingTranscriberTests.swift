import Foundation
import PBCore
import PBText
import Testing
@testable import PBSpeech

@Suite("Recordings heard for pb-chunk")
struct RecordingTranscriberTests {
    @Test("without the model a recording is not read, and the reason names what to install")
    func missingModel() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-no-speech-\(UUID().uuidString)")
        let ear = RecordingTranscriber(environment: PBEnvironment(variables: ["PB_HOME": home.path]))
        #expect(ear.unavailable?.contains("make model-speech") == true)
        let layer = try DocumentReader.layer(bytes: [], path: SpeechFixtures.file("memo.wav"), format: .audio,
                                             audio: AudioSettings(transcriber: ear))
        #expect(layer.blocks.isEmpty && layer.unreadScans)
    }

    @Test("a memo's document is what Whisper heard, kept by its content and the model's identity",
          .enabled(if: SpeechFixtures.modelPresent && SpeechFixtures.soxPresent, SpeechFixtures.missingModel))
    func heardAndKept() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pb-transcripts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let ear = RecordingTranscriber(environment: PBEnvironment(variables: ["PB_SPEECH_MODEL_DIR": SpeechFixtures.modelDirectory.path]))
        #expect(ear.unavailable == nil && ear.identity.hasPrefix("whisper-tiny.en 75537502 "))
        let path = SpeechFixtures.file("memo.wav")
        let (layer, _) = try DocumentReader.read(path: path, audio: AudioSettings(transcriber: ear, cacheDirectory: cache))
        #expect(String(decoding: layer.bytes, as: UTF8.self) == "[0:00–0:03] My gym locker code is 4719.")
        let kept = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".json") }
        #expect(kept.count == 1)
        // Not audio: the document's error, naming it once.
        let error = #expect(throws: DocumentError.self) {
            try DocumentReader.read(path: SpeechFixtures.file("not-audio.wav"), declaredFormat: "audio", audio: AudioSettings(transcriber: ear))
        }
        #expect(error.map { "\($0)".hasPrefix(SpeechFixtures.file("not-audio.wav") + ": malformed document: not audio sox can read") } == true)
    }
}
