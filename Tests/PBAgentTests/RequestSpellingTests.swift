import Foundation
import PBText
import Testing
@testable import PBAgent

/// Misspelt command and date words put right before the grammar reads them, and nothing else.
@Suite("RequestSpelling", .enabled(if: WordNet.shared != nil && WordList.shared != nil, "needs wordnet-base and wbritish (make deps)"))
struct RequestSpellingTests {
    let spelling = RequestSpelling(titles: ["feed the sourdough starter", "call Zorn"])

    @Test("a typo one edit from one grammar word is read as it", arguments: [
        ("remidn me to call the electrician tomorow", "remind me to call the electrician tomorrow"),
        ("remnd me to buy batteries on wednsday", "remind me to buy batteries on wednesday"),
        ("Tommorrow morning pick up the parcel", "Tomorrow morning pick up the parcel"),
        ("undo taht", "undo that"),
    ])
    func corrected(_ typed: String, _ read: String) {
        #expect(spelling.correct(typed).text == read)
    }

    @Test("English words, names, title words, short words and far words stay as typed", arguments: [
        "schedule a meeting with Sam", "where does fred work", "call teh plumber", "buy a bannana",
        "email Jonh about the lease", "feed the sourdough starter", "call zorn", "remind me to pay amma",
    ])
    func kept(_ text: String) {
        #expect(spelling.correct(text).text == text)
        #expect(spelling.correct(text).corrections.isEmpty)
    }

    @Test("the plan says what it read differently, and keeps the request as typed")
    func said() {
        let p = fixedPlanner().plan("remidn me to call the electrician tomorow")
        #expect(p.text == "remidn me to call the electrician tomorow")
        #expect(p.tools == ["create_task"])
        #expect(p.steps.first?.args["title"] == .string("call the electrician"))
        #expect(p.message == "read \"remidn\" as \"remind\", read \"tomorow\" as \"tomorrow\"")
    }

    @Test("filler before a request and undo words are read through", arguments: [
        ("so um yeah i think i need to renew my library card", "create_task"),
        ("hmm actually never mind", "undo"),
        ("never mind, undo", "undo"),
        ("uh what's sam's email again", "find_contact"),
    ])
    func filler(_ text: String, _ tool: String) {
        #expect(fixedPlanner().plan(text).tools == [tool])
    }
}
