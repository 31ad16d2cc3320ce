import Foundation
import Testing
@testable import PBAnswer
import PBEndpoint
import PBCore

// What an answer sends a chat endpoint: each passage cut to its share of the budget, in rank
// order, on word boundaries.

@Suite struct PayloadMinimizerTests {
    static func piece(_ n: Int, rank: Int?, _ text: String, doc: String = "d", start: Int = 0, score: Double? = nil) -> Evidence {
        Evidence(n: n, span: SourceSpan(chunkID: "c\(n)-\(start)", docID: doc, path: "/notes/\(doc).md", title: doc, section: [],
            start: start, end: start + text.utf8.count, lineStart: 1, lineEnd: 1),
            text: text, role: .anchor, score: score, rank: rank)
    }

    static func context(_ evidence: [Evidence]) -> PackedContext {
        PackedContext(budget: 4096, used: 0, reserved: 512, mode: .standard, instructions: "Answer only from the evidence.",
                      prompt: "unused", evidence: evidence)
    }

    /// Passage texts in the user message, in order, by their [n] markers.
    static func sent(_ messages: [ChatMessage]) -> [(n: Int, text: String)] {
        let user = messages.last!.content
        return user.components(separatedBy: "\n[").dropFirst().map { part in
            let close = part.firstIndex(of: "]")!
            let body = part[part.index(close, offsetBy: 2)...]
            let text = body.components(separatedBy: "\n\nQuestion:")[0].trimmingCharacters(in: .newlines)
            return (Int(part[..<close])!, text)
        }
    }

    @Test func allowanceIsAShareOfTheBudgetWithAFloor() {
        #expect(PayloadMinimizer.allowance(budgetChars: 1200, passages: 3) == 400)
        #expect(PayloadMinimizer.allowance(budgetChars: 4000, passages: 20) == 500)  // at most 8 shares
        #expect(PayloadMinimizer.allowance(budgetChars: 1000, passages: 8) == 240)   // 125 is under the floor
        #expect(PayloadMinimizer.allowance(budgetChars: 1000, passages: 0) == 0)
    }

    @Test func eachPassageIsCutToItsShare() {
        let evidence = (1...3).map { Self.piece($0, rank: $0, String(repeating: "x", count: 1000)) }
        let (messages, chars, omitted) = PayloadMinimizer.minimise(Self.context(evidence), question: "q?", budgetChars: 1200)
        let passages = Self.sent(messages)
        #expect(passages.map(\.n) == [1, 2, 3])
        #expect(passages.allSatisfy { $0.text.count == 400 && $0.text.hasSuffix("…") })
        #expect(chars == 1200 && omitted == 0)
    }

    @Test func longPassagesPastEightAreOmitted() {
        let evidence = (1...10).map { Self.piece($0, rank: $0, String(repeating: "y", count: 900)) }
        let (messages, chars, omitted) = PayloadMinimizer.minimise(Self.context(evidence), question: "q?", budgetChars: 4000)
        #expect(Self.sent(messages).map(\.text.count) == Array(repeating: 500, count: 8))
        #expect(chars == 4000 && omitted == 2)
    }

    @Test func theFloorStopsASmallBudgetEarly() {
        let evidence = (1...8).map { Self.piece($0, rank: $0, String(repeating: "z", count: 1000)) }
        let (messages, chars, omitted) = PayloadMinimizer.minimise(Self.context(evidence), question: "q?", budgetChars: 1000)
        #expect(Self.sent(messages).map(\.text.count) == [240, 240, 240, 240])
        #expect(chars == 960 && omitted == 4)
    }

    @Test func aShortPassageFitsWhatIsLeftButALongOneStops() {
        let long = String(repeating: "a", count: 1000)
        let short = { (n: Int) in Self.piece(n, rank: n, String(repeating: "s", count: 100)) }
        let fits = PayloadMinimizer.minimise(Self.context([Self.piece(1, rank: 1, long), Self.piece(2, rank: 2, long), short(3)]),
                                             question: "q?", budgetChars: 700)
        #expect(Self.sent(fits.messages).map(\.text.count) == [240, 240, 100])  // 220 left >= the short one
        #expect(fits.payloadChars == 580 && fits.omitted == 0)
        let stops = PayloadMinimizer.minimise(Self.context([Self.piece(1, rank: 1, long), Self.piece(2, rank: 2, long),
                                                            Self.piece(3, rank: 3, long), short(4)]),
                                              question: "q?", budgetChars: 700)
        #expect(Self.sent(stops.messages).map(\.n) == [1, 2])  // 220 left < 240: stop, even before the short one
        #expect(stops.payloadChars == 480 && stops.omitted == 2)
    }

    @Test func passagesGoInRankOrderAndPiecesJoinInSourceOrder() {
        // Prompt order puts the best at both ends; the payload goes best first, unranked last.
        let evidence = [
            Self.piece(1, rank: 1, "first."), Self.piece(2, rank: 5, "fifth."), Self.piece(3, rank: nil, "lookup.", score: 0.2),
            Self.piece(4, rank: 3, "tail.", start: 10), Self.piece(4, rank: 3, "third ", start: 4),
            Self.piece(4, rank: 3, "far away.", start: 100), Self.piece(5, rank: 2, "second."),
        ]
        let (messages, chars, omitted) = PayloadMinimizer.minimise(Self.context(evidence), question: "Which one?", budgetChars: 10_000)
        let passages = Self.sent(messages)
        #expect(passages.map(\.n) == [1, 5, 4, 2, 3])
        #expect(passages[2].text == "third tail.\n…\nfar away.")
        #expect(chars == passages.reduce(0) { $0 + $1.text.count } && omitted == 0)
        #expect(messages.count == 2 && messages[0] == ChatMessage(role: "system", content: "Answer only from the evidence."))
        #expect(messages[1].role == "user" && messages[1].content.hasSuffix("\nQuestion: Which one?"))
        #expect(!messages[1].content.contains("/notes/"))  // paths stay home
    }

    @Test func cutsFallOnWordBoundaries() {
        let words = (1...200).map { "word\($0)" }.joined(separator: " ")
        let cut = PayloadMinimizer.truncate(words, to: 300)
        #expect(cut.count <= 300 && cut.count >= 225 && cut.hasSuffix("…"))
        #expect(words.hasPrefix(String(cut.dropLast())) && words.dropFirst(cut.count - 1).first == " ")
        #expect(PayloadMinimizer.truncate("short", to: 300) == "short")
    }

    @Test func nothingFitsUnderTheFloor() {
        let evidence = [Self.piece(1, rank: 1, String(repeating: "w", count: 500))]
        let (messages, chars, omitted) = PayloadMinimizer.minimise(Self.context(evidence), question: "q?", budgetChars: 100)
        #expect(chars == 0 && omitted == 1 && messages.last!.content.contains("(none)"))
    }
}
