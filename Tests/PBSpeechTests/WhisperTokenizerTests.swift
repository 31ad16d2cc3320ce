import Foundation
import Testing
@testable import PBSpeech

@Suite("Whisper tokenizer")
struct WhisperTokenizerTests {
    /// A byte-level BPE of a few tokens, written as tokenizer.json is.
    static func tiny() throws -> WhisperTokenizer {
        let json = """
        {"model": {"type": "BPE", "vocab": {"h": 0, "i": 1, "Ġ": 2, "Ġh": 3, "Ġhi": 4, "Ã": 5, "©": 6, "Ã©": 7, "!": 8},
                   "merges": ["Ġ h", "Ġh i", "Ã ©"]},
         "added_tokens": [{"id": 9, "content": "<|endoftext|>"}, {"id": 10, "content": "<|startoftranscript|>"},
            {"id": 11, "content": "<|translate|>"}, {"id": 12, "content": "<|transcribe|>"}, {"id": 13, "content": "<|startoflm|>"},
            {"id": 14, "content": "<|startofprev|>"}, {"id": 15, "content": "<|nocaptions|>"}, {"id": 16, "content": "<|notimestamps|>"}]}
        """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pb-tokenizer-\(getpid()).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try WhisperTokenizer(contentsOf: url)
    }

    @Test("merges by rank over GPT-2's byte characters, and decodes back to UTF-8")
    func bytesAndMerges() throws {
        let t = try Self.tiny()
        #expect(t.encode(" hi") == [4])
        #expect(t.encode(" hi!") == [4, 8])
        #expect(t.encode("é") == [7])
        #expect(t.decode([4, 7, 8]) == " hié!")
        #expect(t.specials.timestampBegin == 17)
        // Special tokens and timestamps are not text.
        #expect(t.decode([4, 9, 17, 30]) == " hi")
    }

    @Test("the real tokenizer cuts text as faster-whisper's does", .enabled(if: SpeechFixtures.modelPresent, SpeechFixtures.missingModel))
    func realTokenizer() throws {
        let t = try WhisperTokenizer(contentsOf: SpeechFixtures.modelDirectory.appendingPathComponent("tokenizer.json"))
        // Ids as faster-whisper 1.2.1 decoded " Remind me to call" and " What is the warranty period".
        #expect(t.encode(" Remind me to call") == [3982, 521, 502, 284, 869])
        #expect(t.encode(" What is the warranty period") == [1867, 318, 262, 18215, 2278])
        #expect(t.decode([50363, 3982, 521, 502, 284, 869, 13, 50499]) == " Remind me to call.")
        #expect(!t.multilingual)
        #expect(t.startSequence == [50257])
        #expect(t.specials.noTimestamps == 50362 && t.specials.noSpeech == 50361)
    }
}
