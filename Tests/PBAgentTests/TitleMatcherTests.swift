import Testing
@testable import PBAgent

@Suite struct TitleMatcherTests {
    typealias C = TitleMatcher.Candidate
    let tasks = [C(ref: "task:1", title: "Call Mom", open: true),
                 C(ref: "task:2", title: "Book the dentist appointment", open: true),
                 C(ref: "task:3", title: "Pay the water bill", open: false),
                 C(ref: "task:4", title: "Pay the water bill", open: true),
                 C(ref: "task:5", title: "Buy birthday cake", open: true),
                 C(ref: "task:6", title: "Buy birthday card", open: true)]

    @Test func verbatimIgnoresCaseAndPrefersOpen() {
        #expect(TitleMatcher().match("call mom", in: tasks) == .found(tasks[0]))
        #expect(TitleMatcher().match("PAY THE WATER BILL", in: tasks) == .found(tasks[3]))
        #expect(TitleMatcher(preferOpen: false).match("pay the water bill", in: tasks) == .found(tasks[2]))
    }

    @Test func stemmedContentWords() {
        #expect(TitleMatcher.contentWords("Getting the dentist booked") == ["get", "dentist", "book"])
        #expect(TitleMatcher.stem("booking") == "book")
        #expect(TitleMatcher.stem("calls") == "call")
        #expect(TitleMatcher.stem("groceries") == "grocery")
        #expect(TitleMatcher().match("dentist booking", in: tasks) == .found(tasks[1]))
    }

    @Test func allButOneWordForThreeOrMore() {
        // "book dentist tomorrow": three content words, two of them in the title.
        // It is a loose fit: "tomorrow" is not in the title, so a delete or complete asks back.
        #expect(TitleMatcher().match("book dentist tomorrow", in: tasks) == .loose(tasks[1], missing: ["tomorrow"]))
        // Two words must both match.
        #expect(TitleMatcher().match("dentist tomorrow", in: tasks) == .none)
    }

    @Test func equalFitsAreAmbiguous() {
        guard case .ambiguous(let list) = TitleMatcher().match("birthday", in: tasks) else {
            Issue.record("expected an ambiguous match"); return
        }
        #expect(list.map(\.ref) == ["task:5", "task:6"])
        #expect(TitleMatcher().match("birthday cake", in: tasks) == .found(tasks[4]))
    }
}

/// A destructive step on a loose fit asks back and changes nothing; a change that only edits goes ahead.
@Suite struct LooseMatchTests {
    @Test func deleteOnALooseFitAsksBack() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"Pay the bank account fee"}"#)
        let r = try fx.step("delete_task", #"{"title":"bank account password"}"#)
        #expect(r.status == .failed)
        #expect(r.error?.hasPrefix("did you mean task:1") == true)
        #expect(try fx.task(1)?.status == "open")
        let c = try fx.step("complete_task", #"{"title":"bank account password"}"#)
        #expect(c.status == .failed)
        #expect(try fx.task(1)?.status == "open")
        // Every word named: it goes ahead.
        #expect(try fx.step("complete_task", #"{"title":"bank account fee"}"#).status == .ok)
    }

    @Test func priorityOnALooseFitGoesAhead() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"Book the dentist appointment"}"#)
        #expect(try fx.step("set_priority", #"{"title":"book dentist tomorrow","priority":"high"}"#).status == .ok)
    }
}
