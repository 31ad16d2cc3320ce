import Foundation
import Testing
@testable import PBAnswer
@testable import PBCore
import PBNeural

/// Evidence pieces cut from one made-up source text, so spans can be checked against it.
enum AnswerFixture {
    static let source = """
        The tenancy starts on 1 September 2023. Monthly rent is £1,150, due on the 1st.

        The tenants have paid a deposit of £1,325, equal to five weeks' rent. It is protected with the Deposit Protection Service.

        Pets are not allowed without written consent. The garden is shared with the flat upstairs.
        """

    /// The piece holding `text`, with its real byte offsets in `source`.
    static func piece(_ n: Int, _ text: String, rank: Int, section: String = "Terms") -> Evidence {
        let bytes = Array(source.utf8), needle = Array(text.utf8)
        var start = 0
        while Array(bytes[start..<(start + needle.count)]) != needle { start += 1 }
        return Evidence(n: n, span: SourceSpan(chunkID: "t-\(n)", docID: "tenancy", path: "tenancy.md", title: "Tenancy", section: [section],
            start: start, end: start + needle.count, lineStart: 1 + bytes[0..<start].filter { $0 == 0x0A }.count, lineEnd: 1),
            text: text, role: .anchor, score: 1, rank: rank)
    }

    static var context: PackedContext {
        let pieces = [
            piece(1, "The tenants have paid a deposit of £1,325, equal to five weeks' rent. It is protected with the Deposit Protection Service.", rank: 1, section: "Deposit"),
            piece(2, "The tenancy starts on 1 September 2023. Monthly rent is £1,150, due on the 1st.", rank: 2, section: "Rent"),
            piece(3, "Pets are not allowed without written consent. The garden is shared with the flat upstairs.", rank: 3, section: "Rules"),
        ]
        return PackedContext(budget: 4096, used: 900, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: pieces)
    }

    static func composer(_ mode: Mode = .standard) throws -> ExtractiveComposer {
        try ExtractiveComposer(settings: ExtractiveComposer.Settings.forMode(mode), encoder: nil)
    }

    /// Every citation's span, read from the source, is its quote.
    static func spansHold(_ a: AnswerRecord) -> Bool {
        let bytes = Array(source.utf8)
        return a.citations.allSatisfy { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) == $0.quote }
    }
}

@Suite("Extractive composer")
struct ExtractiveComposerTests {
    @Test func answersWithTheSentenceHoldingTheQuestionsRareWordsCitedByItsSpan() throws {
        let a = try AnswerFixture.composer().compose(question: "How much is the deposit?", context: AnswerFixture.context)
        #expect(a.text == "The tenants have paid a deposit of £1,325, equal to five weeks' rent. [1]")
        #expect(a.citations.count == 1)
        #expect(a.citations[0].evidence == 1 && a.citations[0].chunkID == "t-1" && a.citations[0].line == 3)
        #expect(AnswerFixture.spansHold(a))
        #expect(a.sentences == [AnswerSentence(text: "The tenants have paid a deposit of £1,325, equal to five weeks' rent.", cites: [1])])
        #expect(a.route == .extractive && a.receipt.actual == .extractive)
    }

    static let encoder: MiniLMEncoder? = try? MiniLMEncoder(modelDirectory: PBEnvironment().modelDirectory)

    @Test(.enabled(if: VerifyFixture.modelPresent, "model absent (run make model)"))
    func withMiniLMTheAnsweringSentenceAlsoWinsOnMeaning() throws {
        let encoder = try #require(Self.encoder)
        let composer = try ExtractiveComposer(settings: ExtractiveComposer.Settings.forMode(.standard), encoder: encoder)
        let cases = [("How much is the deposit?", "The tenants have paid a deposit of £1,325, equal to five weeks' rent."),
                     ("When does the tenancy start?", "The tenancy starts on 1 September 2023."),
                     // Only "rent" is shared, and three sentences hold it: meaning decides.
                     ("What does the rent cost each month?", "Monthly rent is £1,150, due on the 1st.")]
        for (question, expected) in cases {
            let a = composer.compose(question: question, context: AnswerFixture.context)
            #expect(a.citations.first?.quote == expected, "\(question)")
            #expect(AnswerFixture.spansHold(a))
        }
        // The meaning signals themselves: MaxSim ranks the answering sentence first, as cosine should.
        let states = encoder.tokenStates(["What does the rent cost each month?", "Monthly rent is £1,150, due on the 1st.",
                                          "Pets are not allowed without written consent."])
        #expect(LateInteraction.maxSim(query: states[0], document: states[1]) > LateInteraction.maxSim(query: states[0], document: states[2]))
    }

    @Test(.enabled(if: VerifyFixture.modelPresent, "model absent (run make model)"))
    func aParaphraseIsAnsweredByMeaningOverSharedWords() throws {
        // The bundled tenancy agreement's obligations: "keep ... the flat" is shared with one
        // clause, only meaning ties "a cat" to "pets".
        let clauses = ["- to keep the flat clean and ventilated, and to open windows or use the extractor fans when cooking, drying laundry or showering, so that condensation does not cause mould;",
                       "- not to keep pets without the landlord's written consent, which will not be unreasonably withheld;",
                       "- not to smoke or vape inside the flat or in the communal hallway;",
                       "- to pay the rent, council tax, water, gas, electricity, broadband and TV licence for the flat;",
                       "- to test the smoke alarms and the carbon monoxide alarm once a month and replace their batteries;",
                       "- not to sublet or take in lodgers;",
                       "1. to keep the structure and exterior in repair, including drains, gutters and external pipes;",
                       "2. to keep the installations for water, gas, electricity, sanitation and heating in repair and proper working order;"]
        let text = clauses.joined(separator: "\n")
        let e = Evidence(n: 1, span: SourceSpan(chunkID: "t-4", docID: "tenancy", path: "tenancy-agreement.docx", title: "Tenancy", section: ["4. Tenants' obligations"],
            start: 0, end: text.utf8.count, lineStart: 30, lineEnd: 32),
            text: text, role: .anchor, score: 1, rank: 1)
        let context = PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: [e])
        let composer = try ExtractiveComposer(settings: ExtractiveComposer.Settings.forMode(.standard), encoder: try #require(Self.encoder))
        #expect(composer.compose(question: "Can we keep a cat in the flat?", context: context).citations.first?.quote == clauses[1])
    }

    @Test func aWhenQuestionPrefersTheSentenceWithADate() throws {
        let a = try AnswerFixture.composer().compose(question: "When does the tenancy start?", context: AnswerFixture.context)
        #expect(a.citations.first?.quote == "The tenancy starts on 1 September 2023.")
        #expect(AnswerFixture.spansHold(a))
    }

    @Test func aQuestionOfTwoPartsGetsASecondSentenceNumberedByFirstUse() throws {
        let a = try AnswerFixture.composer().compose(question: "How much is the deposit and when does the tenancy start?", context: AnswerFixture.context)
        #expect(a.citations.count == 2)
        #expect(a.citations.map(\.n) == [1, 2])
        #expect(Set(a.citations.map(\.chunkID)) == ["t-1", "t-2"])
        // The same question in one part gets one sentence.
        let one = try AnswerFixture.composer().compose(question: "How much is the deposit?", context: AnswerFixture.context)
        #expect(one.citations.count == 1)
        #expect(AnswerFixture.spansHold(a))
    }

    @Test func declinesWithoutEvidenceOrWithoutAnyMatchingWord() throws {
        let c = try AnswerFixture.composer()
        #expect(c.compose(question: "How much is the deposit?", context: nil).text == ExtractiveComposer.declined)
        let none = c.compose(question: "Who painted the Mona Lisa?", context: AnswerFixture.context)
        #expect(none.text == ExtractiveComposer.declined)
        #expect(none.citations.isEmpty)
    }

    @Test func summariesTakeSectionsInSourceOrder() throws {
        let a = try AnswerFixture.composer().compose(question: "Summarise the tenancy", context: AnswerFixture.context)
        #expect(a.route == .summary)
        #expect(a.citations.count >= 2)
        let starts = a.citations.map(\.start)
        #expect(starts == starts.sorted())
        #expect(AnswerFixture.spansHold(a))
    }
}

@Suite("Question analysis")
struct QuestionAnalysisTests {
    @Test func expectations() {
        #expect(QuestionAnalysis("When was the treaty signed?").expectation == .time)
        #expect(QuestionAnalysis("In what year did it open?").expectation == .time)
        #expect(QuestionAnalysis("How many keys are there?").expectation == .number)
        #expect(QuestionAnalysis("Who led the Normans?").expectation == .person)
        #expect(QuestionAnalysis("Where is Normandy?").expectation == .place)
        #expect(QuestionAnalysis("Why did prices rise?").expectation == .reason)
        #expect(QuestionAnalysis("What is the deposit?").expectation == .any)
        #expect(QuestionAnalysis("What did we spend on electricity in January?").expectation == .number)
        #expect(QuestionAnalysis("What does the annual service cost?").expectation == .number)
        #expect(QuestionAnalysis("What does error E24 mean?").expectation == .any)
    }

    @Test func partsAndSummaries() {
        #expect(QuestionAnalysis("When did it start and who led it?").multiPart)
        #expect(QuestionAnalysis("Compare the rent and the deposit").multiPart)
        #expect(!QuestionAnalysis("Call mum and dad?").multiPart)
        #expect(QuestionAnalysis("Summarise the meeting notes").wantsSummary)
        #expect(QuestionAnalysis("Give me an overview of the trip").wantsSummary)
        #expect(!QuestionAnalysis("What is the rent?").wantsSummary)
    }
}

@Suite("Citation resolver")
struct CitationResolverTests {
    @Test func markersBecomeSentenceSpansRenumberedByFirstUse() throws {
        let r = try CitationResolver()
        let written = "Pets need written consent [3]. The deposit is £1,325 [1]."
        let a = r.resolve(written, context: AnswerFixture.context, route: .endpoint,
                          receipt: Receipt(intended: .endpoint, attempted: [.endpoint], actual: .endpoint))
        #expect(a.citations.map(\.n) == [1, 2])
        #expect(a.citations.map(\.evidence) == [3, 1])
        #expect(a.citations[0].quote == "Pets are not allowed without written consent.")
        #expect(a.citations[1].quote == "The tenants have paid a deposit of £1,325, equal to five weeks' rent.")
        #expect(a.text == "Pets need written consent. [1] The deposit is £1,325. [2]")
        #expect(AnswerFixture.spansHold(a))
    }

    @Test func aMarkerNamingNoPassageIsKeptVisibleForTheVerifier() throws {
        let a = try CitationResolver().resolve("The boiler was serviced in May [7].", context: AnswerFixture.context, route: .endpoint,
                                               receipt: Receipt(intended: .endpoint, attempted: [.endpoint], actual: .endpoint))
        #expect(a.citations.isEmpty)
        #expect(a.text.contains("[7?]"))
        #expect(a.sentences.first?.cites == [])
    }

    @Test func markerLists() {
        let (plain, numbers) = CitationResolver.markers("Rent is due on the 1st [2, 1] and late fees apply [2].")
        #expect(numbers == [2, 1])
        #expect(plain == "Rent is due on the 1st and late fees apply.")
        #expect(CitationResolver.markers("an [array] stays").0 == "an [array] stays")
    }
}

/// A manual's error table next to a budget's CSV line about a repair, as in the bundled samples.
enum CodeFixture {
    static let manual = "E24 – Water is not draining away.\nError E27 – The supply voltage is too low; the dishwasher continues as soon as the voltage is restored."
    static let budget = "2024-03,Household,\"Dishwasher repair (drain pump, E24)\",129.00,Joint account,\"Technician visit 8 March\""

    static var context: PackedContext {
        let pieces = [
            Evidence(n: 1, span: SourceSpan(chunkID: "b-1", docID: "budget", path: "household-budget.csv", title: "Budget", section: [],
                start: 0, end: budget.utf8.count, lineStart: 32, lineEnd: 32),
                text: budget, role: .anchor, score: 1, rank: 1),
            Evidence(n: 2, span: SourceSpan(chunkID: "m-1", docID: "manual", path: "dishwasher-manual.pdf", title: "Manual", section: ["Error codes"],
                start: 0, end: manual.utf8.count, lineStart: 42, lineEnd: 43),
                text: manual, role: .anchor, score: 1, rank: 2),
        ]
        return PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: pieces)
    }
}

@Suite("Summary weights")
struct SummaryWeightTests {
    func sentence(_ text: String, start: Int, n: Int = 1) -> EvidenceSentence {
        EvidenceSentence(n: n, piece: 0, chunkID: "c", path: "log.txt", start: start, end: start + text.utf8.count, line: 1, page: nil, text: text)
    }

    @Test func headingsAndHeaderFieldsYieldToSentencesThatCarryTheDocument() {
        let s = [sentence("CAR MAINTENANCE LOG", start: 0),
                 sentence("Date: 12 March 2024", start: 20),
                 sentence("New summer tyres were fitted at the garage after the winter tyres wore down.", start: 40),
                 sentence("The garage also checked the winter tyres and the brakes before the long trip.", start: 120)]
        let w = ExtractiveComposer.summaryWeights(s, topic: [])
        #expect(w[2] > w[0] && w[2] > w[1] && w[3] > w[0] && w[3] > w[1], "\(w)")
    }

    @Test func entryHeadingsYieldAndFactsCount() {
        let s = [sentence("2021-06-15  48,510 km  Garage: Hollis Motors", start: 0),
                 sentence("Hollis Motors replaced the front brake pads and discs for 238.00 in June.", start: 50),
                 sentence("Bought a new 68 Ah battery from Hollis Motors for 215.00 on 14 February.", start: 120)]
        let w = ExtractiveComposer.summaryWeights(s, topic: [])
        #expect(w[1] > w[0] && w[2] > w[0], "\(w)")
        #expect(ExtractiveComposer.factCount("Bought a new 68 Ah battery from Hollis Motors.") == 4)
    }

    @Test func aDocumentWithoutHeadingsIsSummarisedAcrossItsChunks() throws {
        // One desk passage of three adjoining chunks (no headings): the summary quotes from each.
        let texts = ["The boiler was serviced in March and the valve was replaced by the engineer.",
                     "The roof was inspected in June and two broken tiles were replaced by the roofer.",
                     "The gutters were cleared in October and a leaking joint was sealed by the builder."]
        var start = 0
        var pieces: [Evidence] = []
        for (i, t) in texts.enumerated() {
            pieces.append(Evidence(n: 1, span: SourceSpan(chunkID: "log-\(i)", docID: "log", path: "house-log.txt", title: "House log", section: [],
                start: start, end: start + t.utf8.count, lineStart: 1 + i, lineEnd: 1 + i),
                text: t, role: i == 0 ? .anchor : .section, score: 1, rank: 1))
            start += t.utf8.count + 1
        }
        let context = PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: pieces)
        let a = try AnswerFixture.composer().compose(question: "Summarise the house log", context: context)
        #expect(a.route == .summary)
        #expect(Set(a.citations.map(\.chunkID)) == ["log-0", "log-1", "log-2"])
    }

    @Test func aSummaryTakesSectionsThatSayDifferentThings() throws {
        // Three log entries about tyres and one about the battery: with room for two sections,
        // the summary takes one tyre entry and the battery, not two tyre entries.
        let entries = ["Fitted the winter tyres on the car, the tread of the winter tyres at 6.5 mm and the tyres in good shape.",
                       "Back to the summer tyres on the car, the tread of the summer tyres at 5.0 mm and the tyres swapped front to rear.",
                       "Four new summer tyres on the car, the tread of the new tyres at 7.6 mm and the old tyres recycled.",
                       "The battery died after a frosty night and a new one went in."]
        var start = 0
        var pieces: [Evidence] = []
        for (i, t) in entries.enumerated() {
            pieces.append(Evidence(n: i + 1, span: SourceSpan(chunkID: "log-\(i)", docID: "log", path: "car-log.txt", title: "Car log", section: ["Entry \(i)"],
                start: start, end: start + t.utf8.count, lineStart: 1 + 3 * i, lineEnd: 1 + 3 * i),
                text: t, role: i == 0 ? .anchor : .section, score: 1, rank: i == 0 ? 1 : nil))
            start += t.utf8.count + 2
        }
        let context = PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: pieces)
        var settings = ExtractiveComposer.Settings()
        settings.summarySections = 2
        let a = try ExtractiveComposer(settings: settings, encoder: nil).compose(question: "Summarise the car log", context: context)
        let chunks = Set(a.citations.map(\.chunkID))
        #expect(chunks.contains("log-3"), "\(chunks)")
        #expect(chunks.count == 2)
    }

    @Test func aTopicInTheRequestRaisesTheSentencesOnIt() {
        let s = [sentence("The tyres were replaced in May before the trip to the coast.", start: 0),
                 sentence("The brakes were checked in May before the trip to the coast.", start: 70)]
        let w = ExtractiveComposer.summaryWeights(s, topic: ["brake"])
        #expect(w[1] > w[0], "\(w)")
    }
}

@Suite("Codes and table rows")
struct CodeAndTableTests {
    func answer(_ question: String) throws -> String? {
        try AnswerFixture.composer().compose(question: question, context: CodeFixture.context).citations.first?.quote
    }

    @Test func aCodeInTheQuestionDecidesAndAMeaningIsNotATableRow() throws {
        // Without the code's weight the E27 line (sharing "error" and "dishwasher") would be
        // quoted, and without the table-row discount the budget row (sharing "dishwasher" and "E24").
        #expect(try answer("What does error E24 mean on the dishwasher?") == "E24 – Water is not draining away.")
    }

    @Test func anAmountIsReadFromTheRow() throws {
        #expect(try answer("How much did the dishwasher repair cost?") == CodeFixture.budget)
    }

    @Test func aMonthPicksItsRow() throws {
        let rows = ["2024-01,Utilities,Electricity,86.40,Joint account,Standing order",
                    "2024-02,Utilities,Electricity,79.10,Joint account,Standing order",
                    "2024-03,Utilities,Electricity,71.85,Joint account,Standing order"]
        let text = rows.joined(separator: "\n")
        let e = Evidence(n: 1, span: SourceSpan(chunkID: "b-1", docID: "budget", path: "household-budget.csv", title: "Budget", section: [],
            start: 0, end: text.utf8.count, lineStart: 2, lineEnd: 4),
            text: text, role: .anchor, score: 1, rank: 1)
        let context = PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: [e])
        for (month, row) in zip(["January", "February", "March"], rows) {
            let a = try AnswerFixture.composer().compose(question: "How much did we spend on electricity in \(month)?", context: context)
            #expect(a.citations.first?.quote == row)
        }
    }

    @Test func anAmountIsAboutItsObjectAndTakesEveryMatchingRow() throws {
        // The minutes share "spend" and "February"; the budget rows share "groceries" and the
        // month (2024-02). Two rows are February groceries: both are the answer.
        let rows = ["2024-01,Groceries,Supermarket,412.73,Joint account,",
                    "2024-02,Groceries,Supermarket,389.02,Joint account,",
                    "2024-02,Groceries,Farmers market,46.50,Maria,",
                    "2024-02,Transport,Monthly train pass,89.00,Maria,"]
        let csv = rows.joined(separator: "\n")
        let minutes = "- Spending since February: €312.40 for the new water butt and fittings, €64 for insurance."
        let context = PackedContext(budget: 4096, used: 300, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: [
            Evidence(n: 1, span: SourceSpan(chunkID: "m-2", docID: "minutes", path: "meeting-notes.md", title: "Minutes", section: ["2. Treasurer's report"],
                start: 0, end: minutes.utf8.count, lineStart: 19, lineEnd: 19),
                text: minutes, role: .anchor, score: 1, rank: 1),
            Evidence(n: 2, span: SourceSpan(chunkID: "b-0", docID: "budget", path: "household-budget.csv", title: "Budget", section: [],
                start: 0, end: csv.utf8.count, lineStart: 10, lineEnd: 13),
                text: csv, role: .anchor, score: 1, rank: 2),
        ])
        let a = try AnswerFixture.composer().compose(question: "How much did we spend on groceries in February?", context: context)
        #expect(a.citations.map(\.quote) == [rows[1], rows[2]])
    }

    @Test func codesAreLettersWithDigits() {
        #expect(SentenceScorer.isCode("e24") && SentenceScorer.isCode("x200") && SentenceScorer.isCode("a4"))
        #expect(!SentenceScorer.isCode("1998") && !SentenceScorer.isCode("pump"))
        // Numbers with a suffix are numbers; letters between digits make a code.
        #expect(!SentenceScorer.isCode("16th") && !SentenceScorer.isCode("1990s") && !SentenceScorer.isCode("5km"))
        #expect(SentenceScorer.isCode("4b2") && SentenceScorer.isCode("wd8614"))
    }
}

@Suite("Evidence sentences")
struct EvidenceSentencesTests {
    func split(_ text: String) throws -> [String] {
        let e = Evidence(n: 1, span: SourceSpan(chunkID: "m-1", docID: "m", path: "notes.md", title: "Notes", section: [],
            start: 100, end: 100 + text.utf8.count, lineStart: 7, lineEnd: 9),
            text: text, role: .anchor, score: 1, rank: 1)
        return try EvidenceSentences().sentences(of: e, piece: 0).map(\.text)
    }

    @Test func aHardWrappedSentenceStaysWhole() throws {
        let text = "Tom proposed raising the plot fee from €40 to €45 for 2025 to cover the water bill. The\ncommittee agreed to put the proposal to the annual general meeting rather than decide it now."
        #expect(try split(text) == ["Tom proposed raising the plot fee from €40 to €45 for 2025 to cover the water bill.",
                                    "The\ncommittee agreed to put the proposal to the annual general meeting rather than decide it now."])
    }

    @Test func rowsListsAndLabelledLinesStayApart() throws {
        #expect(try split("2024-03,Utilities,Water,42.15\n2024-04,Leisure,Garden plot fee,40.00") ==
                ["2024-03,Utilities,Water,42.15", "2024-04,Leisure,Garden plot fee,40.00"])
        #expect(try split("- buy seeds\n- fix the fence") == ["- buy seeds", "- fix the fence"])
        #expect(try split("**Date:** Tuesday 12 March 2024\n**Place:** Back room of the Anchor") ==
                ["**Date:** Tuesday 12 March 2024", "**Place:** Back room of the Anchor"])
    }

    @Test func spansAndLinesPointIntoTheSource() throws {
        let text = "First line of a wrapped\nsentence here. Second one."
        let e = Evidence(n: 1, span: SourceSpan(chunkID: "m-1", docID: "m", path: "notes.md", title: "Notes", section: [],
            start: 100, end: 100 + text.utf8.count, lineStart: 7, lineEnd: 8),
            text: text, role: .anchor, score: 1, rank: 1)
        let s = try EvidenceSentences().sentences(of: e, piece: 0)
        #expect(s.map(\.text) == ["First line of a wrapped\nsentence here.", "Second one."])
        #expect(s.map(\.start) == [100, 100 + "First line of a wrapped\nsentence here. ".utf8.count])
        #expect(s.map(\.line) == [7, 8])
    }
}

@Suite struct EvidenceDateTests {
    @Test func whenAMemorySaysSomethingHappened() {
        #expect(EvidenceDate.phrase(time: "2023-05-07", said: "2023-05-08T13:56:00+00:00") == "On 7 May 2023")
        #expect(EvidenceDate.phrase(time: "2022-01-01/2022-12-31", said: nil) == "In 2022")
        #expect(EvidenceDate.phrase(time: "2024-02-01/2024-02-29", said: nil) == "In February 2024")
        #expect(EvidenceDate.phrase(time: "2023-05-01/2023-05-07", said: nil) == "Between 1 and 7 May 2023")
        #expect(EvidenceDate.phrase(time: "2023-04-28/2023-05-04", said: nil) == "Between 28 April and 4 May 2023")
        #expect(EvidenceDate.phrase(time: "2022-12-28/2023-01-03", said: nil) == "Between 28 December 2022 and 3 January 2023")
        #expect(EvidenceDate.phrase(time: nil, said: "2023-05-08T13:56:00+00:00") == "Said on 8 May 2023")
        #expect(EvidenceDate.phrase(time: "2023-02-30", said: nil) == nil)
        #expect(EvidenceDate.phrase(time: nil, said: nil) == nil)
    }
}

/// From a memory: the item a later one replaced is not the answer while its successor is on the
/// desk, unless the question asks for the earlier state; a question said earlier is never an answer.
@Suite struct MemoryAnswerTests {
    func piece(_ n: Int, _ id: String, _ text: String, supersededBy: String? = nil) -> Evidence {
        var e = Evidence(n: n, span: SourceSpan(chunkID: id, docID: "m-\(id)", path: "memory/t/m-\(id)", title: "gym", section: [],
                                                start: 0, end: text.utf8.count, lineStart: 1, lineEnd: 1),
                         text: text, role: .anchor, score: 1, rank: n)
        e.said = "2026-03-0\(n)T08:00:00+01:00"
        e.supersededBy = supersededBy
        return e
    }

    @Test func theCurrentStateAnswersUnlessTheEarlierIsAskedFor() throws {
        let pieces = [piece(1, "i-3", "What is the gym door code?"),
                      piece(2, "i-1", "The gym door code is 4417.", supersededBy: "i-2"),
                      piece(3, "i-2", "They changed the gym code, it's 5190 now.")]
        let context = PackedContext(budget: 4096, used: 900, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: pieces)
        let composer = try AnswerFixture.composer()
        let now = composer.compose(question: "What is the gym door code?", context: context)
        #expect(now.citations.map(\.chunkID) == ["i-2"])
        let before = composer.compose(question: "What was the original gym door code?", context: context)
        #expect(before.citations.map(\.chunkID) == ["i-1"])
        // Without its successor on the desk, the earlier item is all there is, and is quoted.
        let alone = PackedContext(budget: 4096, used: 900, reserved: 512, mode: .standard, instructions: "i", prompt: "p", evidence: Array(pieces.prefix(2)))
        #expect(composer.compose(question: "What is the gym door code?", context: alone).citations.map(\.chunkID) == ["i-1"])
    }
}

@Suite("Evidence sentences of a recording")
struct SpeechEvidenceTests {
    func sentences(_ text: String, path: String = "memos/visit.flac") throws -> [EvidenceSentence] {
        let e = Evidence(n: 1, span: SourceSpan(chunkID: "v-1", docID: "v", path: path, title: "visit", section: [],
            start: 0, end: text.utf8.count, lineStart: 1, lineEnd: 3),
            text: text, role: .anchor, score: 1, rank: 1)
        return try EvidenceSentences().sentences(of: e, piece: 0)
    }

    @Test func theTimeOpeningALineIsWhenNotWhatWasSaid() throws {
        let text = "[0:00–0:05] Notes from the boiler visit. He charged 90 pounds.\n[0:05–0:09] The next service is in October."
        let s = try sentences(text)
        #expect(s.map(\.text) == ["Notes from the boiler visit.", "He charged 90 pounds.", "The next service is in October."])
        // Each sentence is said within its line's time, and its span starts after the time.
        #expect(s.map(\.time) == ["0:00–0:05", "0:00–0:05", "0:05–0:09"])
        #expect(s[0].start == "[0:00–0:05] ".utf8.count && s[2].line == 2)
        #expect(s[2].start == text.utf8.count - "The next service is in October.".utf8.count)
    }

    @Test func aLineCutAtHalfAMinuteJoinsNoTimeIntoASentence() throws {
        let s = try sentences("[0:00–0:30] The engineer said that\n[0:30–0:33] the pressure is fine.")
        #expect(s.map(\.text) == ["The engineer said that", "the pressure is fine."])
        #expect(s.map(\.time) == ["0:00–0:30", "0:30–0:33"])
    }

    @Test func aNotesTimesAreWhatItSays() throws {
        let s = try sentences("[10:30–11:15] The workshop was run by Tom Hale.", path: "conf.md")
        #expect(s.map(\.text) == ["[10:30–11:15] The workshop was run by Tom Hale."] && s[0].time == nil)
        // A voicemail attached to a mail is a recording.
        #expect(try sentences("[0:00–0:04] Call me back.", path: "inbox.eml#voicemail.wav").map(\.time) == ["0:00–0:04"])
    }

    @Test func bracketsThatAreNoTimeStayText() throws {
        let s = try sentences("[12:5] is not a time. [0:03–0:04]x has no space.\n[1:00:02–1:00:09] Past the hour.")
        #expect(s.map(\.text).first == "[12:5] is not a time. [0:03–0:04]x has no space.")
        #expect(s.last?.text == "Past the hour." && s.last?.time == "1:00:02–1:00:09")
        #expect(s.first?.time == nil)
    }
}
