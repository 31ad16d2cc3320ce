import Testing
import PBCore
import PBText
@testable import PBAnswer
import PBEndpoint

@Suite struct AnswerShapeTests {
    @Test func listMarkers() {
        #expect(ExtractiveComposer.isBareMarker("1."))
        #expect(ExtractiveComposer.isBareMarker("12)"))
        #expect(!ExtractiveComposer.isBareMarker("1.5"))
        #expect(!ExtractiveComposer.isBareMarker("E24."))
        #expect(ExtractiveComposer.isListItem("2. Open the service flap."))
        #expect(ExtractiveComposer.isListItem("- 1 tbsp olive oil"))
        #expect(!ExtractiveComposer.isListItem("2.4 bar at the front."))
    }

    @Test func strictKindsAreThoseReadReliably() {
        #expect(ExtractiveComposer.strictKind(QuestionReading(intent: .lookup, asks: .phone)) == .phone)
        #expect(ExtractiveComposer.strictKind(QuestionReading(intent: .lookup, asks: .number)) == nil)
        #expect(ExtractiveComposer.strictKind(QuestionReading(intent: .summarize, asks: .money)) == nil)
    }

    @Test func keyTermsLeaveOutAskingWordsAndVerbs() {
        let key = KeyTerms("What is the policy number of my car insurance?").terms.map(\.stem)
        #expect(!key.contains("number") && key.contains("policy"))
        #expect(key.contains("car") && key.contains("insurance"))
        #expect(!KeyTerms("Who did the Normans besiege?").terms.map(\.stem).contains("besiege"))
        // Nor a word WordNet knows only as an adverb: how something happened names nothing.
        let landed = KeyTerms("How much actually landed in my account?").terms.map(\.stem)
        #expect(!landed.contains(TermAnalyzer.stem("actually")) && landed.contains(TermAnalyzer.stem("account")))
    }

    @Test func aPhrasalVerbsParticleIsPartOfItsVerb() throws {
        try #require(WordNet.shared != nil, "wordnet-base is not installed (make deps)")
        // "take things back" is to return them: the receipt's "Returns within 28 days" binds,
        // and a clause about hours "taken back as time off" does not.
        let key = KeyTerms("How long have I got to take things back to the hardware shop?")
        #expect(!key.terms.map(\.stem).contains("back"))
        #expect(key.binding(in: TermMatcher("HALLORAN HARDWARE. Returns within 28 days with this receipt. Thank you for shopping.")).binds)
        #expect(!key.binding(in: TermMatcher("Extra hours may be taken back as time off in lieu within one month.")).binds)
    }

    @Test func aPassageBindsWithTheWordsOrTheirSynonyms() {
        let key = KeyTerms("What is the policy number of my car insurance?")
        #expect(!key.binding(in: TermMatcher("Travel insurance: policy JA-TRV-88120.")).binds)
        #expect(key.binding(in: TermMatcher("Car insurance policy MTR-5521, Hollis Insurance.")).binds)
        // "automobile" is a synonym of "car" (WordNet): found, at three quarters.
        let b = key.binding(in: TermMatcher("Automobile insurance policy MTR-5521."))
        #expect(b.binds && b.share < 1)
    }
}

@Suite struct ConsentPromptTests {
    @Test func onlyYesSends() {
        #expect(ConsentPrompt.decide("y") == .yes)
        #expect(ConsentPrompt.decide(" YES \n") == .yes)
        #expect(ConsentPrompt.decide("") == .no)
        #expect(ConsentPrompt.decide("n") == .no)
        #expect(ConsentPrompt.decide("yes please") == .no)
    }
}

@Suite struct NamedDocumentTests {
    @Test func aSummaryIsOfTheDocumentsItsRequestNames() {
        let candidates = [(doc: "email", naming: "Re: Boiler service and quote email-okafor-quote.eml"),
                          (doc: "record", naming: "Boiler Service Record boiler-service-record-2025.pdf"),
                          (doc: "warranty", naming: "7-Year Warranty Certificate boiler-warranty-certificate.docx")]
        let subject = SummaryScope.subject("Summarise the boiler warranty certificate.")
        #expect(!subject.contains("summarise"))
        #expect(SummaryScope.documents(subject: subject, candidates: candidates, limit: 2) == ["warranty"])
        // Two documents named as fully are both taken, best ranked first; none named: the top hit.
        #expect(SummaryScope.documents(subject: SummaryScope.subject("summarise the boiler service"), candidates: candidates, limit: 2) == ["email", "record"])
        #expect(SummaryScope.documents(subject: SummaryScope.subject("summarise the trip"), candidates: candidates, limit: 2) == ["email"])
    }

    @Test func aTitleLineIsNotAStatement() {
        let title = Set(["halvard", "wd", "8614", "washer", "dryer", "user", "manual"])
        #expect(ExtractiveComposer.isTitleLine("Halvard WD-8614 Washer Dryer", title: title))
        #expect(!ExtractiveComposer.isTitleLine("The WD-8614 is a washer dryer.", title: title))
        #expect(!ExtractiveComposer.isTitleLine("Halvard WD-8614 Washer Dryer", title: []))
    }

    @Test func countsAreNotTheDigitsOfACode() {
        #expect(SentenceScorer.counts(in: "The WD-8614 is a freestanding washer dryer.").isEmpty)
        #expect(SentenceScorer.counts(in: "Unscrew the four transit bolts.") == ["four"])
        #expect(SentenceScorer.counts(in: "It holds 8 kg, on the 3rd shelf.") == ["8", "3rd"])
        #expect(SentenceScorer.leadsWithCode("E20 | Water is not draining | Clean the filter.", ["e20", "drain"]))
        #expect(!SentenceScorer.leadsWithCode("2024-03 | Dishwasher repair (E24) | 129.00", ["e24"]))
    }
}

@Suite struct PromptShapeTests {
    @Test func theModelIsToldTheShapeOfAnswerAsked() {
        var reading = QuestionReading(intent: .lookup, asks: .quantity, measure: .pressure, terms: ["tyre", "pressure"])
        #expect(PromptWriter.question("front tyre pressure?", reading: reading) == "Question: front tyre pressure?\nAnswer with: the number with its unit (a pressure).")
        reading = QuestionReading(intent: .procedure, terms: ["descale"])
        #expect(PromptWriter.question("how do I descale it?", reading: reading).hasSuffix("Answer with: the steps in order, as the evidence numbers them."))
        // Nothing particular asked, or no analysis: the question alone.
        #expect(PromptWriter.question("tell me about the garden", reading: QuestionReading(intent: .general, terms: ["garden"])) == "Question: tell me about the garden")
        #expect(PromptWriter.question("tell me about the garden") == "Question: tell me about the garden")
    }
}

@Suite struct TableRowWeightTests {
    @Test func rowsAreNotDiscountedWhenTheValueIsOfAKindTablesHold() {
        let row = EvidenceSentence(n: 1, piece: 0, chunkID: "m-1", path: "manual.pdf", start: 0, end: 24, line: 3, page: 1,
                                   text: "Washing capacity | 8 kg")
        let q = QuestionAnalysis("Is the washing capacity bigger than the drying capacity?")
        let plain = SentenceScorer().lexical(q, [row], passageRank: [1: 1])[0].score
        let values = SentenceScorer().lexical(q, [row], passageRank: [1: 1], rowsAnswer: true)[0].score
        #expect(abs(values - plain - SentenceScorer.Weights().tableRow) < 1e-9)
    }
}

@Suite struct ComparedValuesTests {
    /// A comparison's second value may be stated in the same words as the first: what tells the
    /// two sentences apart is the numbers they state, not the number of their clause.
    @Test func statedNumbersLeaveOutTheClauseNumber() {
        #expect(ExtractiveComposer.statedNumbers("12.3 The Company will give you three months' notice.") == ["three"])
        #expect(ExtractiveComposer.statedNumbers("12.2 You must give the Company two months' notice.") == ["two"])
        #expect(ExtractiveComposer.statedNumbers("3 bedrooms and 2 bathrooms") == ["3", "2"])
    }
}

@Suite struct SummaryFactRowTests {
    /// A two-cell row under a label of words states a fact; a row of a data table does not.
    @Test func aLabelledRowIsAFact() {
        #expect(ExtractiveComposer.isFactRow("Warranty period | 7 years parts and labour, to 13 June 2029"))
        #expect(ExtractiveComposer.isFactRow("Installation date | 14 June 2022"))
        #expect(!ExtractiveComposer.isFactRow("Reading 7 Feb 2025 42,219 | 337 kWh | 24.86p per kWh | £83.78"))
        #expect(!ExtractiveComposer.isFactRow("205/55 R16 91V | 2.3 bar (33 psi)"))
        #expect(!ExtractiveComposer.isFactRow("Just a sentence, not a row."))
    }
}

@Suite struct TableCaptionTests {
    /// A row is read under the heading-like line over its table, past a note under the heading:
    /// the electricity standing charge and the gas one are told apart by it.
    @Test func aRowsCaptionIsTheHeadingOverItsTable() {
        let text = """
        2. Electricity
        Meter serial E19K 44120, reading type: actual (smart meter).

        Description | Quantity | Rate | Amount
        Standing charge | 31 days | 53.35p per day | £16.54

        3. Gas
        Meter serial G4A 00917 (readings are in cubic metres).
        Description | Quantity | Rate | Amount
        Standing charge | 31 days | 31.65p per day | £9.81
        """
        let bytes = Array(text.utf8)
        func at(_ needle: String) -> Int { text.utf8.count - text.components(separatedBy: needle).last!.utf8.count - needle.utf8.count }
        #expect(EvidenceSentences.caption(before: at("Standing charge | 31 days | 53.35p"), in: bytes) == "2. Electricity")
        #expect(EvidenceSentences.caption(before: at("Standing charge | 31 days | 31.65p"), in: bytes) == "3. Gas")
        #expect(EvidenceSentences.caption(before: 0, in: bytes) == nil)
        // Prose above a table, three lines deep, names no caption.
        let prose = "First sentence here.\nSecond one here.\nThird one here.\nA | B | C\n1 | 2 | 3"
        #expect(EvidenceSentences.caption(before: prose.utf8.count - 9, in: Array(prose.utf8)) == nil)
    }
}

@Suite struct CSVCountsTests {
    /// A CSV record's fields are words of their own; a thousands comma is not a field's end.
    @Test func csvFieldsHoldNumbers() {
        #expect(SentenceScorer.counts(in: "31/03/2025,BGC,FERNHILL ANALYTICS SALARY,,2566.90,2823.16").contains("2823"))
        #expect(SentenceScorer.counts(in: "1,402 kWh, 6 days") == ["1", "402", "6"])
        #expect(SentenceScorer.counts(in: "WD-8614,E20") == [])
    }
}

@Suite struct SummaryUnitTests {
    func sentence(_ text: String, at start: Int, section: [String]) -> EvidenceSentence {
        var s = EvidenceSentence(n: 1, piece: 0, chunkID: "t-1", path: "trip.html", start: start, end: start + text.utf8.count,
                                 line: 1, page: nil, text: text)
        s.section = section
        return s
    }

    @Test func eachItemOfAListIsAPartOfItsOwn() {
        let days = ["Day by day"], stay = ["Where we are staying"]
        let sentences = [
            sentence("The Thistle & Lantern Hotel, 9 Bellfield Wynd.", at: 0, section: stay),
            sentence("Check-in from 3 pm.", at: 50, section: stay),
            sentence("- Friday 18 July – arrive 13:17.", at: 100, section: days),
            sentence("Dinner at 18:30.", at: 140, section: days),
            sentence("- Saturday 19 July – Edinburgh Castle.", at: 160, section: days),
        ]
        let units = ExtractiveComposer.summaryUnits(sentences)
        // A section's sentences are one part; an item keeps the sentences after it.
        #expect(units[0] == units[1])
        #expect(units[2] == units[3])
        #expect(Set(units).count == 3)
    }
}
