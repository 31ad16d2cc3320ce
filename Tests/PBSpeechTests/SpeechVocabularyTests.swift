import Testing
@testable import PBSpeech

@Suite("speech vocabulary prompt")
struct SpeechVocabularyTests {
    @Test("the agent's phrasing, then the store's projects and tasks, within the budget")
    func prompt() {
        let v = SpeechVocabulary(projects: ["Garden", "Wedding"], tasks: ["renew the passport", "fix the gate", String(repeating: "x", count: 500)])
        let p = v.prompt(characters: 640)
        #expect(p.hasPrefix(SpeechVocabulary.phrasing))
        #expect(p.contains(" Projects: Garden, Wedding."))
        #expect(p.contains(" Tasks: renew the passport, fix the gate."))
        #expect(p.count <= 640)
        #expect(SpeechVocabulary().prompt() == SpeechVocabulary.phrasing)
    }
}
