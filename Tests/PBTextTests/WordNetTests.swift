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

@Suite struct WordNetSynonymTests {
    @Test func synonymsFromTheCommonestSenses() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        #expect(wn.synonyms(of: "job").contains("occupation"))
        #expect(wn.synonyms(of: "jobs").contains("line of work"))
        #expect(wn.synonyms(of: "summarise").contains("summarize"))
        #expect(!wn.synonyms(of: "job").contains("job"))
        #expect(wn.synonyms(of: "bolier").isEmpty)
    }
}
