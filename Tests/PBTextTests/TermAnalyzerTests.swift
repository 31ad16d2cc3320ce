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
}
