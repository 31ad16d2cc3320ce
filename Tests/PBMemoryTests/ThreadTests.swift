import Foundation
import PBAgent
import PBCore
import PBMemory
import PBNeural
import Testing
import PBDates

/// The pieces of pb-thread's loop: receipts, the assistant's replies, a question's own message
/// left out of its recall, the background, and a turn taken back whole.
@Suite(.enabled(if: MemoryFixture.modelPresent, "model absent (run make model)"))
struct ThreadTests {
    let now = DateValueFormat(timeZone: TimeZone(secondsFromGMT: 0)!).parseInstant("2026-03-10T10:00:00+01:00")!

    func memory(_ env: PBEnvironment, _ encoder: MiniLMEncoder, extra: [MessageRecord] = []) throws -> (MemoryStore, [Rememberer.Outcome]) {
        let store = try MemoryStore(name: "t", environment: env)
        let r = try Rememberer(store: store) { encoder.embed($0) }
        return (store, try r.remember(try (MemoryFixture.messages + extra).map { try Rememberer.resolve($0, now: Date()) }))
    }

    /// A receipt names the id, workstream and items of its message; the same message again
    /// gets the receipt it was stored under. A supersession carries the earlier words.
    @Test func receiptsSayWhereAMessageWent() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let env = MemoryFixture.home()
        let (_, outcomes) = try memory(env, encoder)
        var receipts: [RememberedRecord] = []
        var records: [MemoryRecord] = []
        for case .remembered(let receipt, let r) in outcomes { receipts.append(receipt); records += r }
        #expect(receipts.map(\.message) == ["d1", "d2", "d3", "d4", "d5", "d6"])
        for receipt in receipts {
            #expect(receipt.items == records.filter { $0.message == receipt.message }.map(\.id))
            #expect(receipt.workstream?.name == records.first { $0.message == receipt.message }?.workstream.name)
            #expect(!receipt.again && receipt.role == .user)
        }
        let gym = try #require(records.first { $0.message == "d5" }?.supersedes.first)
        #expect(gym.text == "The gym door code is 4417." && gym.said == "2026-03-02T12:00:00+01:00")
        let (_, again) = try memory(env, encoder)
        guard case .alreadyRemembered(let receipt)? = again.last else { Issue.record("not remembered before"); return }
        #expect(receipt.again && receipt.message == "d6" && receipt.items == receipts[5].items)
    }

    /// A reply is kept in its message's workstream with no items, so it is never recalled; a
    /// question's own message is never recalled for it.
    @Test func repliesAreKeptButNeverRecalled() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let env = MemoryFixture.home()
        let reply = MessageRecord(id: "r6", time: "2026-03-06T09:00:00+01:00", text: "The gym code is 5190 and the ferry to Lisbon is confirmed.",
                                  role: .assistant, replyTo: "d6")
        let (store, outcomes) = try memory(env, encoder, extra: [reply])
        guard case .remembered(let receipt, let records)? = outcomes.last else { Issue.record("reply not remembered"); return }
        guard case .remembered(let question, _)? = outcomes.dropLast().last else { Issue.record("question not remembered"); return }
        #expect(records.isEmpty && receipt.items.isEmpty && receipt.role == .assistant && receipt.replyTo == "d6")
        #expect(receipt.workstream?.name == question.workstream?.name)
        let recaller = try Recaller(store: try MemoryStore(readingOnly: "t", environment: env))
        var q = MemoryFixture.query("Should we book the ferry to Lisbon?", encoder)
        let all = try recaller.recall(q, now: now).hits ?? []
        #expect(all.first?.docID == "d6")
        #expect(!all.contains { $0.docID == "r6" })
        q.message = "d6"
        let others = try recaller.recall(q, now: now).hits ?? []
        #expect(!others.contains { $0.docID == "d6" || $0.docID == "r6" })
        // The reply is in the words index of neither items nor messages.
        #expect(try store.db.scalarInt("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'confirmed'") == 0)
    }

    /// The background: the question's workstream (by its message), a summary naming the current
    /// item and not the replaced one, and the messages before the question, oldest first.
    @Test func theBackgroundIsTheQuestionsWorkstream() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let env = MemoryFixture.home()
        let ask = MessageRecord(id: "q1", time: "2026-03-07T08:00:00+01:00", text: "What is the gym code?", thread: "gym")
        let later = MessageRecord(id: "q2", time: "2026-03-08T08:00:00+01:00", text: "I renewed the gym membership.", thread: "gym")
        let gym = [MessageRecord(id: "g1", time: "2026-03-02T12:00:00+01:00", text: "The gym door code is 4417.", thread: "gym"),
                   MessageRecord(id: "g2", time: "2026-03-06T08:00:00+01:00", text: "They changed the gym code, it's 5190 now.", thread: "gym"),
                   ask, later]
        let store = try MemoryStore(name: "g", environment: env)
        _ = try Rememberer(store: store) { encoder.embed($0) }.remember(try gym.map { try Rememberer.resolve($0, now: Date()) })
        var q = MemoryFixture.query("What is the gym code?", encoder)
        q.message = "q1"
        let b = try #require(try WorkstreamBackground(store: store).background(for: q, vector: try q.embedding?.values()))
        #expect(b.workstream == "gym" && b.chosenBy == "message")
        #expect(b.recent.map(\.id) == ["g1", "g2"])
        #expect(b.summary.hasPrefix("Workstream gym: 2 messages from 2 March 2026 to 6 March 2026; 1 item replaced by later ones."))
        #expect(b.summary.contains("5190") && !b.summary.contains("4417"))
        // Without a message or thread: the nearest workstream by meaning, with its score.
        let near = try #require(try WorkstreamBackground(store: store).background(for: MemoryFixture.query("the gym code", encoder),
                                                                                    vector: encoder.embed(["the gym code"])[0]))
        #expect(near.chosenBy == "meaning" && (near.score ?? 0) >= 0.3 && near.recent.map(\.id) == ["g1", "g2", "q1", "q2"])
    }

    /// Taking back the last turn takes the last message a person said and the reply to it.
    @Test func undoTakesBackTheWholeTurn() throws {
        let encoder = try #require(MemoryFixture.encoder)
        let env = MemoryFixture.home()
        let reply = MessageRecord(id: "r5", time: "2026-03-06T08:00:00+01:00", text: "Noted: the gym code is 5190.", role: .assistant, replyTo: "d5")
        let moved = MessageRecord(id: "d7", time: "2026-03-06T10:00:00+01:00", text: "The gym code is 7777 since this morning.")
        let reply7 = MessageRecord(id: "r7", time: "2026-03-06T10:00:00+01:00", text: "Noted.", role: .assistant, replyTo: "d7")
        let (store, _) = try memory(env, encoder, extra: [reply, moved, reply7])
        let last = try #require(try store.forget(message: nil, dryRun: false))
        #expect(last.message == "d7" && last.replies == ["r7"])
        let gym = try #require(try store.forget(message: "d5", dryRun: false))
        #expect(gym.replies == ["r5"] && !gym.restored.isEmpty)
        #expect(try store.messageCount() == 5)
    }
}
