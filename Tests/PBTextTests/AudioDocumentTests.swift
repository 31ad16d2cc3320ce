import Foundation
import Testing
import PBCore
@testable import PBText

@Suite("Recordings as documents")
struct AudioDocumentTests {
    func segment(_ start: Double, _ end: Double, _ text: String) -> TranscriptSegment {
        TranscriptSegment(start: start, end: end, text: text, averageLogProbability: -0.2, noSpeechProbability: 0.01)
    }

    func transcript(_ segments: [TranscriptSegment]) -> TranscriptRecord {
        TranscriptRecord(path: "visit.flac", text: segments.map(\.text).joined(), duration: segments.last?.end ?? 0,
                         segments: segments, model: "whisper-tiny.en", kernel: "portable")
    }

    func lines(_ layer: TextLayer) -> [String] {
        layer.blocks.map { String(decoding: layer.bytes[$0.range], as: UTF8.self) }
    }

    @Test func segmentsAreJoinedToTheEndOfASentence() {
        let layer = AudioDocument.layer(transcript([
            segment(0, 5.06, " from the boiler visit on Tuesday. The engineer said"),
            segment(5.06, 10.84, " the pressure is fine."),
            segment(10.84, 13.011, " He charged \u{201C}90 pounds.\u{201D}"),
            segment(14, 15, "  "),
        ]))
        #expect(lines(layer) == ["[0:00–0:11] from the boiler visit on Tuesday. The engineer said the pressure is fine.",
                                 "[0:10–0:14] He charged \u{201C}90 pounds.\u{201D}"])
        #expect(String(decoding: layer.bytes, as: UTF8.self) == lines(layer).joined(separator: "\n"))
        #expect(layer.format == .audio && layer.blocks.allSatisfy { $0.kind == .paragraph } && layer.emptyReason == nil)
    }

    @Test func speechWithoutASentenceEndStillGetsALineEveryHalfMinute() {
        let layer = AudioDocument.layer(transcript([
            segment(0, 12, "so we went on and on"), segment(12, 24, "and then"), segment(24, 31, "and more"),
            segment(31, 40, "until the end"),
        ]))
        #expect(lines(layer) == ["[0:00–0:24] so we went on and on and then", "[0:24–0:40] and more until the end"])
    }

    @Test func timesPastTheHour() {
        #expect(AudioDocument.time(3725.4, up: false) == "1:02:05" && AudioDocument.time(3725.4, up: true) == "1:02:06")
        #expect(AudioDocument.time(59.0, up: true) == "0:59" && AudioDocument.time(-1, up: false) == "0:00")
    }

    @Test func silenceAndNothingSayWhy() {
        var silent = transcript([])
        silent.reason = .silence
        #expect(AudioDocument.layer(silent).emptyReason == "pb-listen heard no speech in it")
        var empty = transcript([])
        empty.reason = .empty
        #expect(AudioDocument.layer(empty).emptyReason == "the recording holds no sound")
    }

    @Test func recordingsAreKnownByTheirFirstBytes() throws {
        let wav = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8)
        let ogg = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 21)
        #expect(AudioDocument.isAudio(wav) && AudioDocument.isAudio(Array("fLaC".utf8) + [0, 0, 0, 34]) && AudioDocument.isAudio(ogg))
        #expect(AudioDocument.isAudio(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0x0F, 0x76]))
        // Text that starts with the magic words stays text.
        for text in ["ID3 tags to fix in the music folder", "OggS notes from the meeting: the engineer", "fLaC is lossless", ".snd files"] {
            #expect(!AudioDocument.isAudio(Array(text.utf8)), "\(text)")
        }
        // An MPEG-1 layer III frame at 128 kbit/s, 44.1 kHz.
        #expect(AudioDocument.isAudio([0xFF, 0xFB, 0x90, 0x64]))
        // A UTF-16 byte-order mark, a JPEG and a reserved bitrate are no frames.
        #expect(!AudioDocument.isAudio([0xFF, 0xFE, 0x48, 0x00]) && !AudioDocument.isAudio([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(!AudioDocument.isAudio([0xFF, 0xFB, 0xF0, 0x64]))
        #expect(try DocumentReader.format(path: "memo", bytes: wav) == .audio)
        #expect(try DocumentReader.format(path: "memo.MP3", bytes: []) == .audio)
        // UTF-16 text that begins with a byte-order mark is still text.
        #expect(try DocumentReader.format(path: "notes", bytes: [0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00]) == .text)
    }

    @Test func recordingsSoxDoesNotReadAreRefusedWithWhatToDo() {
        #expect(throws: DocumentError.self) { try DocumentReader.format(path: "memo.m4a", bytes: []) }
        let error = #expect(throws: DocumentError.self) { try DocumentReader.format(path: "note.opus", bytes: []) }
        #expect(error.map { "\($0)".contains("opusdec") } == true)
    }

    @Test func withoutATranscriberARecordingIsNotReadNeverEmpty() throws {
        let layer = try DocumentReader.layer(bytes: Array("RIFF".utf8), path: "memo.wav", format: .audio, audio: .off)
        #expect(layer.blocks.isEmpty && layer.unreadScans)
        #expect(layer.emptyReason?.hasPrefix("a recording has no text layer, and ") == true)
        #expect(throws: DocumentError.self) { try DocumentReader.read(path: "memo.wav", inlineText: "hello", declaredFormat: "audio") }
    }
}
