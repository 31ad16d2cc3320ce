import Foundation
import PBCore
import PBRetrieval
import PBSQLite
import PBText
import PBDates

/// pb-recall's ranking over one memory: the ranked lists of `RecallList`, fused by weighted
/// rank, never by multiplying scores (a similarity times a decay factor collapses onto recency).
///
/// - meaning: cosine of the question's embedding to every item;
/// - words: FTS5 BM25 over the items (speaker included);
/// - messages: BM25 over whole messages, whose items share its rank (a turn's sentences share
///   their context);
/// - time: when the question names a time ("last month", "in March"), the items that refer to
///   (or, naming none, were said in) that time, in order of meaning;
/// - speaker: when the question names one of the memory's speakers ("what did Anna paint?"),
///   that speaker's items in order of meaning. A question about a person is answered by what
///   that person said: on LoCoMo's first five conversations the evidence of 97% of the
///   answerable questions naming one speaker is that speaker's own turns.
///
/// Then supersession: a superseded item ranks right below the item that replaced it (brought in
/// if the lists missed it), unless the question asks for the earlier state ("original", "before
/// it changed"), when the order is turned round. Hits are one per message.
public final class Recaller {
    public struct Settings: Sendable {
        public var k = 10
        /// How deep each list goes before fusion.
        public var depth = 100
        public var fusionK = 60.0
        public var lists = Set(RecallList.allCases)
        /// Each list's weight in the fusion (a vote of weight / (k + rank)).
        public var weights: [RecallList: Double] = [.meaning: 1, .words: 1, .messages: 2, .time: 2, .speaker: 0.25]
        /// A question found gives its place to the reply (the next message, by another speaker,
        /// within an hour): in a conversation the answer is in the reply, not in the question.
        public var replies = true
        public init() {}
    }

    struct Item {
        var id: Int64
        var message: String
        var type: MemoryItemType
        var text: String
        var start: Int
        var end: Int
        var said: Double
        var saidText: String
        var speaker: String?
        var refStart: Double?
        var refEnd: Double?
        var workstream: String
        var supersededBy: Int64?
        /// The message's place in the memory (messages.seq).
        var seq: Int64
    }

    public let store: MemoryStore
    public var settings: Settings
    private var items: [Item] = []
    private var index: [Int64: Int] = [:]
    private var vectors: [Float] = []
    /// The item each item replaced (the reverse of superseded_by).
    private var predecessor: [Int: Int] = [:]
    /// Each message's items (by message seq), in order.
    private var itemsOfMessage: [Int64: [Int]] = [:]
    private let dimension: Int
    /// The memory's speakers.
    private var speakers: Set<String> = []

    public init(store: MemoryStore, settings: Settings = Settings()) throws {
        self.store = store
        self.settings = settings
        dimension = store.dimension
        let s = try store.db.prepare("""
            SELECT i.id AS item, m.id AS message, i.type, i.text, i.start, i.end, i.said, m.time, m.speaker, i.ref_start,
                   i.ref_end, w.name AS workstream, i.superseded_by, i.vector, m.seq
            FROM items i JOIN messages m ON m.seq = i.message JOIN workstreams w ON w.id = i.workstream ORDER BY i.id
            """)
        while try s.step() {
            let v = s.blob("vector")
            let id = s.int("item")
            guard v.count == dimension * 4 else {
                throw ToolFailure(.badInput, "\(store.path): item \(id) has a vector of \(v.count / 4) values, not \(dimension)")
            }
            index[id] = items.count
            itemsOfMessage[s.int("seq"), default: []].append(items.count)
            items.append(Item(id: id, message: s.text("message"), type: MemoryItemType(rawValue: s.text("type")) ?? .fact, text: s.text("text"),
                              start: Int(s.int("start")), end: Int(s.int("end")), said: s.double("said"), saidText: s.text("time"),
                              speaker: s.optionalText("speaker"), refStart: s.optionalDouble("ref_start"), refEnd: s.optionalDouble("ref_end"),
                              workstream: s.text("workstream"), supersededBy: s.optionalInt("superseded_by"), seq: s.int("seq")))
            vectors += MemoryStore.floats(v)
        }
        for (i, it) in items.enumerated() { if let next = it.supersededBy, let n = index[next] { predecessor[n] = i } }
        speakers = Set(items.compactMap(\.speaker))
    }

    /// What the words lists found for one text: BM25 over the items, and over whole messages
    /// (each as the group of its items).
    struct Lexical {
        var text: String
        var words: [(index: Int, score: Double)] = []
        var groups: [[Int]] = []
    }

    /// One question's ranking before the speaker list: the fused order (superseded items
    /// arranged, questions giving their places to replies), each list, and the scores.
    struct Ranking {
        var order: [Int] = []
        var lists: [(RecallList, [Int])] = []
        var dense: [Int: (score: Double, rank: Int)] = [:]
        var lexical: [Int: (score: Double, rank: Int)] = [:]
        var fused: [Int: Double] = [:]
    }

    /// The query with `hits` (and `lists` when `explain`). `embed`, when given, embeds the
    /// question asked without a speaker's name, for `attribution`.
    public func recall(_ query: QueryRecord, now: Date, explain: Bool = false,
                       embed: ((String) throws -> [Float])? = nil) throws -> QueryRecord {
        var q = query
        let k = q.k ?? settings.k
        guard k >= 1 else { throw ToolFailure(.badInput, "k: expected a positive integer, got \(k)") }
        // A question said as a message (pb-thread remembers it first) never recalls its own words.
        let thread = q.thread, own = q.message
        let allowed: (Int) -> Bool = { [items] i in
            (thread == nil || items[i].workstream == thread) && (own == nil || items[i].message != own)
        }
        var vector: [Float]?
        if settings.lists.contains(.meaning) || settings.lists.contains(.time) || settings.lists.contains(.speaker) {
            guard let e = q.embedding else {
                throw ToolFailure(.badInput, "the query has no embedding: run it through pb-embed first (or --lists words)")
            }
            let v = try e.values()
            guard v.count == dimension else { throw RecordError.badField(name: "embedding", reason: "expected \(dimension) values, got \(v.count)") }
            vector = v
        }
        let who = NamedSpeaker.find(in: q.text, among: speakers)
        // The words lists search without the named speaker's name, which every item of theirs
        // carries (the speaker list weighs it instead): on LoCoMo's tuning split, evidence
        // recall@10 0.737 with the name, 0.750 without.
        let lexicalText = who.map { settings.lists.contains(.speaker) ? NamedSpeaker.withoutName(q.text, speaker: $0, as: "") : q.text } ?? q.text
        let wordsFound = try self.lexical(lexicalText, allowed: allowed)
        var ranking = try rank(lexicalText, lexical: wordsFound, vector: vector, now: now, allowed: allowed)
        var order = ranking.order
        if settings.lists.contains(.speaker), let who {
            order = favouring(who, in: order)
            ranking.lists.append((.speaker, order.filter { items[$0].speaker == who }))
        }
        // A question about one of several things ("the rent for flat 3", "Sam's car") never gets
        // another's: items whose key marks the same noun otherwise are left out.
        let asked = SubjectKey(q.text)
        if !asked.marks.isEmpty {
            // A speaker's "my" is theirs when the question names whose ("Caroline's mom" against
            // Caroline's "my mom"); asked with "my", the asker's own "my" stays theirs.
            let named = asked.marks.values.contains { $0.contains { $0.hasPrefix("@") && $0 != "@me" } }
            order = order.enumerated().filter { n, i in
                n >= settings.depth || !asked.differs(from: SubjectKey(items[i].text, speaker: named ? items[i].speaker : nil))
            }.map(\.element)
        }
        if !SupersessionOrder.asksForEarlier(q.text) { order = latestFirst(order, question: q.text) }
        let never = try unheard(q.text, allowed: allowed)
        q.unheard = never.isEmpty ? nil : never
        if let who, let embed, vector != nil {
            q.attribution = try attribution(q.text, named: who, lexical: wordsFound, embed: embed, now: now, allowed: allowed)
        }
        let lists = ranking.lists, dense = ranking.dense, lexical = ranking.lexical, fusedScore = ranking.fused
        var seen: Set<String> = []
        var hits: [Hit] = []
        for i in order where hits.count < k {
            let it = items[i]
            guard seen.insert(it.message).inserted else { continue }
            let span = SourceSpan(chunkID: "i-\(it.id)", docID: it.message, path: "memory/\(store.name)/\(it.message)",
                                  title: it.workstream, section: it.speaker.map { [$0] } ?? [], start: it.start, end: it.end,
                                  lineStart: 1, lineEnd: 1)
            var hit = Hit(span: span, text: it.text,
                          scores: HitScores(bm25: lexical[i].map { Self.rounded($0.score) }, bm25Rank: lexical[i]?.rank,
                                            dense: dense[i].map { Self.rounded($0.score) }, denseRank: dense[i]?.rank,
                                            fused: fusedScore[i].map(Self.rounded)),
                          rank: hits.count + 1)
            hit.source = [it.message]
            hit.type = it.type
            hit.time = timeText(it)
            hit.said = it.saidText
            hit.speaker = it.speaker
            hit.supersededBy = it.supersededBy.map { "i-\($0)" }
            hits.append(hit)
        }
        q.hits = hits
        if explain { q.lists = Dictionary(uniqueKeysWithValues: lists.map { ($0.0.rawValue, $0.1.prefix(20).map { "i-\(items[$0].id)" }) }) }
        return q
    }

    /// The current state first: a question for a value that changes (an amount, a time, a code,
    /// a number) whose best three items hold two or more values of that kind, each sharing a
    /// word with the question, is answered by the one said last; it moves to the first of their
    /// places. Supersession links what it can read as one thing changing; this catches what it
    /// could not ("Priya agreed the rent review: £960" after "Flat 3: Priya Desai, £925 pcm").
    func latestFirst(_ order: [Int], question: String) -> [Int] {
        guard let kind = QuestionReader.read(question).asks, Self.changingValues.contains(kind) else { return order }
        let asked = Set(TermAnalyzer.contentTerms(question))
        var firsts: [Int] = []
        var messages: Set<Int64> = []
        for (n, i) in order.enumerated() where firsts.count < 3 {
            if messages.insert(items[i].seq).inserted { firsts.append(n) }
        }
        let holding = firsts.filter { n in
            let it = items[order[n]]
            return ValueMentions.holds(kind, in: it.text) && it.supersededBy == nil && !asked.isDisjoint(with: TermAnalyzer.contentTerms(it.text))
        }
        guard holding.count >= 2, let latest = holding.max(by: { items[order[$0]].said < items[order[$1]].said }),
              latest != holding[0] else { return order }
        // The later one is about the same thing only if it holds every word of the question the
        // first one holds: "Sam's party: we need 3 more chairs" is not a new count of "12 people
        // are coming" for "how many people are coming to Sam's party?".
        let shared = { (n: Int) in asked.intersection(TermAnalyzer.contentTerms(self.items[order[n]].text)) }
        guard shared(holding[0]).isSubset(of: shared(latest)) else { return order }
        var out = order
        let moved = out.remove(at: latest)
        out.insert(moved, at: holding[0])
        return out
    }

    static let changingValues: Set<AskedValue> = [.money, .quantity, .number, .date, .time, .code]

    /// The words lists for `text` (those of `settings.lists`).
    func lexical(_ text: String, allowed: (Int) -> Bool) throws -> Lexical {
        var l = Lexical(text: text)
        if settings.lists.contains(.words) { l.words = try words(text, allowed: allowed) }
        if settings.lists.contains(.messages) { l.groups = try messageWords(text, allowed: allowed) }
        return l
    }

    /// The question's ranking by meaning (`vector`), words (`lexical`, found for `text`) and
    /// time, fused by rank.
    func rank(_ text: String, lexical: Lexical, vector: [Float]?, now: Date, allowed: (Int) -> Bool) throws -> Ranking {
        var r = Ranking()
        var meaningOrder: [Int] = []
        if let vector {
            // The searcher's own scores: the cosines it ranked by, not computed a second time.
            let found = meaning(vector, allowed: allowed)
            meaningOrder = found.map(\.row)
            for (n, f) in found.enumerated() { r.dense[f.row] = (Double(f.score), n + 1) }
            if settings.lists.contains(.meaning) { r.lists.append((.meaning, Array(meaningOrder.prefix(settings.depth)))) }
        }
        if settings.lists.contains(.words) {
            for (n, hit) in lexical.words.enumerated() { r.lexical[hit.index] = (hit.score, n + 1) }
            r.lists.append((.words, lexical.words.map(\.index)))
        }
        let groups = lexical.groups
        if settings.lists.contains(.time), let span = Self.askedTime(text, now: now) {
            let inTime = meaningOrder.filter { i in
                let it = items[i]
                let s = it.refStart ?? it.said, e = it.refEnd ?? (it.said + 1)
                return s < span.end.timeIntervalSince1970 && e > span.start.timeIntervalSince1970
            }
            r.lists.append((.time, Array(inTime.prefix(settings.depth))))
        }
        let fused = fuse(r.lists.map { ($0.0, $0.1.map { [$0] }) } + (groups.isEmpty ? [] : [(RecallList.messages, groups)]))
        if !groups.isEmpty { r.lists.append((.messages, groups.map { $0[0] })) }
        r.fused = Dictionary(uniqueKeysWithValues: fused.map { ($0.index, $0.score) })
        r.order = arrangeSuperseded(fused.map(\.index), earlierFirst: SupersessionOrder.asksForEarlier(text), allowed: allowed)
        if settings.replies { r.order = withReplies(r.order, allowed: allowed) }
        return r
    }

    /// Whose words a question about one speaker finds: the question asked again without the
    /// name ("what did someone realize after the charity race?"), embedded anew, and ranked
    /// without the speaker list. The name would pull the ranking to the named speaker's turns
    /// (their items are embedded with their name), which is the point for answering and the
    /// opposite of what this asks.
    ///
    /// The words are the first message's, or, when one of the next two found is an earlier turn
    /// of the same exchange (at most three messages and an hour before it), the earliest such
    /// turn's: "That's awesome news about the internship!" is a reaction, and the internship is
    /// the news of whoever told it. On LoCoMo's tuning split (the first five conversations),
    /// this names another speaker than the one asked about for 75.5% of the adversarial
    /// questions (which ask one speaker about the other's words) and 14.7% of the answerable
    /// ones; the first message alone (with "someone" in the words lists), 70.5% and 17.3%.
    /// `lexical` is the question's own words lists, used again when they were found for the
    /// same text (the name left out).
    func attribution(_ text: String, named who: String, lexical: Lexical, embed: (String) throws -> [Float], now: Date,
                     allowed: (Int) -> Bool) throws -> Attribution? {
        let asked = NamedSpeaker.withoutName(text, speaker: who)
        guard asked != text else { return nil }
        let v = try embed(asked)
        guard v.count == dimension else { return nil }
        // "someone" keeps the sentence whole for the encoder; the words lists search without it.
        let bare = NamedSpeaker.withoutName(text, speaker: who, as: "")
        let words = lexical.text == bare ? lexical : try self.lexical(bare, allowed: allowed)
        let r = try rank(bare, lexical: words, vector: v, now: now, allowed: allowed)
        var firsts: [Int] = []
        var seen: Set<Int64> = []
        for i in r.order where firsts.count < 3 {
            if seen.insert(items[i].seq).inserted { firsts.append(i) }
        }
        guard let top = firsts.first else { return nil }
        var owner = top
        for i in firsts.dropFirst() {
            let it = items[i], t = items[top]
            if it.seq < items[owner].seq, it.seq >= t.seq - 3, t.said - it.said <= 3600 { owner = i }
        }
        let it = items[owner]
        return Attribution(named: who, asked: asked, speaker: it.speaker, source: [it.message], text: it.text)
    }

    /// The ranking fused once more with the named speaker's own items in their order: a vote
    /// of 1 / (k + rank) for every place, and the speaker's weight / (k + rank among theirs).
    /// After the replies, not as a filter: the answer to "what pets does Anna have?" is often
    /// Anna's reply to the other speaker's question, found through that question.
    private func favouring(_ who: String, in order: [Int]) -> [Int] {
        let w = settings.weights[.speaker] ?? 1
        var score: [Int: Double] = [:]
        var own = 0
        for (r, i) in order.enumerated() {
            score[i] = 1 / (settings.fusionK + Double(r + 1))
            if items[i].speaker == who {
                own += 1
                score[i]! += w / (settings.fusionK + Double(own))
            }
        }
        let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        return order.sorted { a, b in score[a]! != score[b]! ? score[a]! > score[b]! : place[a]! < place[b]! }
    }

    /// A question found gives its place to the reply (the next message, by another speaker,
    /// within an hour), and goes to the end of the ranking: in a conversation the answer to what
    /// a question matched is in the reply.
    private func withReplies(_ order: [Int], allowed: (Int) -> Bool) -> [Int] {
        var out: [Int] = []
        var deferred: [Int] = []
        var placed: Set<Int> = []
        for i in order where !placed.contains(i) {
            let it = items[i]
            if it.type == .question, let next = itemsOfMessage[it.seq + 1]?.first, allowed(next),
               items[next].said - it.said <= 3600, items[next].speaker != it.speaker || it.speaker == nil {
                if placed.insert(next).inserted { out.append(next) }
                deferred.append(i)
                continue
            }
            placed.insert(i)
            out.append(i)
        }
        for i in deferred where placed.insert(i).inserted { out.append(i) }
        return out
    }

    /// Weighted reciprocal rank fusion; ties by the best single rank, then by item order.
    /// A list's entries are groups: a message's items share its rank in the messages list.
    private func fuse(_ lists: [(RecallList, [[Int]])]) -> [(index: Int, score: Double)] {
        var score: [Int: Double] = [:]
        var best: [Int: Int] = [:]
        for (name, list) in lists {
            let w = settings.weights[name] ?? 1
            for (r, group) in list.enumerated() {
                for i in group {
                    score[i, default: 0] += w / (settings.fusionK + Double(r + 1))
                    best[i] = min(best[i] ?? Int.max, r + 1)
                }
            }
        }
        return score.map { (index: $0.key, score: $0.value) }.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if best[a.index]! != best[b.index]! { return best[a.index]! < best[b.index]! }
            return a.index < b.index
        }
    }

    /// The messages BM25 ranks for the question's words (speaker included), each as the group of
    /// its items: a turn's sentences share its words and its rank.
    private func messageWords(_ text: String, allowed: (Int) -> Bool) throws -> [[Int]] {
        guard let match = LexicalQuery.match(text) else { return [] }
        let s = try store.db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY bm25(messages_fts) LIMIT ?")
        try s.bind([.text(match), .int(Int64(settings.depth))])
        var out: [[Int]] = []
        while try s.step() {
            let group = (itemsOfMessage[s.int(0)] ?? []).filter(allowed)
            if !group.isEmpty { out.append(group) }
        }
        return out
    }

    /// The `depth` allowed items nearest `v` by cosine, best first, with their cosines.
    private func meaning(_ v: [Float], allowed: (Int) -> Bool) -> [(row: Int, score: Float)] {
        let found = vectors.withUnsafeBufferPointer { rows in
            DenseSearcher(dim: dimension).search(rows: rows, queries: [v], k: max(settings.depth, 1)) { _, row in allowed(row) }
        }
        return found.first ?? []
    }

    /// The question's words that no allowed item holds, of those that name a thing one can point
    /// at: nouns only, of a person, an object, a place, food ("sister", "microchip", "Canada"). A
    /// verb ("ring", "leave"), a word that asks ("number", "time"), an abstraction or a month may
    /// be said otherwise. Without WordNet, none.
    func unheard(_ text: String, allowed: (Int) -> Bool) throws -> [String] {
        guard let wordnet = WordNet.shared else { return [] }
        var out: [String] = []
        let words = LexicalQuery.terms(text)
        for w in words where w.count >= 3 && !out.contains(w) && !TermAnalyzer.isStopword(w)
            && !w.contains(where: \.isNumber) && !TermAnalyzer.questionVocabulary.contains(TermAnalyzer.stem(w))
            && !Self.notThings.contains(w) {
            let forms = wordnet.baseForms(w)
            // A noun only ("mobile", "dental", "original" describe as often as they name), for a
            // thing one can point at: a person, an object, a place, food (lexnames(5)); an
            // abstraction ("ability", "event", "reaction") or a month is said in other words.
            // A name WordNet does not know is left to gate H's names: a question's typo ("Andew")
            // would read as never said.
            let names = !forms.isEmpty && forms.allSatisfy { $0.0 == .noun } && wordnet.nounFile(w).map(WordNet.concreteNounFiles.contains) == true
            guard names else { continue }
            // A noun before another names what kind the second is ("burglar alarm", "piano
            // teacher"): the second is the thing asked about.
            if let next = Self.wordAfter(w, in: words), wordnet.baseForms(next).contains(where: { $0.0 == .noun }),
               !Self.possessive(w, in: text) { continue }
            // An item holds it, or the message index does (a greeting, the speaker's name: words
            // of a message that none of its items kept).
            let heard = try holds(w, in: "items_fts") { index[$0].map(allowed) == true }
                || holds(w, in: "messages_fts") { itemsOfMessage[$0]?.contains(where: allowed) == true }
            if !heard { out.append(w) }
        }
        return out
    }

    /// The word after the first `w` of `words`.
    static func wordAfter(_ w: String, in words: [String]) -> String? {
        guard let i = words.firstIndex(of: w), i + 1 < words.count else { return nil }
        return words[i + 1]
    }

    /// Whether `w` is said as an owner in `text` ("Priya's sister's number": "sister").
    static func possessive(_ w: String, in text: String) -> Bool {
        let t = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        return t.contains(w + "'s ") || t.contains(w + "' ")
    }

    /// Whether a row of the FTS5 `table` holds `word` and is `allowed` (by its rowid).
    private func holds(_ word: String, in table: String, allowed: (Int64) -> Bool) throws -> Bool {
        let s = try store.db.prepare("SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT 500")
        defer { s.reset() }
        try s.bind([.text("\"" + word.replacingOccurrences(of: "\"", with: "") + "\"")])
        while try s.step() {
            if allowed(s.int(0)) { return true }
        }
        return false
    }

    /// Nouns that name no thing of their own: who or what in general, and times a question is
    /// asked at ("at the moment", "yesterday").
    static let notThings: Set<String> = [
        "anything", "something", "everything", "nothing", "anyone", "someone", "everyone", "anybody", "somebody", "everybody",
        "nobody", "moment", "yesterday", "today", "tomorrow", "tonight", "week", "weekend", "month", "morning", "evening",
        "afternoon", "night", "day", "days", "per", "plan", "idea", "thing", "stuff", "people", "person", "whose",
    ]

    /// The items BM25 ranks for the question's words.
    private func words(_ text: String, allowed: (Int) -> Bool) throws -> [(index: Int, score: Double)] {
        guard let match = LexicalQuery.match(text) else { return [] }
        let s = try store.db.prepare("SELECT rowid, bm25(items_fts) FROM items_fts WHERE items_fts MATCH ? ORDER BY bm25(items_fts) LIMIT ?")
        try s.bind([.text(match), .int(Int64(settings.depth * 4))])
        var out: [(Int, Double)] = []
        while try s.step(), out.count < settings.depth {
            guard let i = index[s.int(0)], allowed(i) else { continue }
            out.append((i, -s.double(1)))
        }
        return out
    }

    /// The time a question asks about, resolved against `now`; a question in the past tense
    /// ("what did I decide in March?") means the last such time, not the next.
    static func askedTime(_ text: String, now: Date) -> (start: Date, end: Date)? {
        let zone = TimeZone(secondsFromGMT: 0)!
        let dates = NaturalDateParser(now: now, timeZone: zone)
        guard let span = ItemExtractor.referredTime(text, words: LexicalQuery.terms(text), said: now, zone: zone, dates: dates) else { return nil }
        return (span.start, span.end)
    }

    /// Superseded items below their successors (brought in when missing), or above them when
    /// the question asks for the earlier state.
    private func arrangeSuperseded(_ order: [Int], earlierFirst: Bool, allowed: (Int) -> Bool) -> [Int] {
        var out: [Int] = []
        var placed: Set<Int> = []
        func latest(_ i: Int) -> Int {
            var j = i
            var guardCount = 0
            while let next = items[j].supersededBy, let n = index[next], guardCount < 64 { j = n; guardCount += 1 }
            return j
        }
        for i in order where !placed.contains(i) {
            if earlierFirst {
                // The states before this one, oldest first, then this one.
                var chain: [Int] = []
                var j = i
                while let p = predecessor[j], !placed.contains(p), allowed(p), chain.count < 64 { chain.append(p); j = p }
                for p in chain.reversed() + [i] { out.append(p); placed.insert(p) }
                continue
            }
            guard items[i].supersededBy != nil else {
                out.append(i)
                placed.insert(i)
                continue
            }
            let head = latest(i)
            if head != i, allowed(head), !placed.contains(head) {
                out.append(head)
                placed.insert(head)
            }
            out.append(i)
            placed.insert(i)
        }
        return out
    }

    private func timeText(_ it: Item) -> String? {
        guard let s = it.refStart, let e = it.refEnd else { return nil }
        let format = DateValueFormat(timeZone: Rememberer.zone(of: it.saidText))
        let a = format.date(Date(timeIntervalSince1970: s)), b = format.date(Date(timeIntervalSince1970: e - 1))
        return a == b ? a : "\(a)/\(b)"
    }

    static func rounded(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }
}
