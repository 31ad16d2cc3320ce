import Foundation
import Testing
@testable import PBText
@testable import PBCore

@Suite struct TermAnalyzerTests {
    @Test func stemsLightly() {
        #expect(TermAnalyzer.stem("mutations") == "mutation")
        #expect(TermAnalyzer.stem("studies") == "study")
        #expect(TermAnalyzer.stem("increased") == "increas")
        #expect(TermAnalyzer.stem("increases") == "increas")
        #expect(TermAnalyzer.stem("classes") == "class")
        #expect(TermAnalyzer.stem("virus") == "virus")
        #expect(TermAnalyzer.stem("is") == "is")
        #expect(TermAnalyzer.stem("1990s") == "1990s")
    }

    @Test func asciiAndUnicodePathsAgree() {
        #expect(TermAnalyzer.tokens("Error E24, drains 3.5 L") == ["error", "e24", "drain", "3", "5", "l"])
        #expect(TermAnalyzer.tokens("Café errors") == ["café", "error"])
        #expect(TermAnalyzer.contentTerms("the cat and the cats") == ["cat"])
        #expect(TermAnalyzer.contentTerms("to be") == ["to", "be"])
    }

    /// A contraction's or a possessive's ending is not a word, with either apostrophe; a name
    /// with an apostrophe inside keeps both parts, and a quoted letter stays.
    @Test func contractionEndingsAreNotWords() {
        #expect(TermAnalyzer.tokens("once I've passed Maisie's test") == ["once", "i", "pass", "maisie", "test"])
        #expect(TermAnalyzer.tokens("once I’ve passed Maisie’s test, café") == ["once", "i", "pass", "maisie", "test", "café"])
        #expect(TermAnalyzer.tokens("don't, they'll, we're, I'd, I'm") == ["don", "not", "they", "we", "i", "i"])
        #expect(TermAnalyzer.tokens("Sam O'Neill") == ["sam", "o", "neill"])
        #expect(TermAnalyzer.tokens("vitamin 'd' and the 's phase") == ["vitamin", "d", "and", "the", "s", "phase"])
    }
}
