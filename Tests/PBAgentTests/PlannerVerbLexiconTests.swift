import Testing
@testable import PBAgent

@Suite("VerbLexicon")
struct PlannerVerbLexiconTests {
    @Test("past tenses lemmatise", arguments: [
        ("paid", "pay"), ("bought", "buy"), ("tidied", "tidy"), ("stopped", "stop"), ("cleaned", "clean"),
        ("baked", "bake"), ("replaced", "replace"), ("changed", "change"), ("booked", "book"), ("called", "call"),
        ("organised", "organise"), ("updated", "update"), ("completed", "complete"), ("deleted", "delete"), ("prepared", "prepare"),
    ])
    func lemma(word: String, lemma: String) {
        #expect(VerbLexicon.pastLemma(word) == lemma)
    }

    @Test("words that are not past tenses")
    func notPast() {
        #expect(VerbLexicon.pastLemma("need") == nil)
        #expect(VerbLexicon.pastLemma("bed") == nil)
        #expect(VerbLexicon.pastLemma("set") == nil)
    }

    @Test("synonyms map to one action")
    func synonyms() {
        #expect(VerbLexicon.action(ofLemma: "postpone") == .reschedule)
        #expect(VerbLexicon.action(ofLemma: "drop") == .delete)
        #expect(VerbLexicon.action(ofLemma: "finish") == .complete)
        #expect(VerbLexicon.action(ofLemma: "do") == nil)
    }
}
