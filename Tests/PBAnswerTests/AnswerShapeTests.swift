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
        let key = CompletenessGate.keyTerms("What is the policy number of my car insurance?")
        #expect(key.contains("car") && key.contains("insurance"))
        #expect(!key.contains("number") && key.contains("policy"))
        #expect(!CompletenessGate.keyTerms("Who did the Normans besiege?").contains("besiege"))
    }
}
