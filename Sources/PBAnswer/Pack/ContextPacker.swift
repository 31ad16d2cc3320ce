import Foundation
import PBCore
import PBRetrieval
import PBText

/// Packs one query's hits into a `context` under a hard token budget.
///
/// Content decisions first, in priority order: the top anchor, then lookup passages (for
/// questions asking for a value) or, for a request to summarise, the sections of the document
/// it is about, then the other anchors in rank order, then the anchors'
/// neighbours nearest first, then sections that packed passages refer to. Each chunk is cut to the bytes not yet on the desk
/// and kept only if it fits. The position decision comes last: the strongest passages go to both
/// ends of the prompt, and passages are numbered in prompt order.
public struct ContextPacker {
    public struct Settings: Sendable, Equatable {
        /// Tokens for instructions, prompt and the reserved answer together.
        public var budget = 4096
        /// Tokens kept back for the answer.
        public var reserve = 512
        /// Hits used as anchors, best first.
        public var k = 8
        public var mode = Mode.standard
        /// Neighbours read on each side of an anchor; nil: the mode's (2, 3, 5).
        public var neighbours: Int?
        /// Lookup passages added at most.
        public var lookups = 2
        /// Words between a rare question term and a number, at most, for a lookup match.
        public var lookupWindow = 4
        /// Cross references followed per query, and chunks taken from each referenced section.
        public var references = 3
        public var chunksPerReference = 2
        /// Documents a summary request reads whole (the top hit's, and others whose title names
        /// the request's subject), and chunks taken from them at most.
        public var summaryDocuments = 2
        public var summaryChunks = 24
        /// Chunks of a steps section ("Method", "Instructions") added for a question asking how
        /// to do something, at most.
        public var stepChunks = 8
        /// Lines of other files stating an anchor's amount (AmountLink), from the best anchors.
        public var links = 2
        public var linkedAnchors = 3
        /// An overview of the whole library: documents listed at most, and the bytes of each
        /// document's opening that stand for it.
        public var catalogueDocuments = 60
        public var catalogueBytes = 240

        public init() {}

        public static func neighbours(forMode mode: Mode) -> Int {
            switch mode {
            case .fast: return 2
            case .standard: return 3
            case .deep: return 5
            }
        }
    }

    public var settings: Settings
    let counter: any TokenCounter

    public init(settings: Settings, counter: any TokenCounter) {
        self.settings = settings
        self.counter = counter
    }

    /// The context for `query`. The library is needed only when the query has hits.
    public func pack(_ query: QueryRecord, library: PackLibrary?) throws -> PackedContext {
        let instructionTokens = counter.countTokens(PromptWriter.instructions)
        let fixed = instructionTokens + counter.countTokens(PromptWriter.question(query.text, reading: query.analysis)) + settings.reserve
        guard fixed <= settings.budget else {
            throw ToolFailure(.badInput, "budget too small: the instructions and the question take \(fixed - settings.reserve) tokens and \(settings.reserve) are reserved for the answer, over the budget of \(settings.budget)")
        }
        let background = fitted(query.background, room: settings.budget - fixed)
        let held = fixed + backgroundTokens(background)
        let hits = query.hits ?? []
        for (i, h) in hits.enumerated() where h.text.utf8.count != h.end - h.start || h.start < 0 {
            throw ToolFailure(.badInput, "hits[\(i)] (\(h.chunkID)): text is \(h.text.utf8.count) bytes but start..end spans \(h.end - h.start)")
        }
        let lookup = LookupQuestion.isLookup(query.text)
        var desk = Desk(room: settings.budget - held, counter: counter)
        if let library, !hits.isEmpty {
            try fill(&desk, query: query, hits: hits, lookup: lookup, library: library)
        } else if !hits.isEmpty, hits.allSatisfy({ $0.source != nil }) {
            // Memory hits (pb-recall): each is the item itself, with no library to read
            // neighbours from; they go on the desk in rank order as far as the budget allows.
            for h in hits.prefix(settings.k) {
                switch desk.offer(h, role: Desk.Role.anchor, rank: h.rank, score: Self.score(h)) {
                case .overBudget: desk.drop(h.chunkID, .overBudget)
                case .duplicate: desk.drop(h.chunkID, .duplicate)
                case .placed: break
                }
            }
            for h in hits.dropFirst(settings.k) { desk.drop(h.chunkID, .beyondK) }
        }
        desk.mergeAdjoining()
        return finish(&desk, query: query, instructionTokens: instructionTokens, lookup: lookup, background: background)
    }

    /// A memory's background as far as a quarter of the room allows: the summary (cut to its
    /// first lines when it alone is too long), then the latest messages, dropping the oldest.
    /// The passages are what an answer cites; the background only tells the writer where it is.
    func fitted(_ background: Background?, room: Int) -> Background? {
        guard var b = background else { return nil }
        let share = max(0, room / 4)
        var lines = b.summary.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.count > 1, counter.countTokens(PromptWriter.summary(b)) > share {
            lines.removeLast()
            b.summary = lines.joined(separator: "\n")
        }
        if counter.countTokens(PromptWriter.summary(b)) > share { return nil }
        while !b.recent.isEmpty, backgroundTokens(b) > share { b.recent.removeFirst() }
        return b
    }

    /// The background's tokens in the prompt (blocks are whitespace-separated: the counts add).
    func backgroundTokens(_ b: Background?) -> Int {
        guard let b else { return 0 }
        return counter.countTokens(PromptWriter.summary(b)) + (b.recent.isEmpty ? 0 : counter.countTokens(PromptWriter.recent(b.recent)))
    }

    // MARK: - Content

    func fill(_ desk: inout Desk, query: QueryRecord, hits: [Hit], lookup: Bool, library: PackLibrary) throws {
        // "What is in my documents?": the library's catalogue, each document by its opening lines.
        if query.analysis?.intent == .overview {
            if QuestionReader.overviewTopic(query.questionText).isEmpty {
                try addCatalogue(to: &desk, query: query, library: library)
                return
            }
            // "Which files are about the boiler?": one passage for each document among the hits,
            // in rank order, so the desk names as many documents as it can hold.
            var documents: Set<String> = []
            for h in hits where documents.insert(h.docID).inserted {
                if case .overBudget = desk.offer(h, role: Desk.Role.anchor, rank: h.rank, score: Self.score(h)) {
                    desk.drop(h.chunkID, .overBudget)
                }
            }
            return
        }
        let anchors = Array(hits.prefix(settings.k))
        for h in hits.dropFirst(settings.k) { desk.drop(h.chunkID, .beyondK) }
        let width = settings.neighbours ?? Settings.neighbours(forMode: settings.mode)
        let hitRank = Dictionary(hits.map { ($0.chunkID, ($0.rank, Self.score($0))) }, uniquingKeysWith: { a, _ in a })
        var expansions: [Expansion] = []
        for (i, anchor) in anchors.enumerated() {
            if let e = try place(anchor, width: width, on: &desk, library: library) { expansions.append(e) }
            if i == 0, query.analysis?.intent == .summarize || QuestionAnalysis(query.questionText).wantsSummary {
                try addSummarySections(to: &desk, query: query, anchors: anchors, library: library)
            } else if i == 0, lookup {
                try addLookups(to: &desk, query: query, hitRank: hitRank, library: library)
            } else if i == 0, query.analysis?.intent == .procedure {
                try addStepSections(to: &desk, anchors: anchors, library: library)
            }
        }
        expand(&expansions, width: width, on: &desk)
        try followReferences(on: &desk, library: library)
        try addAmountLinks(to: &desk, query: query, anchors: anchors, library: library)
    }

    /// For the best anchors' amounts to the penny on lines that hold a word of the question, the
    /// chunk of another file whose line states the same amount beside a word of the anchor's line
    /// or title (AmountLink): the payment as the bank statement records it, for "how much was
    /// the museum trip and when did we pay?".
    func addAmountLinks(to desk: inout Desk, query: QueryRecord, anchors: [Hit], library: PackLibrary) throws {
        var added = 0
        let asked = Set(TermAnalyzer.contentTerms(query.questionText))
        for anchor in anchors.prefix(settings.linkedAnchors) {
            for link in AmountLink.find(in: anchor.text, title: anchor.title + " " + anchor.fileName, asked: asked) where added < settings.links {
                let stating = try library.chunksStating(amount: link.amount, outside: anchor.docID, filters: query.filters, depth: 10)
                guard let chunk = stating.first(where: { c in c.text.split(whereSeparator: \.isNewline).contains { link.isStated(in: String($0)) } })
                else { continue }
                switch desk.offer(chunk, role: Desk.Role.link) {
                case .placed: added += 1
                case .duplicate: break
                case .overBudget: desk.drop(chunk.chunkID, .overBudget)
                }
            }
        }
    }

    /// An anchor on the desk and the neighbours that may be read around it.
    struct Expansion {
        var passage: Int
        var seq: Int
        var around: [Int: Hit]
        var open = (after: true, before: true)
    }

    /// Puts an anchor on the desk (or finds it there) and fetches its neighbours in its section.
    func place(_ anchor: Hit, width: Int, on desk: inout Desk, library: PackLibrary) throws -> Expansion? {
        var anchor = anchor
        let place = try library.place(of: anchor.chunkID)
        if anchor.seq == nil { anchor.seq = place?.seq }
        let index: Int
        switch desk.offer(anchor, role: Desk.Role.anchor, rank: anchor.rank, score: Self.score(anchor)) {
        case .overBudget:
            desk.drop(anchor.chunkID, .overBudget)
            return nil
        case .placed(let i): index = i
        case .duplicate(let i):
            // Its bytes are all on the desk already (listed, unless the chunk itself is there).
            desk.drop(anchor.chunkID, .duplicate)
            guard let i else { return nil }
            index = i
        }
        // Neighbours only when the library holds this very chunk (not a stale or hand-made hit).
        guard width > 0, let place, let seq = anchor.seq, place.seq == seq else { return nil }
        let around = try library.sectionChunks(docID: anchor.docID, section: place.section, seqs: max(0, seq - width)...(seq + width))
        return Expansion(passage: index, seq: seq, around: around)
    }

    /// Small-to-big: neighbours nearest first, one distance at a time over all anchors in rank
    /// order (after, then before), so that every anchor gets its closest context before any gets
    /// distant context. A side stops at the first neighbour that does not fit, so a passage never
    /// skips over text it could not hold; neighbours already on the desk are passed over.
    func expand(_ expansions: inout [Expansion], width: Int, on desk: inout Desk) {
        guard width > 0 else { return }
        for d in 1...width {
            for i in expansions.indices {
                for after in [true, false] {
                    let e = expansions[i]
                    guard after ? e.open.after : e.open.before else { continue }
                    guard let chunk = e.around[after ? e.seq + d : e.seq - d] else {
                        if after { expansions[i].open.after = false } else { expansions[i].open.before = false }
                        continue
                    }
                    switch desk.offer(chunk, role: Desk.Role.neighbour, into: e.passage) {
                    case .placed: break
                    case .duplicate: desk.drop(chunk.chunkID, .duplicate)
                    case .overBudget:
                        desk.drop(chunk.chunkID, .overBudget)
                        if after { expansions[i].open.after = false } else { expansions[i].open.before = false }
                    }
                }
            }
        }
    }

    /// Up to `settings.lookups` chunks from anywhere in the library where the question's rarest
    /// words sit within a few words of a number, best first.
    func addLookups(to desk: inout Desk, query: QueryRecord, hitRank: [String: (Int, Double?)], library: PackLibrary) throws {
        let total = try library.chunkCount()
        guard total > 0 else { return }
        var rarity: [(term: String, df: Int)] = []
        for t in LookupQuestion.searchTerms(query.text) {
            let df = try library.documentFrequency(t)
            if df > 0 { rarity.append((t, df)) }
        }
        let rare = rarity.sorted { $0.df != $1.df ? $0.df < $1.df : $0.term < $1.term }.prefix(3)
        guard !rare.isEmpty else { return }
        let idf = Dictionary(rare.map { ($0.term, log(1 + Double(total) / Double($0.df))) }, uniquingKeysWith: { a, _ in a })
        // A candidate must hold at least half the rarity of the question's rare words next to
        // numbers: a passage where only the commonest of them meets a number is not a spec table.
        let needed = rare.reduce(0) { $0 + idf[$1.term]! } / 2
        let candidates = try library.lexicalCandidates(rare.map(\.term), filters: query.filters, depth: 30)
        let scored = candidates.enumerated().compactMap { i, c -> (Int, Double, Hit)? in
            let near = LookupQuestion.termsNextToNumbers(in: c.text, terms: rare.map(\.term), window: settings.lookupWindow)
            // Summed in a fixed order: a Set's order changes from run to run, and so would the sum.
            let s = rare.filter { near.contains($0.term) }.reduce(0) { $0 + idf[$1.term]! }
            return s > 0 && s >= needed ? (i, s, c) : nil
        }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        var added = 0
        for (_, _, chunk) in scored where added < settings.lookups {
            if !desk.coverage.newPieces(of: chunk, role: Desk.Role.lookup).isEmpty {
                let known = hitRank[chunk.chunkID]
                switch desk.offer(chunk, role: Desk.Role.lookup, rank: known?.0, score: known?.1 ?? nil) {
                case .placed: added += 1
                case .overBudget: desk.drop(chunk.chunkID, .overBudget)
                case .duplicate: break
                }
            }
        }
    }

    /// Every document of the library (within the query's filters), by its first chunk's opening
    /// lines (up to `catalogueBytes`, cut at a line's end), in path order while the budget lasts:
    /// what an overview of the whole library is written from.
    func addCatalogue(to desk: inout Desk, query: QueryRecord, library: PackLibrary) throws {
        for var chunk in try library.firstChunks(filters: query.filters, limit: settings.catalogueDocuments) {
            let bytes = Array(chunk.text.utf8)
            if bytes.count > settings.catalogueBytes {
                var cut = settings.catalogueBytes
                while cut > 0, bytes[cut - 1] != 0x0A { cut -= 1 }
                if cut == 0 { cut = settings.catalogueBytes; while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 } }
                let kept = Array(bytes[0..<cut])
                chunk.text = String(decoding: kept, as: UTF8.self)
                chunk.span.end = chunk.span.start + kept.count
                chunk.span.lineEnd = chunk.span.lineStart + kept.filter { $0 == 0x0A }.count
            }
            if case .overBudget = desk.offer(chunk, role: Desk.Role.section) {
                desk.drop(chunk.chunkID, .overBudget)
            }
        }
    }

    /// A summary is of a document, not of the passages that happen to share the request's words:
    /// "summarise the meeting notes" retrieves the chunks that say "meeting", and a summary of
    /// those would miss the decisions. So the documents the request names (SummaryScope) go on
    /// the desk by sections: the first chunk of every section in document order, then the second of
    /// every section, and so on while the budget lasts, so a long document is covered across its
    /// sections rather than from its start.
    func addSummarySections(to desk: inout Desk, query: QueryRecord, anchors: [Hit], library: PackLibrary) throws {
        let documents = SummaryScope.documents(subject: SummaryScope.subject(query.text),
                                               candidates: anchors.map { ($0.docID, $0.title + " " + $0.fileName) },
                                               limit: settings.summaryDocuments)
        var taken = 0
        for doc in documents {
            var sections: [[Hit]] = []
            var index: [[String]: Int] = [:]
            for chunk in try library.documentChunks(docID: doc) {
                if let i = index[chunk.section] { sections[i].append(chunk) } else {
                    index[chunk.section] = sections.count
                    sections.append([chunk])
                }
            }
            var full = Set<Int>()
            for round in 0..<(sections.map(\.count).max() ?? 0) {
                for (i, chunks) in sections.enumerated() where round < chunks.count && !full.contains(i) {
                    guard taken < settings.summaryChunks else { return }
                    switch desk.offer(chunks[round], role: Desk.Role.section) {
                    case .placed: taken += 1
                    case .duplicate: break
                    case .overBudget:
                        // A section stops at the first chunk that does not fit, so it never skips text.
                        desk.drop(chunks[round].chunkID, .overBudget)
                        full.insert(i)
                    }
                }
            }
        }
    }

    /// A question asking how to do something is answered by the steps, which need not share its
    /// words: "how do I make the soup?" finds the recipe's title and ingredients, while its
    /// method says "fry", "simmer" and "blend". So the sections headed as steps ("Method",
    /// "Instructions", "How to ...") of the best two hits' documents go on the desk, whole and in
    /// order, while the cap and the budget allow.
    func addStepSections(to desk: inout Desk, anchors: [Hit], library: PackLibrary) throws {
        var documents: [String] = []
        for a in anchors where !documents.contains(a.docID) {
            documents.append(a.docID)
            if documents.count == 2 { break }
        }
        var taken = 0
        for doc in documents {
            for chunk in try library.documentChunks(docID: doc) where ExtractiveComposer.namesSteps(chunk.section.last ?? "") {
                guard taken < settings.stepChunks else { return }
                switch desk.offer(chunk, role: Desk.Role.section) {
                case .placed: taken += 1
                case .duplicate: break
                case .overBudget:
                    desk.drop(chunk.chunkID, .overBudget)
                    return
                }
            }
        }
    }

    /// Sections that packed pieces point at ("see section 7.3"), in the same document.
    func followReferences(on desk: inout Desk, library: PackLibrary) throws {
        var followed: Set<String> = []
        var documents: [String: [Hit]] = [:]
        var budgetLeft = settings.references
        var i = 0
        // Pieces added by a reference are scanned too, so references chain while the cap allows.
        while i < desk.passages.count, budgetLeft > 0 {
            let pieces = desk.passages[i].pieces
            i += 1
            for piece in pieces {
                for ref in CrossReference.find(in: piece.text) where budgetLeft > 0 {
                    let key = piece.docID + "\u{1}" + String(describing: ref.target)
                    guard followed.insert(key).inserted else { continue }
                    if documents[piece.docID] == nil { documents[piece.docID] = try library.documentChunks(docID: piece.docID) }
                    let targets = Self.resolve(ref, in: documents[piece.docID]!, limit: settings.chunksPerReference)
                        .filter { $0.chunkID != piece.chunkID }
                    guard !targets.isEmpty else { continue }
                    budgetLeft -= 1
                    for chunk in targets {
                        switch desk.offer(chunk, role: Desk.Role.reference) {
                        case .placed, .duplicate: break
                        case .overBudget: desk.drop(chunk.chunkID, .overBudget)
                        }
                    }
                }
            }
        }
    }

    /// The chunks a reference names in a document (seq order): the chunks of the section whose
    /// path matches (deepest heading first), or, when the document has no section paths, the
    /// chunk holding a line that reads as the heading, and the next one when the heading sits in
    /// the chunk's last part.
    static func resolve(_ ref: CrossReference, in chunks: [Hit], limit: Int) -> [Hit] {
        let byDeepest = chunks.filter { $0.section.last.map(ref.matches(heading:)) ?? false }
        let byAny = byDeepest.isEmpty ? chunks.filter { $0.section.contains(where: ref.matches(heading:)) } : byDeepest
        if !byAny.isEmpty { return Array(byAny.prefix(limit)) }
        for (i, c) in chunks.enumerated() {
            var offset = 0
            for line in c.text.split(separator: "\n", omittingEmptySubsequences: false) {
                defer { offset += line.utf8.count + 1 }
                guard ref.matches(line: String(line)) else { continue }
                var out = [c]
                if offset * 5 > c.text.utf8.count * 3, i + 1 < chunks.count, chunks[i + 1].section == c.section { out.append(chunks[i + 1]) }
                return Array(out.prefix(limit))
            }
        }
        return []
    }

    // MARK: - Position and prompt

    func finish(_ desk: inout Desk, query: QueryRecord, instructionTokens: Int, lookup: Bool, background: Background? = nil) -> PackedContext {
        while true {
            let order = BothEndsOrder.indices(count: desk.passages.count)
            var evidence: [Evidence] = []
            var blocks: [String] = []
            for (position, index) in order.enumerated() {
                let passage = desk.passages[index]
                let pieces = passage.pieces.map { p -> Evidence in
                    var e = p
                    e.n = position + 1
                    e.rank = passage.rank
                    e.score = passage.score
                    return e
                }
                evidence += pieces
                blocks.append(PromptWriter.passage(pieces, number: position + 1))
            }
            let prompt = PromptWriter.prompt(passages: blocks, question: query.text, reading: query.analysis, background: background)
            let used = instructionTokens + counter.countTokens(prompt) + settings.reserve
            // The sum of passage counts equals the count of the prompt for WordPiece; this guard
            // keeps the budget hard even for a counter where it would not.
            if used > settings.budget, !desk.passages.isEmpty {
                desk.removeLast()
                continue
            }
            let onDesk = Set(evidence.map(\.chunkID))
            var seen: Set<String> = []
            let dropped = desk.dropped.filter { !onDesk.contains($0.chunkID) && seen.insert($0.chunkID).inserted }
            var context = PackedContext(budget: settings.budget, used: used, reserved: settings.reserve, mode: settings.mode,
                                 instructions: PromptWriter.instructions, prompt: prompt, evidence: evidence,
                                 dropped: dropped, lookup: lookup)
            context.background = background
            return context
        }
    }

    /// The hit's rerank score, else its fused score.
    static func score(_ h: Hit) -> Double? { h.scores.rerank ?? h.scores.fused }
}
