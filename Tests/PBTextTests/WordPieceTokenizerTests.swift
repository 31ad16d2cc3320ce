import Foundation
import Testing
import PBCore
import PBText

/// Where the real all-MiniLM-L6-v2 folder and the reference outputs live for these tests.
enum MiniLMFixtures {
    /// PBEnvironment's answer: PB_MODEL_DIR, else the model folder under PB_HOME.
    static let modelDirectory: URL = PBEnvironment().modelDirectory

    static var vocabulary: URL { modelDirectory.appendingPathComponent("vocab.txt") }

    static var modelPresent: Bool { FileManager.default.fileExists(atPath: vocabulary.path) }

    /// The golden file is in the evaluation data in the repository (Evals/data/fixtures).
    static let goldenFile: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = packageRoot.appendingPathComponent("Evals/data/fixtures/minilm-golden.jsonl")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }()

    struct Golden: Decodable {
        let text: String
        let token_ids: [Int32]
    }

    static func golden() throws -> [Golden] {
        let data = try Data(contentsOf: try #require(goldenFile))
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Golden.self, from: Data($0.utf8))
        }
    }
}

@Suite("WordPiece tokenizer against the reference")
struct WordPieceGoldenTests {
    @Test("all golden token ids match exactly",
          .enabled(if: MiniLMFixtures.modelPresent,
                   "model folder absent (set PB_MODEL_DIR or run `make model`)"),
          .enabled(if: MiniLMFixtures.goldenFile != nil, "minilm-golden.jsonl not found"))
    func goldenTokenIDs() throws {
        let tokenizer = try WordPieceTokenizer(vocabularyAt: MiniLMFixtures.vocabulary)
        let cases = try MiniLMFixtures.golden()
        #expect(cases.count == 20)
        for item in cases {
            let ids = tokenizer.encode(item.text, maxTokens: 256)
            #expect(ids == item.token_ids, "\(item.text.prefix(60))")
            if item.token_ids.count < 256 {
                #expect(tokenizer.countTokens(item.text) == item.token_ids.count - 2)
                #expect(tokenizer.tokenize(item.text) == Array(item.token_ids.dropFirst().dropLast()))
            }
        }
    }

    @Test("real-vocabulary cases: accents, special tokens, controls",
          .enabled(if: MiniLMFixtures.modelPresent,
                   "model folder absent (set PB_MODEL_DIR or run `make model`)"))
    func realVocabulary() throws {
        let t = try WordPieceTokenizer(vocabularyAt: MiniLMFixtures.vocabulary)
        #expect(t.tokenize("Café") == t.tokenize("cafe"))
        #expect(t.tokenize("ÅNGSTRÖM") == t.tokenize("angstrom"))
        // Decomposed input (e + combining acute) normalises like the precomposed form.
        #expect(t.tokenize("cafe\u{301}") == t.tokenize("café"))
        // Special tokens written literally are the reference's added tokens, not punctuation.
        #expect(t.tokenize("a [SEP] b[MASK]") == t.tokenize("a") + [102] + t.tokenize("b") + [103])
        #expect(t.tokenize("[sep]") != [102])
        // NUL, U+FFFD, zero-width space (Cf) and soft hyphen vanish; NBSP and ideographic space split.
        #expect(t.tokenize("ab\u{0}c\u{FFFD}d\u{200B}e\u{AD}f") == t.tokenize("abcdef"))
        #expect(t.tokenize("hello\u{A0}world\u{3000}again") == t.tokenize("hello world again"))
        // CJK compatibility ideographs are isolated, then decomposed.
        #expect(t.tokenize("x\u{F900}y").count == 3)
        #expect(t.tokenize("") == [])
    }
}

@Suite("WordPiece tokenizer mechanics (small vocabulary)")
struct WordPieceUnitTests {
    /// A vocabulary with BERT's special ids in place and a handful of pieces after them.
    static let pieces = ["un", "##aff", "##able", "##ab", "aff", "hello", "world", "!", ",", ".", "-", "(", ")",
                         "cafe", "naive", "a", "b", "c", "##b", "##c", "x", "##x", "çx", "¿", "中", "文", "é"]

    static func makeTokenizer() throws -> (WordPieceTokenizer, [String: Int32]) {
        var lines = (0..<104).map { "[unused\($0)]" }
        lines[0] = "[PAD]"; lines[100] = "[UNK]"; lines[101] = "[CLS]"; lines[102] = "[SEP]"; lines[103] = "[MASK]"
        lines += pieces
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pb-vocab-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var ids: [String: Int32] = [:]
        for (i, p) in lines.enumerated() { ids[p] = Int32(i) }
        return (try WordPieceTokenizer(vocabularyAt: url), ids)
    }

    @Test func continuationPieces() throws {
        let (t, id) = try Self.makeTokenizer()
        // Longest match first: "unaffable" = un ##aff ##able, not un ##aff ##ab + failure.
        #expect(t.tokenize("unaffable") == [id["un"]!, id["##aff"]!, id["##able"]!])
        #expect(t.tokenize("abc") == [id["a"]!, id["##b"]!, id["##c"]!])
        // A word with an unmatchable remainder is a single [UNK], not a partial match.
        #expect(t.tokenize("unz hello") == [100, id["hello"]!])
    }

    @Test func caseAndAccents() throws {
        let (t, id) = try Self.makeTokenizer()
        #expect(t.tokenize("HeLLo WORLD") == [id["hello"]!, id["world"]!])
        #expect(t.tokenize("Café NAÏVE") == [id["cafe"]!, id["naive"]!])
        // ç decomposes to c + cedilla (Mn), so "çx" never reaches the vocabulary as written.
        #expect(t.tokenize("çx") == [id["c"]!, id["##x"]!])
        #expect(t.tokenize("É") == [id["e"] ?? 100])
    }

    @Test func punctuationAndWhitespace() throws {
        let (t, id) = try Self.makeTokenizer()
        #expect(t.tokenize("hello,world!") == [id["hello"]!, id[","]!, id["world"]!, id["!"]!])
        #expect(t.tokenize("(a-b).") == [id["("]!, id["a"]!, id["-"]!, id["b"]!, id[")"]!, id["."]!])
        // Unicode punctuation (Po) splits like ASCII punctuation.
        #expect(t.tokenize("¿hello") == [id["¿"]!, id["hello"]!])
        #expect(t.tokenize(" \t\r\n hello \n") == [id["hello"]!])
        // CJK ideographs are words of their own even without spaces.
        #expect(t.tokenize("a中文b") == [id["a"]!, id["中"]!, id["文"]!, id["b"]!])
    }

    @Test func longWordsAreUnknown() throws {
        let (t, id) = try Self.makeTokenizer()
        let hundred = String(repeating: "x", count: 100)
        #expect(t.tokenize(hundred) == [id["x"]!] + Array(repeating: id["##x"]!, count: 99))
        #expect(t.tokenize(hundred + "x") == [100])
        #expect(t.tokenize(String(repeating: "x", count: 5000) + " hello") == [100, id["hello"]!])
        #expect(t.countTokens(hundred + "x hello") == 2)
    }

    @Test func encodeAndTruncation() throws {
        let (t, id) = try Self.makeTokenizer()
        let h = id["hello"]!, w = id["world"]!
        #expect(t.encode("") == [101, 102])
        #expect(t.encode("hello world") == [101, h, w, 102])
        let long = Array(repeating: "hello world", count: 300).joined(separator: " ")
        #expect(t.encode(long).count == 256)
        #expect(t.encode(long, maxTokens: 5) == [101, h, w, h, 102])
        #expect(t.encode(long, maxTokens: 512).count == 512)
        #expect(t.encode(long, maxTokens: 2) == [101, 102])
        #expect(t.countTokens(long) == 600)
        #expect(t.tokenize(long).count == 600)
        // Truncation may cut a word's pieces: the ids are a prefix of the full tokenisation.
        #expect(t.encode("unaffable", maxTokens: 4) == [101, id["un"]!, id["##aff"]!, 102])
    }

    @Test func missingOrEmptyVocabulary() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/dir/vocab.txt")
        #expect {
            _ = try WordPieceTokenizer(vocabularyAt: missing)
        } throws: { error in
            "\(error)".contains("/nonexistent/dir/vocab.txt") && "\(error)".contains("no such file")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("pb-empty-\(UUID().uuidString).txt")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect {
            _ = try WordPieceTokenizer(vocabularyAt: empty)
        } throws: { error in
            "\(error)".contains(empty.path) && "\(error)".contains("empty")
        }
    }
}
