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

    /// The binary search finds every lemma of the index, first to last, and nothing between them.
    @Test func everyLemmaOfTheIndexIsFound() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        for pos in WordNet.PartOfSpeech.allCases {
            let text = try String(contentsOfFile: "\(WordNet.defaultDirectory)/index.\(pos.rawValue)", encoding: .utf8)
            let lemmas = text.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != " " }) }
            for (i, lemma) in lemmas.enumerated() where i % 97 == 0 || i == lemmas.count - 1 {
                #expect(wn.has(pos, lemma), "\(pos) \(lemma)")
                #expect(!wn.has(pos, lemma + "qqz"), "\(pos) \(lemma)qqz")
            }
            #expect(!wn.has(pos, ""))
        }
        #expect(wn.senseOffsets(.noun, "boiler").count == 2)
    }

    /// A word no dictionary knows is near the English word it was meant as: a letter left out,
    /// two swapped; the most used of equally near words comes first.
    @Test func nearestEnglishWords() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        #expect(wn.nearestWords(to: "apointment", within: 2).first?.word == "appointment")
        #expect(wn.nearestWords(to: "lenght", within: 1).map(\.word) == ["length"])
        #expect(wn.nearestWords(to: "qqzzx", within: 1).isEmpty)
        #expect(!wn.nearestWords(to: "boiler", within: 1).contains { $0.word == "boiler" })
        #expect(EditDistance.optimalAlignment(Array("lenght".utf8), Array("length".utf8), limit: 2) == 1)
        #expect(EditDistance.optimalAlignment(Array("abcdef".utf8), Array("uvwxyz".utf8), limit: 2) == 3)
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

    @Test func irregularFormsAndTheirLemma() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        #expect(wn.lemma(ofIrregular: "paid") == "pay")
        #expect(wn.lemma(ofIrregular: "children") == "child")
        #expect(wn.lemma(ofIrregular: "went") == "go")
        // A form that is a noun or a verb of its own keeps its own meaning: a saw, to found.
        #expect(wn.lemma(ofIrregular: "saw") == nil)
        #expect(wn.lemma(ofIrregular: "found") == nil)
        #expect(wn.lemma(ofIrregular: "table") == nil)
        // Asked again, the same answer (kept, nil ones too).
        #expect(wn.lemma(ofIrregular: "paid") == "pay" && wn.lemma(ofIrregular: "saw") == nil)
    }

    @Test func phrasalVerbsFromAVerbAndItsParticle() throws {
        let wn = try #require(WordNet.shared, "wordnet-base is not installed (make deps)")
        #expect(wn.phrasalVerb("take", "back") == "take back")
        #expect(wn.phrasalVerb("ran", "out") == "run out")
        #expect(wn.phrasalVerb("hardware", "back") == nil)
        #expect(wn.synonyms(of: "take back").contains("return"))
    }
}
