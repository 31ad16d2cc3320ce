import Testing
import PBCore
@testable import PBAnswer

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
