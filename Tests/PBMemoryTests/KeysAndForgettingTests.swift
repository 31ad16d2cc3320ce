import Foundation
import PBAgent
import PBCore
@testable import PBMemory
import PBNeural
import PBText
import Testing

/// What a fact is about beyond its words, which state of it is current by the time it was said,
/// and requests to forget.
@Suite struct SubjectKeyTests {
    @Test func aNumberTellsOneThingFromAnother() {
        let three = SubjectKey("Flat 3 rent is 900 euros.")
        let four = SubjectKey("Flat 4 rent is 1100 euros.")
        #expect(three.shown == ["flat": ["#3"]])
        #expect(three.differs(from: four))
        #expect(!three.differs(from: SubjectKey("Flat 3 rent is now 950 euros.")))
        // A noun without its number may be either flat.
        #expect(!three.differs(from: SubjectKey("The flat rent goes up in May.")))
        #expect(SubjectKey("The tenant in locker 27 left.").shown == ["locker": ["#27"]])
    }

    @Test func aValueIsNotANumberThatTellsThingsApart() {
        for text in ["The gym code is 4417.", "Pay 40 euros for the cleaner.", "The cottage sleeps 6 people.", "Size 9 shoes for Noah.",
                     "Rent is 900 a month.", "It costs 12 pounds.", "Service is now Tuesday 31 March.", "Out Thu 14 May, back Mon 18 May.",
                     "Lena loved today's lesson."] {
            #expect(SubjectKey(text).marks.isEmpty, "\(text)")
        }
    }

    @Test func anOwnerTellsOneThingFromAnother() {
        let mine = SubjectKey("My car MOT is due on 3 March.")
        let sams = SubjectKey("Sam's car MOT is due on 9 May.")
        #expect(mine.shown["car"] == ["@me"] && sams.shown["car"] == ["@sam"])
        #expect(mine.differs(from: sams))
        #expect(!mine.differs(from: SubjectKey("The car MOT moved to 10 March.")))
        #expect(SubjectKey("Mia's swimming is on Tuesdays.").differs(from: SubjectKey("Leo's swimming is on Fridays.")))
        // A contraction names no owner.
        #expect(SubjectKey("It's 5190 now.").marks.isEmpty)
        #expect(SubjectKey("Sam's coming on Friday.").marks.isEmpty)
    }
}

@Suite struct ForgetRequestTests {
    @Test func requestsToForget() {
        #expect(ForgetRequest.read("forget my locker code") == ForgetRequest(topic: "my locker code", everything: false))
        #expect(ForgetRequest.read("Please forget what I said about the gate.")?.topic == "the gate")
        #expect(ForgetRequest.read("Can you delete the note about the spare key?")?.topic == "the spare key")
        let lisbon = ForgetRequest.read("Scrap everything about the Lisbon idea, flights have gone silly.")
        #expect(lisbon?.topic == "the lisbon idea" && lisbon?.everything == true)
        #expect(ForgetRequest.read("Delete the notes about Sam's present")?.everything == true)
        #expect(ForgetRequest.read("never mind, forget it") == ForgetRequest(topic: "", everything: false))
        // "it" is what the rest of the message names.
        let it = ForgetRequest.read("Priya asked me not to keep Anjali's number, please forget it")
        #expect(it?.topic == "Priya asked me not to keep Anjali's number" && it?.fromContext == true)
    }

    @Test func notRequests() {
        for text in ["Don't forget to call Mum on Sunday.", "I forgot my keys at the gym.", "Remove the old tiles before Friday.",
                     "Forget to buy milk", "The forget-me-nots are out by the gate.", "Delete the draft email to Sam"] {
            #expect(ForgetRequest.read(text) == nil, "\(text)")
        }
    }
}

@Suite struct MemoryKeysTests {
    func messages(_ list: [(String, String, String)]) throws -> [Rememberer.Incoming] {
        try list.map { id, time, text in try Rememberer.resolve(MessageRecord(id: id, time: time, text: text), now: Date()) }
    }

    func remember(_ list: [(String, String, String)], in env: PBEnvironment, _ encoder: MiniLMEncoder) throws -> [MemoryRecord] {
        let store = try MemoryStore(name: "k", environment: env)
        let r = try Rememberer(store: store) { encoder.embed($0) }
        var out: [MemoryRecord] = []
        for case .remembered(_, let records) in try r.remember(try messages(list)) { out += records }
        return out
    }

    /// Flat 4's rent does not replace flat 3's; flat 3's new rent does.
    @Test func differentThingsNeverSupersedeOneAnother() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let records = try remember([("a", "2026-01-01T10:00:00Z", "Flat 3 rent is 900 euros."),
                                    ("b", "2026-01-02T10:00:00Z", "Flat 4 rent is 1100 euros."),
                                    ("c", "2026-01-03T10:00:00Z", "Flat 3 rent is now 950 euros.")], in: MemoryFixture.home(), encoder)
        #expect(records.map { $0.supersedes.map(\.message) } == [[], [], ["a"]])
        #expect(records[1].key == ["flat": ["#4"]])
        #expect(records[1].considered?.message == "a" && records[1].considered?.reason.hasPrefix("another thing of its kind") == true)
    }

    /// A change said in few words, about a thing both name by a name: linked though meaning alone
    /// is too far apart; a code said beside a name is not the named one's rent.
    @Test func aChangeOfANamedThingInFewWords() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let records = try remember([
            ("gas", "2026-01-01T10:00:00Z", "Gas safety checks for both flats: Sunil, Tue 9 Feb from 9am, flat 3 first then 4."),
            ("sunil", "2026-01-05T10:00:00Z", "Sunil can't do Tuesday, moved to Fri 12 Feb 2pm, same order."),
            ("rent", "2026-01-06T10:00:00Z", "Flat 3, Marlow House: Priya Desai, £925 pcm, standing order on the 1st."),
            ("gate", "2026-01-07T10:00:00Z", "Gate is 7730 now, changed again after the break-in. Priya let me know."),
            ("owe", "2026-01-08T10:00:00Z", "I owe Inês €75 for the wedding present."),
            ("ines", "2026-01-09T10:00:00Z", "Inês counted again: it's €70 each, not €75."),
        ], in: MemoryFixture.home(), encoder)
        let by = Dictionary(grouping: records, by: \.message)
        #expect(by["sunil"]?.flatMap { $0.supersedes.map(\.message) } == ["gas"])
        #expect(by["gate"]?.flatMap { $0.supersedes.map(\.message) } == [])
        let corrected = by["ines"]?.flatMap(\.supersedes)
        #expect(corrected?.map(\.message) == ["owe"] && corrected?.first?.reason.hasPrefix("corrected: 70, not 75") == true)
        #expect(ItemExtractor.negatedValues("the postcode is 3812 KB, not 3811.") == ["3811"])
        // Another sentence's cue and name do not carry over to an item that says enough alone.
        let other = try remember([
            ("g1", "2026-01-01T10:00:00Z", "Gas safety checks for both flats: Sunil, Tue 9 Feb from 9am."),
            ("g2", "2026-01-05T10:00:00Z", "Sunil moved the boiler service. Ellie has the dentist on Mon 15 Feb 3pm."),
        ], in: MemoryFixture.home(), encoder)
        #expect(other.allSatisfy { $0.supersedes.isEmpty })
        #expect(ItemExtractor.changePhrase(in: ["Parents can't do it after all."]) == "after all")
    }

    /// A message said in 2020 that arrives after one said in 2026 is the older state.
    @Test func timeSaidBeatsOrderOfArrival() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let records = try remember([("new", "2026-06-01T10:00:00Z", "The gate code changed to 5190."),
                                    ("old", "2020-01-01T10:00:00Z", "The gate code changed to 1234.")], in: MemoryFixture.home(), encoder)
        #expect(records[1].supersedes.isEmpty)
        #expect(records[1].supersededBy?.message == "new")
        #expect(records[1].supersededBy?.reason.hasPrefix("an older state") == true)
    }
}

@Suite struct ForgettingTests {
    func store(_ env: PBEnvironment, _ encoder: MiniLMEncoder, _ list: [(String, String, String)]) throws -> MemoryStore {
        let store = try MemoryStore(name: "f", environment: env)
        let r = try Rememberer(store: store) { encoder.embed($0) }
        _ = try r.remember(try list.map { id, time, text in try Rememberer.resolve(MessageRecord(id: id, time: time, text: text), now: Date()) })
        return store
    }

    /// Every state of the code goes, the other sentence of its message stays, and the file holds
    /// none of it afterwards.
    @Test func forgettingTakesEveryStateAndLeavesTheRest() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let env = MemoryFixture.home()
        let s = try store(env, encoder, [("a", "2026-01-01T10:00:00Z", "My locker code at the pool is 2231. The pool opens at 7."),
                                         ("b", "2026-01-05T10:00:00Z", "Changed the locker code to 8812."),
                                         ("c", "2026-01-06T10:00:00Z", "The bike lock code is 4471.")])
        let done = try MemoryForgetting.run(ForgetRequest.read("forget my locker code")!, text: "forget my locker code", in: s)
        #expect(done.status == .forgotten)
        #expect(done.items.map(\.message) == ["a", "b"])
        #expect(!done.message.contains("2231") && !done.message.contains("8812"))
        #expect(try s.db.scalarText("SELECT text FROM messages WHERE id = 'a'") == "The pool opens at 7.")
        #expect(try s.db.scalarInt("SELECT count(*) FROM messages WHERE id = 'b'") == 0)
        let bytes = try [s.path, s.path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
            .map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for d in bytes { #expect(d.range(of: Data("2231".utf8)) == nil && d.range(of: Data("8812".utf8)) == nil) }
        // The kept sentence's bytes still point at its words.
        let start = try #require(try s.db.scalarInt("SELECT start FROM items WHERE text = 'The pool opens at 7.'"))
        #expect(start == 0)
        // The hash was of the forgotten words too: it is made anew, and sending the message
        // again is not an error.
        #expect(try s.db.scalarText("SELECT hash FROM messages WHERE id = 'a'")?.hasPrefix("cut-") == true)
        let again = try Rememberer(store: s) { encoder.embed($0) }
        let resent = try Rememberer.resolve(MessageRecord(id: "a", time: "2026-01-01T10:00:00Z",
                                                          text: "My locker code at the pool is 2231. The pool opens at 7."), now: Date())
        guard case .alreadyRemembered = try again.remember([resent]).first else { Issue.record("stored again"); return }
    }

    /// A message named by its content gets a name from what is left.
    @Test func aCutMessageNamedByItsWordsIsRenamed() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let store = try MemoryStore(name: "n", environment: MemoryFixture.home())
        let r = try Rememberer(store: store) { encoder.embed($0) }
        let m = try Rememberer.resolve(MessageRecord(time: "2026-01-01T10:00:00Z", text: "The gym code is 4417. The pool opens at 7."), now: Date())
        _ = try r.remember([m])
        _ = try MemoryForgetting.run(ForgetRequest.read("forget the gym code")!, text: "forget the gym code", in: store)
        let id = try #require(try store.db.scalarText("SELECT id FROM messages"))
        #expect(id != m.id && id.hasPrefix("m-"))
    }

    /// Two different codes fit "that code": nothing is forgotten until the person says which.
    @Test func twoThingsThatFitAreAskedBack() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let s = try store(MemoryFixture.home(), encoder, [("a", "2026-01-01T10:00:00Z", "My gym locker code is 2231."),
                                                          ("b", "2026-01-02T10:00:00Z", "The bike lock code is 4471.")])
        let asked = try MemoryForgetting.run(ForgetRequest.read("forget that code")!, text: "forget that code", in: s)
        #expect(asked.status == .ambiguous && asked.items.count == 2)
        #expect(try s.itemCount() == 2)
        let none = try MemoryForgetting.run(ForgetRequest.read("forget the wifi password")!, text: "forget the wifi password", in: s)
        #expect(none.status == .nothing)
    }
}

@Suite struct StateFactTests {
    @Test func whomSomeoneWorksForAndWhereTheyLive() {
        let before = StateFact.read("I work at Oxford Instruments.")
        let after = StateFact.read("I accepted a new job at Harwell.")
        #expect(before == StateFact(attribute: .employer, owner: "me", value: "Oxford Instruments"))
        #expect(after == StateFact(attribute: .employer, owner: "me", value: "Harwell"))
        #expect(before!.isChanged(by: after!))
        #expect(StateFact.read("Sam works at Tesco on weekends.")?.owner == "sam")
        #expect(StateFact.read("We moved to Leeds in May.") == StateFact(attribute: .home, owner: "me", value: "Leeds"))
        // A day is not a place; a plain time is not a change of job.
        #expect(StateFact.read("The plumber moved to Wednesday.") == nil)
        #expect(StateFact.read("Work starts at 9.") == nil)
        #expect(!before!.isChanged(by: StateFact.read("Sam works at Tesco.")!))
    }
}

@Suite struct RecallByKeyTests {
    func recaller(_ list: [(String, String, String)], _ encoder: MiniLMEncoder) throws -> Recaller {
        let env = MemoryFixture.home()
        let store = try MemoryStore(name: "r", environment: env)
        let r = try Rememberer(store: store) { encoder.embed($0) }
        _ = try r.remember(try list.map { id, time, text in try Rememberer.resolve(MessageRecord(id: id, time: time, text: text), now: Date()) })
        return try Recaller(store: try MemoryStore(readingOnly: "r", environment: env))
    }

    /// A question about flat 3 never gets flat 4's rent; of two amounts for one thing that no
    /// link joined, the one said last comes first.
    @Test func anotherThingsValueIsLeftOutAndTheLatestComesFirst() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let recaller = try recaller([("a", "2026-01-01T10:00:00Z", "Flat 3, Marlow House: Priya Desai, 925 pounds pcm."),
                                     ("b", "2026-01-02T10:00:00Z", "Flat 4 rent is 1100 pounds a month."),
                                     ("c", "2026-02-01T10:00:00Z", "Priya agreed the rent review: 960 pounds from 1 March.")], encoder)
        let now = Date()
        let flat3 = try recaller.recall(MemoryFixture.query("What is the rent for flat 3?", encoder), now: now).hits ?? []
        #expect(!flat3.contains { $0.docID == "b" })
        let priya = try recaller.recall(MemoryFixture.query("How much is Priya paying?", encoder), now: now).hits ?? []
        #expect(priya.first?.docID == "c")
    }
}

/// What a review found: sentences that are not requests, and requests that keep the rest.
@Suite struct ForgetRequestReviewTests {
    @Test func somethingSaidIsNotARequest() {
        for text in ["I can relax, forget my troubles, and get lost in another world.", "Forget about it, the gate code is 5190 now.",
                     "Drop everything and call Mum", "Clear everything from the loft by Sunday", "Delete all the photos from the old phone before selling it",
                     "Remove all the wallpaper in the hall next week", "Delete the notes app from Sam's iPad", "Clear about two shelves in the garage",
                     "Scrap all of it, the Lisbon trip is off"] {
            #expect(ForgetRequest.read(text) == nil, "\(text)")
        }
    }

    @Test func theRestOfARequestIsKept() {
        let r = ForgetRequest.read("Forget Rome, we're going to Paris instead.")
        #expect(r?.topic == "rome" && r?.rest == "we're going to Paris instead")
        #expect(ForgetRequest.read("Forget Dr. Patel's number")?.topic == "dr patel's number")
        #expect(ForgetRequest.read("Actually forget that code")?.topic == "that code")
        #expect(ForgetRequest.read("Forget what I said")?.topic == "")
    }

    /// "Forget my address, phone number and email": three things, not "my address" forgotten and
    /// "phone number and email" kept as something said.
    @Test func aListIsForgottenWhole() throws {
        let r = try #require(ForgetRequest.read("Forget my address, phone number and email, thanks."))
        #expect(r.parts == ["my address", "phone number", "email"] && r.rest.isEmpty)
        #expect(ForgetRequest.read("forget my address and my phone number")?.parts == ["my address", "my phone number"])
        #expect(ForgetRequest.read("forget what I said about Sam and Priya's party")?.parts == [])
        #expect(ForgetRequest.read("Forget Rome, we're going to Paris and Lyon instead.")?.rest == "we're going to Paris and Lyon instead")
        let said = ForgetRequest.read("Forget Rome, Sam and Priya disagree.")
        #expect(said?.parts == [] && said?.rest == "Sam and Priya disagree")
        let encoder = try #require(MemoryFixture.encoder)
        let s = try ForgettingTests().store(MemoryFixture.home(), encoder, [
            ("a", "2026-01-01T10:00:00Z", "My address is 14 Elm Road, Reading."), ("b", "2026-01-02T10:00:00Z", "My phone number is 07700 900123."),
            ("c", "2026-01-02T11:00:00Z", "My email is jo@example.org."), ("d", "2026-01-02T12:00:00Z", "The bins go out on Tuesday.")])
        let done = MemoryForgetting.run
        let out = try done(r, "Forget my address, phone number and email, thanks.", s)
        #expect(out.status == .forgotten && Set(out.items.map(\.message)) == ["a", "b", "c"])
        #expect(try s.db.scalarText("SELECT group_concat(id) FROM messages") == "d")
    }

    /// An item id cited once never names another item, after a forget or an undo of the last one.
    @Test func anItemIdIsNeverGivenTwice() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let s = try ForgettingTests().store(MemoryFixture.home(), encoder, [("a", "2026-01-01T10:00:00Z", "The bins go out on Tuesday."),
                                                                            ("b", "2026-01-02T10:00:00Z", "My gym locker code is 2231.")])
        let last = try #require(try s.db.scalarInt("SELECT max(id) FROM items"))
        _ = try MemoryForgetting.run(ForgetRequest.read("forget my locker code")!, text: "forget my locker code", in: s)
        let r = try Rememberer(store: s) { encoder.embed($0) }
        _ = try r.remember([try Rememberer.resolve(MessageRecord(id: "c", time: "2026-01-03T10:00:00Z", text: "The recycling goes out on Friday."), now: Date())])
        #expect(try s.db.scalarInt("SELECT max(id) FROM items")! > last)
        let undone = try #require(try s.forget(message: "c", dryRun: false))
        _ = try r.remember([try Rememberer.resolve(MessageRecord(id: "d", time: "2026-01-04T10:00:00Z", text: "Glass goes out on Monday."), now: Date())])
        #expect(try s.db.scalarInt("SELECT max(id) FROM items")! > Int64(undone.items[0].dropFirst(2))!)
    }

    /// A message forgotten on request and sent again under its id stays forgotten; one undone
    /// (taken back, not forgotten) may be sent again.
    @Test func aForgottenMessageSentAgainStaysForgotten() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let s = try ForgettingTests().store(MemoryFixture.home(), encoder, [("a", "2026-01-01T10:00:00Z", "My gym locker code is 2231."),
                                                                            ("b", "2026-01-02T10:00:00Z", "The bins go out on Tuesday.")])
        _ = try MemoryForgetting.run(ForgetRequest.read("forget my locker code")!, text: "forget my locker code", in: s)
        #expect(try s.wasForgotten(messageID: "a") && !s.wasForgotten(messageID: "b"))
        // The table keeps no id in the clear.
        #expect(try s.db.scalarInt("SELECT count(*) FROM forgotten_messages WHERE digest = 'a'") == 0)
        _ = try s.forget(message: "b", dryRun: false)
        #expect(try !s.wasForgotten(messageID: "b"))
    }

    /// A message named by its content and cut once is still named by its content: forgetting the
    /// rest of it keeps no digest that a short code could be found again by.
    @Test func aCutMessageNamedByItsContentLeavesNoDigest() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let store = try MemoryStore(name: "d", environment: MemoryFixture.home())
        let r = try Rememberer(store: store) { encoder.embed($0) }
        _ = try r.remember([try Rememberer.resolve(MessageRecord(time: "2026-01-01T10:00:00Z",
                                                                 text: "Recycling goes out on Tuesday. My bank PIN is 4821."), now: Date())])
        _ = try MemoryForgetting.run(ForgetRequest.read("Forget the recycling.")!, text: "Forget the recycling.", in: store)
        _ = try MemoryForgetting.run(ForgetRequest.read("Forget my bank PIN.")!, text: "Forget my bank PIN.", in: store)
        #expect(try store.messageCount() == 0)
        #expect(try store.db.scalarInt("SELECT count(*) FROM forgotten_messages") == 0)
    }

    /// A question about a thing the memory never heard of is withheld, not answered from
    /// something else: "Priya's sister" when no sister was ever mentioned. A noun naming what
    /// kind ("burglar alarm"), a verb, a month or an abstraction is not held to it.
    @Test func aThingNeverSaidIsUnheard() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let s = try ForgettingTests().store(MemoryFixture.home(), encoder, [
            ("a", "2026-01-01T10:00:00Z", "Flat 3, Marlow House: Priya Desai, £925 pcm."), ("b", "2026-01-02T10:00:00Z", "Alarm code at home is 4417.")])
        var words = Recaller.Settings()
        words.lists = [.words, .messages]
        let r = try Recaller(store: s, settings: words)
        func unheard(_ q: String) throws -> [String]? {
            try r.recall(QueryRecord(text: q), now: Date(), embed: nil).unheard
        }
        try #require(WordNet.shared != nil)
        #expect(try unheard("What's Priya's sister's number?") == ["sister"])
        #expect(try unheard("What's the code for the burglar alarm at home?") == nil)
        #expect(try unheard("What did Priya pay in November?") == nil)
        #expect(try unheard("When is Zoe coming round?") == nil)
        #expect(try unheard("When did Priya visit Canada?") == ["canada"])
    }

    @Test func aStateIsTheSpeakersOwnOnly() {
        #expect(StateFact.read("My brother just started at Google.") == nil)
        #expect(StateFact.read("I'm working with Priya on the grant.") == nil)
        #expect(StateFact.read("We moved the party to Sam's.") == nil)
        #expect(StateFact.read("Sam's sister works at Tesco.") == nil)
        #expect(SubjectKey("Dentist 3 March").marks.isEmpty && SubjectKey("Dentist 10th at 2pm").marks.isEmpty)
        #expect(SubjectKey("My daughter's school is Hillside.").marks["school"] == nil)
    }
}
