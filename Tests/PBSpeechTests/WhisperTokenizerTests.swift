import Foundation
import Testing
@testable import PBSpeech

@Suite("Whisper tokenizer")
struct WhisperTokenizerTests {
    /// A byte-level BPE of a few tokens, written as tokenizer.json is.
    static func tiny(merges: String = #"["Ġ h", "Ġh i", "Ã ©"]"#, added extra: String = "") throws -> WhisperTokenizer {
        try read("""
        {"model": {"type": "BPE", "vocab": {"h": 0, "i": 1, "Ġ": 2, "Ġh": 3, "Ġhi": 4, "Ã": 5, "©": 6, "Ã©": 7, "!": 8},
                   "merges": \(merges)},
         "added_tokens": [\(extra){"id": 9, "content": "<|endoftext|>"}, {"id": 10, "content": "<|startoftranscript|>"},
            {"id": 11, "content": "<|translate|>"}, {"id": 12, "content": "<|transcribe|>"}, {"id": 13, "content": "<|startoflm|>"},
            {"id": 14, "content": "<|startofprev|>"}, {"id": 15, "content": "<|nocaptions|>"}, {"id": 16, "content": "<|notimestamps|>"}]}
        """)
    }

    static func read(_ json: String) throws -> WhisperTokenizer {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pb-tokenizer-\(UUID().uuidString).json")
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

    @Test("merges written as pairs read as merges written as strings; an entry of another form is passed over")
    func mergeForms() throws {
        let strings = try Self.tiny()
        let pairs = try Self.tiny(merges: #"[["Ġ", "h"], 7, ["Ġh", "i"], ["a", "b", "c"], ["Ã", "©"]]"#, added: #"{"id": "x", "content": "?"}, 3, "#)
        for text in [" hi", " hi!", "é", "hé"] { #expect(pairs.encode(text) == strings.encode(text)) }
        #expect(pairs.encode(" hi") == [4])
        #expect(pairs.specials == strings.specials)
        // Without merges every byte is its own token.
        #expect(try Self.tiny(merges: "{}").encode(" hi") == [2, 0, 1])
        // A file without a vocabulary says which field is missing.
        #expect {
            _ = try Self.read(#"{"model": {"merges": []}}"#)
        } throws: { "\($0)".contains("no vocab in model") }
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
