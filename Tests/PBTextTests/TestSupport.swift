import Foundation
@testable import PBText
import PBCore

/// Where test data lives, and the real tokenizer when the model is installed.
enum TestSupport {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = repo.appendingPathComponent("Tests/Fixtures/samples")
    /// The evaluation data in the repository (SciFact and the other sets, with their provenance).
    static let data = repo.appendingPathComponent("Evals/data")

    static var vocabulary: URL { PBEnvironment().modelDirectory.appendingPathComponent("vocab.txt") }
    static var hasModel: Bool { FileManager.default.fileExists(atPath: vocabulary.path) }

    /// A crude counter for tests that only need some token count: one per word or punctuation mark.
    struct RoughCounter: TokenCounter {
        func countTokens(_ text: String) -> Int {
            LexicalWords.count(text)
        }
    }

    static func counter() -> TokenCounter {
        if hasModel, let t = try? WordPieceTokenizer(vocabularyAt: vocabulary) { return t }
        return RoughCounter()
    }
}

enum LexicalWords {
    static func count(_ text: String) -> Int {
        var n = 0
        var inWord = false
        for s in text.unicodeScalars {
            if s.properties.isAlphabetic || s.properties.numericType != nil {
                if !inWord { n += 1; inWord = true }
            } else {
                inWord = false
                if !s.properties.isWhitespace { n += 1 }
            }
        }
        return n
    }
}
