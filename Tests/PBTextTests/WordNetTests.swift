import Testing
@testable import PBText

@Suite struct WordNetTests {
    /// Debian's wordnet-base is a test dependency (make deps installs it).
    @Test func knowsInflectedEnglishNotTypos() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        for w in ["summarise", "insurers", "iced", "icing", "tyres", "colour", "geese", "took"] { #expect(wn.knows(w), "\(w)") }
        for w in ["bolier", "insurence", "levle", "apointment"] { #expect(!wn.knows(w), "\(w)") }
        #expect(wn.baseForms("took").contains { $0.0 == .verb && $0.1 == "take" })
        #expect(WordNet(directory: "/nonexistent") == nil)
    }
}
