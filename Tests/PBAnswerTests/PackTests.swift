import Foundation
import Testing
@testable import PBAnswer
@testable import PBCore
@testable import PBIndex
import PBRetrieval
import PBText

/// One token per whitespace-separated run: additive over whitespace joins, as WordPiece is.
struct PackWordCounter: TokenCounter {
    func countTokens(_ text: String) -> Int { text.split(whereSeparator: { $0.isWhitespace }).count }
}

/// A library in a temporary PB_HOME holding a small manual (sections of several overlapping
/// chunks, a cross reference, a spec table) and a page of unrelated notes.
final class PackFixture {
    static let manual = """
        # Aquila K7 Espresso Machine

        ## 1. Safety

        Always place the machine on a flat, dry surface away from the edge of the worktop. Never immerse the base, the cable or the plug in water. Unplug the machine before cleaning it and let it cool for at least 30 minutes. Children must not play with the appliance.

        ## 2. Daily use

        Fill the water tank with fresh cold water up to the MAX mark. Switch the machine on with the button on the right side; the lamp blinks while the boiler heats. Heating takes about 90 seconds from cold.

        Grind the beans fine and dose 18 grams into the double basket. Tamp firmly and evenly, then lock the portafilter into the group head. Press the cup button once for a single shot.

        If the lamp blinks red and the display shows E4, see section 4.2. A shot that runs too fast means the grind is too coarse. Wipe the steam wand with a damp cloth after every use — café-style.

        ## 3. Cleaning

        Empty the drip tray and the grounds drawer every day. Once a week, backflush the group head with the blind basket. Every two months the boiler must be descaled (see 'Descaling').

        ## 4. Troubleshooting

        ### 4.1 Noises

        A loud humming while the pump runs is normal. A rattling noise means the tank is not seated properly.

        ### 4.2 Error codes

        E1 means the boiler temperature sensor is faulty: call service. E4 means the water tank is empty or the float is stuck: refill the tank and tap it gently.

        ## 5. Descaling

        Dissolve one sachet of descaler in 1 litre of water and pour it into the tank. Hold the cup button and the steam button together for 5 seconds to start the programme, which runs for about 25 minutes.

        ## 6. Specifications

        | Property | Value |
        |---|---|
        | Pump pressure | 15 bar |
        | Water tank capacity | 1.8 litres |
        | Model number | K7-2291 |
        """

    static let notes = """
        # Garden notes

        ## Tomatoes

        Sow tomato seeds indoors in March and plant them out after the last frost. Water them deeply twice a week rather than a little every day.
        """

    let home: URL
    let library: PackLibrary
    /// Every chunk of the manual, by seq.
    let chunks: [Hit]
    /// The chunks of the notes.
    let others: [Hit]
    let sources: [String: [UInt8]]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-pack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let env = PBEnvironment(variables: ["PB_HOME": home.path])
        let chunker = DocumentChunker(library: "default", chunker: try Chunker(limits: ChunkLimits(maxWords: 30, maxTokens: 200), tokens: PackWordCounter()))
        let indexer = Indexer(library: try Library(environment: env, name: "default", create: true))
        var n = 0
        for (path, text) in [("/fx/manual.md", Self.manual), ("/fx/notes.md", Self.notes)] {
            for c in try chunker.chunk(path: path, text: text, title: nil, format: "markdown") {
                n += 1
                try indexer.consume(InputLine(data: try RecordCodec().encode(c), source: "fixture", number: n))
            }
        }
        _ = try indexer.finish()
        library = try PackLibrary(environment: env, name: "default")
        chunks = try library.documentChunks(docID: DocumentChunker.docID(library: "default", path: "/fx/manual.md"))
        others = try library.documentChunks(docID: DocumentChunker.docID(library: "default", path: "/fx/notes.md"))
        sources = ["/fx/manual.md": Array(Self.manual.utf8), "/fx/notes.md": Array(Self.notes.utf8)]
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    /// The first chunk of the manual whose text holds `words`.
    func chunk(_ words: String) -> Hit {
        guard let c = chunks.first(where: { $0.text.contains(words) }) ?? others.first(where: { $0.text.contains(words) }) else {
            fatalError("no fixture chunk holds '\(words)': \(chunks.map(\.text))")
        }
        return c
    }

    /// A query whose hits are `hits`, ranked in that order with falling scores.
    func query(_ text: String, _ hits: [Hit]) -> QueryRecord {
        var q = QueryRecord(text: text)
        q.hits = hits.enumerated().map { i, h in
            var h = h
            h.rank = i + 1
            h.scores = HitScores(fused: 1.0 / Double(61 + i), rerank: 2.0 - Double(i))
            return h
        }
        return q
    }

    func packer(budget: Int = 4096, reserve: Int = 50, k: Int = 8, mode: Mode = .standard, neighbours: Int? = nil,
                counter: any TokenCounter = PackWordCounter()) -> ContextPacker {
        var s = ContextPacker.Settings()
        s.budget = budget
        s.reserve = reserve
        s.k = k
        s.mode = mode
        s.neighbours = neighbours
        return ContextPacker(settings: s, counter: counter)
    }

    /// The invariants every context must hold, whatever the budget.
    func check(_ c: PackedContext, _ q: QueryRecord, counter: any TokenCounter = PackWordCounter()) {
        #expect(c.used <= c.budget)
        #expect(c.used == counter.countTokens(c.instructions) + counter.countTokens(c.prompt) + c.reserved)
        var spans: [String: [Range<Int>]] = [:]
        for e in c.evidence {
            let source = sources[e.path]!
            #expect(Array(e.text.utf8) == Array(source[e.start..<e.end]), "piece \(e.chunkID) is not its source bytes")
            spans[e.path, default: []].append(e.start..<e.end)
        }
        for (_, ranges) in spans {
            let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.upperBound <= b.lowerBound, "bytes on the desk twice") }
        }
        // Passages numbered 1... in prompt order, pieces of one passage together and in source order.
        let ns = c.evidence.map(\.n)
        #expect(ns == ns.sorted())
        if let last = ns.max() { #expect(Set(ns) == Set(1...last)) }
        for n in Set(ns) {
            let starts = c.evidence.filter { $0.n == n }.map(\.start)
            #expect(starts == starts.sorted())
            #expect(c.prompt.contains("[\(n)] "))
        }
        // Every hit is on the desk or in dropped.
        let accounted = Set(c.evidence.map(\.chunkID)).union(c.dropped.map(\.chunkID))
        for h in q.hits ?? [] { #expect(accounted.contains(h.chunkID), "hit \(h.chunkID) neither packed nor dropped") }
        #expect(c.prompt.hasSuffix("Question: " + q.text))
    }
}

@Suite struct BothEndsOrderTests {
    @Test func strongestAtBothEnds() {
        #expect(BothEndsOrder.apply([Int]()) == [])
        #expect(BothEndsOrder.apply([1]) == [1])
        #expect(BothEndsOrder.apply([1, 2]) == [1, 2])
        #expect(BothEndsOrder.apply([1, 2, 3]) == [1, 3, 2])
        #expect(BothEndsOrder.apply([1, 2, 3, 4]) == [1, 3, 4, 2])
        #expect(BothEndsOrder.apply([1, 2, 3, 4, 5]) == [1, 3, 5, 4, 2])
        #expect(BothEndsOrder.apply([1, 2, 3, 4, 5, 6]) == [1, 3, 5, 6, 4, 2])
        #expect(BothEndsOrder.apply([1, 2, 3, 4, 5, 6, 7]) == [1, 3, 5, 7, 6, 4, 2])
    }

    @Test func weakerPassagesNeverSitNearerAnEndThanStrongerOnes() {
        for n in 1...40 {
            let order = BothEndsOrder.indices(count: n)
            #expect(order.sorted() == Array(0..<n))
            #expect(order.first == 0)
            if n > 1 { #expect(order.last == 1) }
            var position = [Int](repeating: 0, count: n)
            for (p, rank) in order.enumerated() { position[rank] = p }
            let distance = position.map { min($0, n - 1 - $0) }
            #expect(distance == distance.sorted(), "n = \(n)")
        }
    }
}

@Suite struct DeskCoverageTests {
    static let source = "Première phrase très longue.\nDeuxième phrase — avec des accents.\nTroisième phrase finale, café."
    static var bytes: [UInt8] { Array(source.utf8) }

    static func chunk(_ r: Range<Int>, seq: Int = 0) -> Hit {
        Hit(span: SourceSpan(chunkID: "c\(seq)", docID: "d", path: "p", title: "t", section: [],
            start: r.lowerBound, end: r.upperBound, lineStart: 1 + bytes[0..<r.lowerBound].filter { $0 == 0x0A }.count, lineEnd: 1 + bytes[0..<r.upperBound].filter { $0 == 0x0A }.count),
            text: String(decoding: bytes[r], as: UTF8.self), seq: seq)
    }

    static func offset(of s: String) -> Int { source.utf8.count - source[source.range(of: s)!.lowerBound...].utf8.count }

    @Test func overlapIsCutToNewBytesThatAreStillSourceBytes() {
        let second = Self.offset(of: "Deuxième")
        let third = Self.offset(of: "Troisième")
        var desk = DeskCoverage()
        desk.add(docID: "d", 0..<third - 1)  // first two sentences
        let pieces = desk.newPieces(of: Self.chunk(second..<Self.bytes.count, seq: 1), role: .neighbour)
        #expect(pieces.count == 1)
        let p = pieces[0]
        #expect(p.start == third)
        #expect(p.end == Self.bytes.count)
        #expect(Array(p.text.utf8) == Array(Self.bytes[p.start..<p.end]))
        #expect(p.text.hasPrefix("Troisième"))
        #expect(p.lineStart == 3 && p.lineEnd == 3)
    }

    @Test func cutsLandOnCharacterBoundariesAndSkipWhitespace() {
        // Covered up to the middle of "è" (two bytes): the cut moves past it, and text stays exact.
        let inside = Self.offset(of: "ère phrase") + 1
        var desk = DeskCoverage()
        desk.add(docID: "d", 0..<inside)
        let p = desk.newPieces(of: Self.chunk(0..<Self.bytes.count), role: .anchor)[0]
        #expect(Self.bytes[p.start] & 0xC0 != 0x80)
        #expect(Array(p.text.utf8) == Array(Self.bytes[p.start..<p.end]))
        #expect(p.text.hasPrefix("re phrase"))
        // A covered range starting inside a character at the end: the piece stops before it.
        var back = DeskCoverage()
        let dash = Self.offset(of: "— avec") + 1
        back.add(docID: "d", dash..<Self.bytes.count)
        let q = back.newPieces(of: Self.chunk(0..<Self.bytes.count), role: .anchor)[0]
        #expect(q.start == 0)
        #expect(Array(q.text.utf8) == Array(Self.bytes[q.start..<q.end]))
        #expect(q.text.hasSuffix("Deuxième phrase"))
    }

    @Test func nothingNewMeansNoPiece() {
        var desk = DeskCoverage()
        desk.add(docID: "d", 0..<Self.bytes.count)
        #expect(desk.newPieces(of: Self.chunk(5..<40), role: .neighbour).isEmpty)
        // Only punctuation and spaces left over: no piece either.
        var almost = DeskCoverage()
        let end = Self.offset(of: "\nDeuxième") - 1
        almost.add(docID: "d", 0..<end)
        #expect(almost.newPieces(of: Self.chunk(0..<end + 2), role: .neighbour).isEmpty)
        // Another document's bytes do not count.
        #expect(!desk.newPieces(of: { var h = Self.chunk(0..<10); h.docID = "other"; return h }(), role: .anchor).isEmpty)
    }

    @Test func aCoveredMiddleLeavesTwoPieces() {
        var desk = DeskCoverage()
        let second = Self.offset(of: "Deuxième")
        let third = Self.offset(of: "Troisième")
        desk.add(docID: "d", second..<third)
        let pieces = desk.newPieces(of: Self.chunk(0..<Self.bytes.count), role: .anchor)
        #expect(pieces.count == 2)
        #expect(pieces.map(\.text) == ["Première phrase très longue.", "Troisième phrase finale, café."])
        for p in pieces { #expect(Array(p.text.utf8) == Array(Self.bytes[p.start..<p.end])) }
    }
}

@Suite struct CrossReferenceTests {
    @Test func findsTheUsualWaysOfPointing() {
        #expect(CrossReference.find(in: "For the filters, see section 7.3.") == [CrossReference(.number("7.3"))])
        #expect(CrossReference.find(in: "Refer to Chapter 2 for details.") == [CrossReference(.number("2"))])
        #expect(CrossReference.find(in: "See Section 4 and see § 5.1") == [CrossReference(.number("4")), CrossReference(.number("5.1"))])
        #expect(CrossReference.find(in: "Keep the receipt (see 'Warranty').") == [CrossReference(.heading("warranty"))])
        #expect(CrossReference.find(in: "see “Cleaning the filters” first") == [CrossReference(.heading("cleaning the filters"))])
        #expect(CrossReference.find(in: "If it fails, see the Troubleshooting section.") == [CrossReference(.heading("troubleshooting"))])
        #expect(CrossReference.find(in: "Clean the filter combination (see Maintenance).") == [CrossReference(.heading("maintenance"))])
        #expect(CrossReference.find(in: "see section 2, and again see section 2") == [CrossReference(.number("2"))])
    }

    @Test func ignoresWhatIsNotAReference() {
        #expect(CrossReference.find(in: "I see 3 cats and you see the point.").isEmpty)
        #expect(CrossReference.find(in: "See the next section.").isEmpty)
        #expect(CrossReference.find(in: "as we will see (see below)").isEmpty)
    }

    @Test func matchesHeadingsByNumberOrName() {
        let four = CrossReference(.number("4"))
        #expect(four.matches(heading: "4. Tenants' obligations"))
        #expect(four.matches(heading: "Section 4 – Payment"))
        #expect(four.matches(heading: "4 Payment"))
        #expect(!four.matches(heading: "4.2 Fees"))
        #expect(!four.matches(heading: "42. Other"))
        #expect(!CrossReference(.number("7.3")).matches(heading: "7.31 Hoses"))
        #expect(CrossReference(.number("7.3")).matches(heading: "7.3 Filters"))
        let warranty = CrossReference(.heading("warranty"))
        #expect(warranty.matches(heading: "6. Warranty"))
        #expect(warranty.matches(heading: "WARRANTY AND SERVICE"))
        #expect(!warranty.matches(heading: "Warranties"))
    }

    @Test func matchesHeadingLinesButNotContentsOrProse() {
        let maintenance = CrossReference(.heading("maintenance"))
        #expect(maintenance.matches(line: "5. Maintenance"))
        #expect(maintenance.matches(line: "  MAINTENANCE  "))
        #expect(!maintenance.matches(line: "5. Maintenance ........ 12"))
        #expect(!maintenance.matches(line: "Clean the filter combination (see Maintenance)."))
        #expect(CrossReference(.number("5")).matches(line: "5. Maintenance"))
        #expect(!CrossReference(.number("5")).matches(line: "5 minutes later the programme stops."))
    }
}

@Suite struct LookupQuestionTests {
    @Test func questionsAskingForAValueAreLookups() {
        for q in ["What is the maximum inlet temperature?", "How many place settings does it hold?", "how much is the deposit",
                  "What does error E24 mean?", "When is the next meeting?", "What is the model number of the dishwasher?",
                  "Which dose of rinse aid is set at the factory?", "What's the price of a replacement key?"] {
            #expect(LookupQuestion.isLookup(q), "\(q)")
        }
        for q in ["Why does the dishwasher smell?", "Summarise the tenancy agreement", "Who chairs the committee?",
                  "What should I pack for Sintra?"] {
            #expect(!LookupQuestion.isLookup(q), "\(q)")
        }
    }

    @Test func searchTermsLeaveOutFramingWords() {
        #expect(LookupQuestion.searchTerms("How many place settings does the dishwasher hold?") == ["place", "settings", "dishwasher", "hold"])
        #expect(LookupQuestion.searchTerms("what is the number of the E24 code") == ["e24", "code"])
    }

    @Test func findsRareWordsNextToNumbers() {
        let table = "| Pump pressure | 15 bar |\n| Water tank capacity | 1.8 litres |"
        #expect(LookupQuestion.termsNextToNumbers(in: table, terms: ["capacity", "tank", "pressure", "boiler"]) == ["capacity", "tank", "pressure"])
        let prose = "The capacity of the tank matters when you travel a lot with friends, and it holds 2 cups."
        #expect(LookupQuestion.termsNextToNumbers(in: prose, terms: ["capacity", "tank"], window: 4).isEmpty)
        #expect(LookupQuestion.termsNextToNumbers(in: prose, terms: ["capacity"], window: 20) == ["capacity"])
        // A term that is itself a number needs another number near it.
        #expect(LookupQuestion.termsNextToNumbers(in: "code 2291 only", terms: ["2291"]).isEmpty)
        #expect(LookupQuestion.termsNextToNumbers(in: "model K7 2291 at 15 bar", terms: ["2291"]) == ["2291"])
    }
}

@Suite struct ContextPackerTests {
    @Test func theBudgetIsNeverExceeded() throws {
        let f = try PackFixture()
        let queries = [
            f.query("what does E4 mean on the display", [f.chunk("shows E4"), f.chunk("Pump pressure"), f.chunk("Sow tomato")]),
            f.query("what is the water tank capacity", [f.chunk("Fill the water tank"), f.chunk("descaler")]),
            f.query("how do I clean the machine", [f.chunk("drip tray"), f.chunk("Grind the beans"), f.chunk("Tamp firmly"), f.chunk("Always place")]),
        ]
        let fixed = PackWordCounter().countTokens(PromptWriter.instructions) + 50
        var sizes: Set<Int> = []
        for q in queries {
            let minimum = fixed + PackWordCounter().countTokens(PromptWriter.question(q.text))
            for budget in stride(from: minimum, through: minimum + 700, by: 3) {
                let c = try f.packer(budget: budget, reserve: 50).pack(q, library: f.library)
                f.check(c, q)
                sizes.insert(c.evidence.count)
            }
        }
        // The sweep went from an empty desk to a full one.
        #expect(sizes.contains(0) && sizes.count > 5)
    }

    @Test func aBudgetTooSmallForTheQuestionIsBadInput() throws {
        let f = try PackFixture()
        let q = f.query("what does E4 mean", [f.chunk("shows E4")])
        let fixed = PackWordCounter().countTokens(PromptWriter.instructions) + PackWordCounter().countTokens(PromptWriter.question(q.text)) + 50
        #expect(throws: ToolFailure.self) { try f.packer(budget: fixed - 1, reserve: 50).pack(q, library: f.library) }
        do {
            _ = try f.packer(budget: fixed - 1, reserve: 50).pack(q, library: f.library)
        } catch let e as ToolFailure {
            #expect(e.code == .badInput)
            #expect(e.message.hasPrefix("budget too small"))
        }
        let c = try f.packer(budget: fixed, reserve: 50).pack(q, library: f.library)
        #expect(c.used == fixed && c.evidence.isEmpty)
        #expect(c.dropped.contains(DroppedHit(chunkID: q.hits![0].chunkID, reason: .overBudget)))
        #expect(c.dropped.allSatisfy { $0.reason == .overBudget })
    }

    @Test func neighboursComeFromTheSameSectionWithoutRepeatingBytes() throws {
        let f = try PackFixture()
        let anchor = f.chunk("Tamp firmly")
        let q = f.query("how do I pull a shot", [anchor])
        let fast = try f.packer(mode: .fast).pack(q, library: f.library)
        f.check(fast, q)
        // (A neighbour says "see section 4.2": that section comes in as a reference passage.)
        let passage = fast.evidence.filter { $0.role != .reference }
        #expect(Set(passage.map(\.n)).count == 1)
        #expect(passage.allSatisfy { $0.section == anchor.section && abs($0.seq! - anchor.seq!) <= 2 })
        #expect(fast.evidence.filter { $0.role == .anchor }.map(\.chunkID) == [anchor.chunkID])
        #expect(passage.filter { $0.role == .neighbour }.map(\.seq!) == [anchor.seq! - 2, anchor.seq! - 1, anchor.seq! + 1, anchor.seq! + 2])
        let deep = try f.packer(mode: .deep).pack(q, library: f.library)
        f.check(deep, q)
        #expect(deep.evidence.filter { $0.role == .neighbour }.count > passage.filter { $0.role == .neighbour }.count)
        // Overlapping chunks were cut: the pieces of the passage tile the text without repeats.
        let none = try f.packer(neighbours: 0).pack(q, library: f.library)
        #expect(none.evidence.map(\.chunkID) == [anchor.chunkID])
        #expect(none.evidence[0].text == anchor.text)
    }

    @Test func aSummaryReadsTheDocumentSectionBySection() throws {
        let f = try PackFixture()
        // Retrieval found the chunk that shares the request's words, and a stray one elsewhere.
        let q = f.query("summarise the espresso machine manual", [f.chunk("Pump pressure"), f.chunk("Sow tomato")])
        let c = try f.packer(neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        let sections = Set(f.chunks.map(\.section))
        let packed = Set(c.evidence.filter { $0.docID == f.chunks[0].docID }.map(\.section))
        #expect(packed == sections, "every section of the manual is on the desk")
        #expect(c.evidence.contains { $0.role == .section })
        #expect(c.evidence.contains { $0.chunkID == f.chunk("Sow tomato").chunkID }, "the other anchors still follow")
        // Short of room, the first chunk of each section comes before the second of any.
        let firsts = Dictionary(f.chunks.map { ($0.section, $0) }, uniquingKeysWith: { a, _ in a }).count
        let small = try f.packer(budget: 400, neighbours: 0).pack(q, library: f.library)
        f.check(small, q)
        let smallSections = Set(small.evidence.filter { $0.role == .section || $0.role == .anchor }.map(\.section))
        #expect(smallSections.count >= min(firsts, 5), "\(smallSections.count) of \(firsts) sections")
        // A fact question does not read the whole document.
        let fact = try f.packer(neighbours: 0).pack(f.query("what is the pump pressure", [f.chunk("Pump pressure")]), library: f.library)
        #expect(!fact.evidence.contains { $0.role == .section })
    }

    @Test func adjacentAnchorsShareOnePassage() throws {
        let f = try PackFixture()
        let a = f.chunk("Tamp firmly"), b = f.chunk("Press the cup button once")
        #expect(abs(a.seq! - b.seq!) == 1)
        let q = f.query("shots", [a, b, f.chunk("Sow tomato")])
        let c = try f.packer(neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        #expect(c.evidence.filter { $0.n == 1 }.map(\.role) == [.anchor, .anchor])
        #expect(Set(c.evidence.map(\.n)) == [1, 2])
        #expect(c.evidence.filter { $0.n == 1 }.allSatisfy { $0.rank == 1 })
    }

    @Test func crossReferencesPullInTheNamedSection() throws {
        let f = try PackFixture()
        let q = f.query("the display shows E4", [f.chunk("shows E4")])
        let c = try f.packer(neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        let refs = c.evidence.filter { $0.role == .reference }
        #expect(!refs.isEmpty)
        #expect(refs.allSatisfy { $0.section.last == "4.2 Error codes" && $0.rank == nil })
        // By name, in quotes: "(see 'Descaling')".
        let d = try f.packer(neighbours: 0).pack(f.query("cleaning", [f.chunk("descaled")]), library: f.library)
        #expect(d.evidence.contains { $0.role == .reference && $0.section.last == "5. Descaling" })
        // No budget left for it: listed as dropped, the budget holds.
        let counter = PackWordCounter()
        let anchorPiece = DeskCoverage().newPieces(of: f.chunk("shows E4"), role: .anchor)
        let anchorOnly = counter.countTokens(PromptWriter.instructions) + counter.countTokens(PromptWriter.question(q.text)) + 50
            + counter.countTokens(PromptWriter.passage(anchorPiece, number: 1))
        let tight = try f.packer(budget: anchorOnly, reserve: 50, neighbours: 0).pack(q, library: f.library)
        f.check(tight, q)
        #expect(!tight.evidence.contains { $0.role == .reference })
        #expect(tight.dropped.contains { $0.reason == .overBudget })
    }

    @Test func lookupsRescueTheSpecTable() throws {
        let f = try PackFixture()
        let table = f.chunk("Water tank capacity")
        let q = f.query("what is the water tank capacity", [f.chunk("Fill the water tank"), f.chunk("Always place")])
        let c = try f.packer(neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        #expect(c.lookup == true)
        let lookups = c.evidence.filter { $0.role == .lookup }
        #expect(lookups.map(\.chunkID) == [table.chunkID])
        // Second in priority: with three passages it closes the prompt ([1, 3, 2]).
        #expect(lookups.first?.n == 3)
        // Not a lookup question: no lookup passage.
        let plain = try f.packer(neighbours: 0).pack(f.query("why fill the water tank", q.hits!), library: f.library)
        #expect(plain.lookup == false)
        #expect(!plain.evidence.contains { $0.role == .lookup })
    }

    @Test func strongestPassagesSitAtBothEnds() throws {
        let f = try PackFixture()
        // Six anchors from six sections, no neighbours: prompt order is ranks [1, 3, 5, 6, 4, 2].
        let hits = [f.chunk("Always place"), f.chunk("drip tray"), f.chunk("loud humming"), f.chunk("E1 means"),
                    f.chunk("descaler"), f.chunk("Pump pressure")]
        let q = f.query("everything", hits)
        let c = try f.packer(neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        var rankOfN: [Int: Int] = [:]
        for e in c.evidence { rankOfN[e.n] = e.rank }
        #expect((1...6).map { rankOfN[$0] } == [1, 3, 5, 6, 4, 2])
        #expect(c.evidence.first { $0.n == 1 }?.score == 2.0)
        #expect(c.prompt.hasPrefix("[1] Aquila K7 Espresso Machine › 1. Safety (manual.md:"))
    }

    @Test func hitsBeyondKAndQueriesWithoutHits() throws {
        let f = try PackFixture()
        let hits = [f.chunk("Always place"), f.chunk("drip tray"), f.chunk("loud humming"), f.chunk("E1 means")]
        let q = f.query("things", hits)
        let c = try f.packer(k: 2, neighbours: 0).pack(q, library: f.library)
        f.check(c, q)
        #expect(c.dropped.filter { $0.reason == .beyondK }.map(\.chunkID) == hits.suffix(2).map(\.chunkID))
        let empty = try f.packer().pack(QueryRecord(text: "anything at all?"), library: nil)
        #expect(empty.evidence.isEmpty)
        #expect(empty.prompt == "Question: anything at all?")
        #expect(empty.instructions.contains("That isn't in your documents."))
    }

    @Test func aHitWhoseTextIsNotItsSpanIsBadInput() throws {
        let f = try PackFixture()
        var h = f.chunk("Always place")
        h.end += 3
        #expect(throws: ToolFailure.self) { try f.packer().pack(f.query("q", [h]), library: f.library) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: PBEnvironment().modelDirectory.appendingPathComponent("vocab.txt").path)))
    func wordPieceCountsAddUpOverWhitespace() throws {
        let f = try PackFixture()
        let tokenizer = try WordPieceTokenizer(vocabularyAt: PBEnvironment().modelDirectory.appendingPathComponent("vocab.txt"))
        let q = f.query("what does E4 mean on the display", [f.chunk("shows E4"), f.chunk("Pump pressure"), f.chunk("Sow tomato")])
        var packed = 0
        let budgets = Array(stride(from: 150, through: 900, by: 25))
        for budget in budgets {
            // A budget too small for the instructions and one passage is refused; those are skipped.
            guard let c = try? f.packer(budget: budget, reserve: 50, counter: tokenizer).pack(q, library: f.library) else { continue }
            packed += 1
            f.check(c, q, counter: tokenizer)
            let blocks = c.prompt.components(separatedBy: "\n\n")
            #expect(blocks.map(tokenizer.countTokens).reduce(0, +) == tokenizer.countTokens(c.prompt))
        }
        // Not a test that can skip every case: nearly all of these budgets hold a context.
        #expect(packed >= budgets.count - 4, "only \(packed) of \(budgets.count) budgets packed")
    }
}

/// A memory's background (pb-recall --context) frames the passages: the summary first, the
/// latest messages after them, within a quarter of the room, the oldest messages dropped first.
@Suite struct MemoryBackgroundPackTests {
    func hit(_ id: String, _ text: String, rank: Int, supersededBy: String? = nil) -> Hit {
        var h = Hit(span: SourceSpan(chunkID: id, docID: "m-\(id)", path: "memory/t/m-\(id)", title: "gym", section: [],
                                     start: 0, end: text.utf8.count, lineStart: 1, lineEnd: 1),
                    text: text, scores: HitScores(fused: 1.0 / Double(60 + rank)), rank: rank)
        h.source = ["m-\(id)"]
        h.supersededBy = supersededBy
        h.said = "2026-03-06T08:00:00+01:00"
        return h
    }

    @Test func theBackgroundFramesThePassagesWithinAQuarterOfTheRoom() throws {
        var q = QueryRecord(text: "What is the gym code?")
        q.hits = [hit("i-2", "They changed the gym code, it's 5190 now.", rank: 1),
                  hit("i-1", "The gym door code is 4417.", rank: 2, supersededBy: "i-2")]
        let recent = (1...30).map {
            RecentMessage(id: "m\($0)", time: "2026-03-0\($0 % 9 + 1)T08:00:00Z", speaker: nil, role: $0 % 2 == 0 ? .assistant : .user,
                          text: "message number \($0) about the gym and its door")
        }
        q.background = Background(workstream: "gym", chosenBy: "message",
                                  summary: "Workstream gym: 2 messages.\nLatest fact (6 March 2026): They changed the gym code, it's 5190 now.",
                                  recent: recent)
        let counter = PackWordCounter()
        var kept: [Int] = []
        for budget in [400, 800, 4096] {
            var s = ContextPacker.Settings()
            s.budget = budget
            s.reserve = 50
            let c = try ContextPacker(settings: s, counter: counter).pack(q, library: nil)
            #expect(c.used <= budget)
            #expect(c.used == counter.countTokens(c.instructions) + counter.countTokens(c.prompt) + c.reserved)
            let b = try #require(c.background)
            kept.append(b.recent.count)
            #expect(b.recent.map(\.id) == recent.suffix(b.recent.count).map(\.id))
            let room = budget - counter.countTokens(PromptWriter.instructions) - counter.countTokens(PromptWriter.question(q.text)) - 50
            #expect(counter.countTokens(PromptWriter.summary(b)) + (b.recent.isEmpty ? 0 : counter.countTokens(PromptWriter.recent(b.recent))) <= room / 4)
            #expect(c.prompt.hasPrefix("Background, not evidence: Workstream gym"))
            #expect(c.evidence.map(\.chunkID) == ["i-2", "i-1"] && c.evidence[1].supersededBy == "i-2")
            #expect(c.prompt.contains("(replaced by a later message)"))
            if !b.recent.isEmpty {
                let first = try #require(c.prompt.range(of: "[1]")), after = try #require(c.prompt.range(of: "Recent messages, not evidence:"))
                #expect(first.lowerBound < after.lowerBound && c.prompt.hasSuffix(PromptWriter.question(q.text)))
            }
        }
        #expect(kept[0] < kept[1] && kept[1] < kept[2] && kept[2] == 30)
    }
}
