import PBText
import Foundation
import PBCore
import PBNeural
import PBRetrieval

/// The default writer: answers by quoting the evidence sentences that best answer the question,
/// each cited by its exact byte span. Deterministic and offline; it can decline ("That isn't in
/// your documents.") when no sentence holds any of the question's terms or meaning.
public final class ExtractiveComposer {
    public static let declined = Abstention.phrase

    public struct Settings: Sendable, Equatable {
        /// Sentences in a fact answer at most (one more for a question of several parts); a further
        /// sentence must also add question terms the first lacks. One is the default: measured on
        /// SQuAD, a second sentence more often cites a passage without the answer than it helps.
        public var maxSentences = 1
        /// A further sentence must score at least this share of the best one.
        public var closeness = 0.85
        /// Sections in a summary answer, and sentences per section.
        public var summarySections = 10
        public var summaryPerSection = 1
        /// Sentences in a summary at most: its stated length.
        public var summarySentences = 10
        /// Sentences embedded (the best by the lexical score): bounds the cost per question.
        public var embedTop = 8
        /// Below this score no sentence is taken as an answer.
        public var floor = 0.12
        /// Table rows in an amount answer at most, when several match the question as fully.
        public var tableRows = 6
        /// Documents an overview lists at most.
        public var overviewDocuments = 25
        public init() {}

        public static func forMode(_ mode: Mode) -> Settings {
            var s = Settings()
            switch mode {
            case .fast: s.embedTop = 4; s.summarySections = 5; s.summarySentences = 5
            case .standard: break
            case .deep: s.maxSentences = 2; s.embedTop = 16; s.summarySections = 16; s.summarySentences = 16
            }
            return s
        }
    }

    public var settings: Settings
    public var scorer = SentenceScorer()
    private let sentencer: EvidenceSentences
    private let encoder: MiniLMEncoder?
    /// Where the pooled vectors go for pb-verify, which embeds many of the same texts.
    private let cache: SentenceVectorCache?

    /// `encoder` nil: lexical scoring only (the model is optional for this stage).
    public init(settings: Settings = Settings(), encoder: MiniLMEncoder?, cache: SentenceVectorCache? = nil) throws {
        self.cache = cache
        self.settings = settings
        self.encoder = encoder
        sentencer = try EvidenceSentences()
    }

    /// The answer for a question over its packed context.
    public func compose(question: String, context: PackedContext?, reading: QuestionReading? = nil) -> AnswerRecord {
        let clock = ContinuousClock()
        let began = clock.now
        let reading = reading ?? QuestionReader.read(question)
        var q = QuestionAnalysis(question)
        // Two parts asked at once ("... and when does it start?"): each part's kind is its own.
        let askedTwoThings = q.multiPart && reading.intent != .compare
        // A comparison gives both values, each from its own sentence.
        if reading.intent == .compare { q.multiPart = true }
        let all = context?.evidence ?? []
        // From a memory, a question about one speaker is answered in that speaker's words
        // (NamedSpeaker): another speaker's turn is not what the named one did or said.
        let named = NamedSpeaker.find(in: question, among: all.compactMap(\.speaker))
        let spoken = named.map { who in all.filter { $0.speaker == nil || $0.speaker == who } } ?? all
        // An item a later one replaced is not the answer while its successor is on the desk,
        // unless the question asks for the earlier state ("what was the original code?").
        // unless the question asks for the earlier state ("what was the original code?"): then
        // the item that replaced it is not.
        let onDesk = Set(spoken.map(\.chunkID))
        let replacing = Set(spoken.compactMap(\.supersededBy))
        let evidence = SupersessionOrder.asksForEarlier(question)
            ? spoken.filter { !replacing.contains($0.chunkID) || $0.supersededBy != nil }
            : spoken.filter { e in e.supersededBy.map { !onDesk.contains($0) } ?? true }
        // What someone asked is not an answer: from a memory a question said earlier ("what is the
        // gym code?") is found by the same words as the question now, and would be quoted back.
        let memoryChunks = Set(evidence.filter { $0.said != nil }.map(\.chunkID))
        let sentences = sentencer.sentences(evidence).filter { s in
            !(memoryChunks.contains(s.chunkID) && s.text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("?"))
        }
        var passageRank: [Int: Int] = [:]
        for e in evidence { passageRank[e.n] = min(passageRank[e.n] ?? Int.max, e.rank ?? 20) }
        // A table's header row names its columns; it answers nothing.
        var headers = Set(evidence.compactMap { $0.header.map(Self.normalised) })
        // An overview or a summary says what documents are; every other answer is a statement.
        let describing = q.wantsSummary || reading.intent == .summarize || reading.intent == .overview
        // Nor is a document's title or a heading ("Halvard WD-8614 Washer Dryer" matches every
        // question about the washer dryer and says nothing about any), except in an overview or
        // a summary, which may open with what a document is.
        if !describing {
            for e in evidence {
                for name in [e.title] + e.section where !name.isEmpty { headers.insert(Self.normalised(name)) }
            }
            headers.remove("")
        }
        let titles = describing ? [:] : Dictionary(evidence.map { ($0.n, Set(TermAnalyzer.tokens($0.title))) }, uniquingKeysWith: { a, _ in a })
        let answering = sentences.filter { s in
            !headers.contains(Self.normalised(s.text)) && !Self.isTitleLine(s.text, title: titles[s.n] ?? [])
        }
        // A value of a kind tables hold (an amount, a quantity, a code) is as likely in a row as
        // in a sentence: rows are not discounted then ("is the washing capacity bigger than the
        // drying capacity?" is two rows of the specification table).
        var scored = scorer.lexical(q, answering, passageRank: passageRank, rowsAnswer: Self.strictKind(reading) != nil,
                                    titleNamesDocument: reading.intent == .procedure)
        // A code in the question ("E20", "A4", "X200") names exactly one thing: where some
        // sentences hold it, a sentence without it is about something else.
        let codes = q.terms.filter(SentenceScorer.isCode)
        if !codes.isEmpty, !describing, scored.contains(where: { !$0.matched.isDisjoint(with: codes) }) {
            scored = scored.filter { !$0.matched.isDisjoint(with: codes) }
        }
        // A table row reads as "Column: cell" under its header, in the answer and when looking
        // for the value asked for ("Amount (EUR): 129.00" is an amount; "129.00" alone is not).
        var rows = Self.labelledRows(sentences, evidence: evidence, question: question)
        // A lookup is answered by a value of the kind it asks for: a sentence without one (a
        // lead-in, a header row, another kind of number) is not an answer, however well it matches.
        // From a memory, when something was said or happened is the item's own date (its
        // `time` and `said`), which the answer opens with: the words need not hold one.
        let fromMemory = !evidence.isEmpty && evidence.allSatisfy { $0.said != nil }
        // A question of two parts ("how much is the deposit and when does the tenancy start?")
        // asks two kinds of thing: each part's sentence is looked for as before.
        if let kind = Self.strictKind(reading), !(kind == .date && fromMemory), !askedTwoThings {
            let own = Set(ValueMentions.find(kind, measure: reading.measure, in: question).map { ValueMentions.normalised($0.text) })
            scored = scored.filter { s in
                let text = rows[Self.key(s.sentence)] ?? s.sentence.text
                return ValueMentions.holds(kind, measure: reading.measure, in: text, excluding: own,
                                           tableRow: SentenceScorer.isTableRow(s.sentence))
            }
            // And only where the question's subject is: its key words in the passage, as gate H
            // checks ("the landlord's phone number" is not the dishwasher service line).
            // A memory's items are said in passing ("they changed it, it's 5190 now"): what they
            // are about is its own question, not their words.
            if Self.bindsKey(reading), !fromMemory {
                let bound = Self.boundPassages(question, evidence: evidence)
                scored = scored.filter { bound.contains($0.sentence.n) }
            }
        }
        addMeaning(q, &scored, rows: rows)

        var chosen: [SentenceScorer.Scored]
        if reading.intent == .overview {
            chosen = overview(question, scored, evidence: evidence, rendered: &rows)
        } else if q.wantsSummary || reading.intent == .summarize {
            chosen = summary(q, scored, passageRank: passageRank, evidence: evidence)
        } else if reading.intent == .procedure, let steps = procedure(scored, all: sentences, rendered: &rows) {
            chosen = steps
        } else {
            chosen = facts(q, scored, comparing: reading.intent == .compare)
            if reading.intent == .lookup || reading.intent == .when {
                let answer = chosen.map(\.sentence)
                // Another file's record of the same payment (pb-pack's link) or of the same thing.
                let bridges = AmountLink.statements(of: answer, among: sentences, evidence: evidence)
                    + [EvidenceBridge.sentence(question: question, answer: answer, sentences: sentences, evidence: evidence)].compactMap { $0 }
                for bridge in bridges where !chosen.contains(where: { Self.key($0.sentence) == Self.key(bridge) }) {
                    chosen.append(SentenceScorer.Scored(sentence: bridge, overlap: 0, cosine: nil, maxSim: nil, expectation: 0, score: 0, matched: []))
                }
            }
        }
        let route: AnswerRoute = describing && !chosen.isEmpty ? .summary : .extractive
        // "When ...?" from a memory: the answer opens with the date its evidence refers to.
        let opening = q.expectation == .time && route == .extractive
            ? chosen.first.flatMap { c in evidence.first { $0.chunkID == c.sentence.chunkID && $0.n == c.sentence.n } }.flatMap(EvidenceDate.phrase(of:))
            : nil
        var answer = Self.assemble(chosen.map(\.sentence), route: route, opening: opening, rows: rows)
        if fromMemory, route == .extractive, !askedTwoThings, reading.intent != .compare {
            answer = MemoryAnswer.shortened(answer, question: question, reading: reading, expectsTime: q.expectation == .time,
                                            opening: opening, speakers: Set(all.compactMap(\.speaker)))
        }
        answer.receipt = Receipt(extractiveWith: ["compose_ms": Self.milliseconds(clock.now - began)])
        return answer
    }

    /// A line that only repeats words of its document's title ("Halvard WD-8614 Washer Dryer"
    /// in "Halvard WD-8614 Washer Dryer: User Manual"): the document's name, not a statement.
    static func isTitleLine(_ text: String, title: Set<String>) -> Bool {
        guard !title.isEmpty else { return false }
        let words = TermAnalyzer.tokens(text)
        guard (1...10).contains(words.count), let last = text.trimmingCharacters(in: .whitespacesAndNewlines).last,
              !".!?".contains(last) else { return false }
        return words.allSatisfy(title.contains)
    }

    /// A sentence's identity on the desk: its file and byte span.
    static func key(_ s: EvidenceSentence) -> String { "\(s.path)\u{1F}\(s.start)\u{1F}\(s.end)" }

    /// Table rows with a known header, read as "Column: cell; Column: cell", by sentence key.
    /// A question naming some of the columns ("what is the buildings excess for ...?") gets the
    /// row's first cell and those columns: the cell under the matching column, in the matching row.
    static func labelledRows(_ sentences: [EvidenceSentence], evidence: [Evidence], question: String = "") -> [String: String] {
        var out: [String: String] = [:]
        let asked = Set(TermAnalyzer.contentTerms(question))
        // A column is named by the share of its header's words in the question, leaving out the
        // words every column of such a table holds: "buildings" names "Buildings excess";
        // "excess", in every column, names none.
        let names = { (header: String) -> Double in
            let words = Set(TermAnalyzer.contentTerms(header))
            guard !words.isEmpty else { return 0 }
            return Double(words.intersection(asked).subtracting(["excess", "cost", "price", "amount", "total"]).count) / Double(words.count)
        }
        for s in sentences where SentenceScorer.isTableRow(s) {
            guard s.piece < evidence.count, let header = evidence[s.piece].header else { continue }
            let csv = s.path.lowercased().hasSuffix(".csv")
            if let text = TableRow.labelled(s.text, header: header, csv: csv, naming: names) {
                out[key(s)] = text
            }
        }
        return out
    }

    /// The passages (by number) that hold enough of the question's key words, in their text,
    /// title, file name or headings (KeyTerms' rule, as gate H checks it).
    static func boundPassages(_ question: String, evidence: [Evidence]) -> Set<Int> {
        let key = KeyTerms(question)
        return Set(namedPassages(evidence).compactMap { n, t in key.binding(in: TermMatcher(t)).binds ? n : nil })
    }

    /// Each passage's text with its pieces' titles, file names and headings, by passage number:
    /// what a question's key words are looked for in.
    static func namedPassages(_ evidence: [Evidence]) -> [Int: String] {
        var text: [Int: String] = [:]
        for e in evidence {
            text[e.n, default: ""] += "\n" + e.text + "\n" + ([e.title, e.fileName] + e.section).joined(separator: "\n")
        }
        return text
    }

    /// Whether a lookup's passage must hold the question's key words (KeyTerms): for the values
    /// a household's papers hold many of (amounts, quantities, numbers to call, codes, times).
    /// Not for a date: "when did Dyrrachium fall?" is answered by a passage that says "taken".
    static func bindsKey(_ r: QuestionReading) -> Bool {
        guard let kind = strictKind(r) else { return false }
        return kind != .date
    }

    /// The value kinds a lookup's answer must hold, to be answered at all. Counts, names and
    /// yes/no are read from prose in too many forms to filter by ("a dozen", "the Normans"): the
    /// scorer prefers sentences with them and gate H checks what it can.
    static func strictKind(_ r: QuestionReading) -> AskedValue? {
        guard r.intent == .lookup || r.intent == .when || r.intent == .compare, let kind = r.asks else { return nil }
        switch kind {
        case .money, .quantity, .phone, .email, .address, .code, .time, .date: return kind
        case .number, .name, .yesNo: return nil
        }
    }

    /// The steps of a task: a list of two or more items ("1.", "2)", "-", "•", "Step 3") in the
    /// section of one of the best sentences, from its first item to its last, in source order, so
    /// that "how do I clean the filter?" gets every step and not the one sharing most words. A
    /// numbered list, and one under a heading such as "Method" or "Steps", is preferred to a list
    /// of bullets ("how do I make the soup?" is the method, not the ingredients). A marker on a
    /// line of its own ("1." as groff and some PDFs lay out a list) is put before its step.
    func procedure(_ scored: [SentenceScorer.Scored], all: [EvidenceSentence],
                   rendered: inout [String: String]) -> [SentenceScorer.Scored]? {
        let ranked = scored.sorted { $0.score != $1.score ? $0.score > $1.score : ($0.sentence.n, $0.sentence.start) < ($1.sentence.n, $1.sentence.start) }
        var best: (steps: [EvidenceSentence], value: Double)?
        var tried: Set<String> = []
        // The best sentences' sections, and in their documents every section headed as steps
        // ("Method" under a recipe whose ingredients share more of the question's words).
        var tops = Array(ranked.prefix(6).filter { $0.score >= settings.floor })
        let paths = Set(tops.prefix(3).map(\.sentence.path))
        for s in ranked where paths.contains(s.sentence.path) && Self.namesSteps(s.sentence.section.last ?? "")
            && !tops.contains(where: { $0.sentence.section == s.sentence.section && $0.sentence.path == s.sentence.path }) {
            tops.append(s)
        }
        for top in tops {
            let s0 = top.sentence
            guard tried.insert(s0.path + "\u{1F}" + s0.section.joined(separator: "\u{1F}")).inserted else { continue }
            var seen: Set<Int> = []
            let section = all.filter { $0.path == s0.path && $0.section == s0.section }
                .sorted { $0.start < $1.start }.filter { seen.insert($0.start).inserted }
            let items = section.indices.filter { Self.isListItem(section[$0].text) || Self.isBareMarker(section[$0].text) }
            // Lists are runs of items at most three sentences apart; the run taken is the one
            // the best sentence is in or leads into (a heading or a warning just before it).
            guard let at = section.firstIndex(where: { $0.start == s0.start }) else { continue }
            var runs: [[Int]] = []
            for i in items {
                if let last = runs.last?.last, i - last <= 3 { runs[runs.count - 1].append(i) } else { runs.append([i]) }
            }
            guard let run = runs.first(where: { $0.count >= 2 && at >= $0.first! - 3 && at <= $0.last! }),
                  let first = run.first, var last = run.last else { continue }
            // A step's text after a marker of its own line belongs to the run.
            if Self.isBareMarker(section[last].text), last + 1 < section.count { last += 1 }
            let steps = Array(section[first...last].prefix(30))
            let numbered = steps.contains { Self.isBareMarker($0.text) || ($0.text.first?.isNumber ?? false) }
            let named = Self.namesSteps(s0.section.last ?? "")
            let value = top.score + (numbered ? 0.4 : 0) + (named ? 0.3 : 0)
            if best.map({ value > $0.value }) ?? true { best = (steps, value) }
        }
        guard let steps = best?.steps else { return nil }
        var out: [SentenceScorer.Scored] = []
        var marker: String?
        for s in steps {
            if Self.isBareMarker(s.text) { marker = s.text.trimmingCharacters(in: .whitespacesAndNewlines); continue }
            if let m = marker { rendered[Self.key(s)] = m + " " + Self.flatten(s.text); marker = nil }
            out.append(scored.first { $0.sentence.start == s.start && $0.sentence.path == s.path }
                ?? SentenceScorer.Scored(sentence: s, overlap: 0, cosine: nil, maxSim: nil, expectation: 0, score: 0, matched: []))
        }
        return out.count >= 2 ? out : nil
    }

    /// What the library holds: one line per document on the desk ("file name: its best
    /// sentence"), for a topic ("which files are about the boiler?") only the documents whose
    /// passages, title or file name hold a word of it, best first; for the whole library every
    /// document on the desk (pb-pack's catalogue), by path, each by its opening sentence.
    func overview(_ question: String, _ scored: [SentenceScorer.Scored], evidence: [Evidence],
                  rendered: inout [String: String]) -> [SentenceScorer.Scored] {
        let topic = QuestionReader.overviewTopic(question)
        // A topic word, or a word WordNet gives for it ("job": employment), names the subject.
        let alternatives = topic.map { t in [[t]] + (WordNet.shared?.synonyms(of: t, senses: 2) ?? []).map { TermAnalyzer.contentTokens($0) }.filter { !$0.isEmpty } }
        var byPath: [String: [SentenceScorer.Scored]] = [:]
        for s in scored where TermAnalyzer.tokens(s.sentence.text).count >= 3 { byPath[s.sentence.path, default: []].append(s) }
        var text: [String: String] = [:]
        var naming: [String: String] = [:]
        for e in evidence {
            text[e.path, default: ""] += "\n" + e.text + "\n" + e.title + "\n" + e.fileName
            naming[e.path] = e.title + "\n" + e.fileName + "\n" + (e.path.split(separator: "/").last.map(String.init) ?? "")
        }
        var lines: [(path: String, pick: SentenceScorer.Scored, value: Double, named: Bool)] = []
        for (path, list) in byPath {
            if !topic.isEmpty {
                let m = TermMatcher(text[path] ?? "")
                guard alternatives.contains(where: { $0.contains { $0.allSatisfy(m.contains) } }) else { continue }
            }
            let pick = topic.isEmpty
                ? list.min { ($0.sentence.start, $0.sentence.n) < ($1.sentence.start, $1.sentence.n) }!
                : list.max { $0.score != $1.score ? $0.score < $1.score : $0.sentence.start > $1.sentence.start }!
            // A document whose title or file name names the topic is about it, first of all.
            let names = TermMatcher(naming[path] ?? "")
            let named = !topic.isEmpty && alternatives.contains { $0.contains { $0.allSatisfy(names.contains) } }
            lines.append((path, pick, list.map(\.score).max() ?? 0, named))
        }
        lines.sort { a, b in
            if topic.isEmpty { return a.path < b.path }
            if a.named != b.named { return a.named }
            return a.value != b.value ? a.value > b.value : a.path < b.path
        }
        if !topic.isEmpty, let best = lines.map(\.value).max() {
            // Documents that only brush the topic are not about it.
            lines = lines.filter { $0.named || $0.value >= 0.5 * best }
        }
        return lines.prefix(settings.overviewDocuments).map { line in
            let name = line.pick.sentence.path.split(separator: "/").last.map(String.init) ?? line.pick.sentence.path
            rendered[Self.key(line.pick.sentence)] = "\(name): " + Self.flatten(line.pick.sentence.text)
            return line.pick
        }
    }

    /// A heading over the steps of a task: "Method", "Steps", "Instructions", "How to ...".
    static func namesSteps(_ heading: String) -> Bool {
        let h = heading.lowercased()
        return ["method", "step", "instruction", "procedure", "how to", "directions", "what to do", "to make a claim", "cleaning", "reset"]
            .contains { h.contains($0) }
    }

    /// A list marker alone: "1.", "12)", "(3)", "a)".
    static func isBareMarker(_ text: String) -> Bool {
        LayoutTables.isNumberMarker(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A numbered or bulleted line: "1.", "2)", "(3)", "a)", "-", "•", "*", "Step 4".
    static func isListItem(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("- ") || t.hasPrefix("• ") || t.hasPrefix("* ") || t.hasPrefix("– ") { return true }
        if t.lowercased().hasPrefix("step ") { return true }
        let head = t.prefix { $0.isNumber }
        if !head.isEmpty, head.count <= 2 {
            let rest = t.dropFirst(head.count)
            return rest.hasPrefix(". ") || rest.hasPrefix(") ") || rest.hasPrefix(".\t") || rest.hasPrefix("\t")
        }
        return false
    }

    /// Meaning for the best sentences by the lexical score: one encoder pass gives both the
    /// pooled cosine to the question and the MaxSim of the question's tokens over the sentence's.
    /// A table row is compared as the answer would read it, under its header ("Description:
    /// FERNHILL ANALYTICS SALARY; Balance: 2823.16"), not as the bare cells the encoder cannot read.
    private func addMeaning(_ q: QuestionAnalysis, _ scored: inout [SentenceScorer.Scored], rows: [String: String] = [:]) {
        guard let encoder, !scored.isEmpty else { return }
        let order = scored.indices.sorted { scored[$0].score != scored[$1].score ? scored[$0].score > scored[$1].score : $0 < $1 }
        var top = Array(order.prefix(settings.embedTop))
        // And for each question word, the best sentence holding it: a sentence with the one word
        // that matters ("descale") is compared by meaning, though sentences that repeat the
        // document's name ("washer dryer") outscore it by words.
        for t in q.terms {
            if let i = order.first(where: { scored[$0].matched.contains(t) }), !top.contains(i) { top.append(i) }
        }
        guard !top.isEmpty else { return }
        // A line of a calendar event or a contact ("When: Thursday 24 April 2025, 09:40") means
        // little without the record's name ("Dentist - Nell check-up"): it is compared with it.
        let texts = [q.text] + top.map { i -> String in
            let s = scored[i].sentence
            if let row = rows[Self.key(s)] { return row }
            return SentenceScorer.isRecordFile(s.path) && !s.heading.isEmpty ? s.heading + ". " + s.text : s.text
        }
        let states = encoder.tokenStates(texts)
        // tokenStates' pooled vector is embed's, bit for bit, at the same 256-token window.
        cache?.store(zip(texts, states).map { (text: $0.0, vector: $0.1.pooled) })
        for (k, i) in top.enumerated() {
            let cos = UnitVectors.cosine(states[0].pooled, states[k + 1].pooled)
            let maxSim = LateInteraction.maxSim(query: states[0], document: states[k + 1])
            scorer.withMeaning(&scored, at: i, cosine: cos, maxSim: Double(maxSim))
        }
    }

    /// The best sentence, then up to maxSentences-1 close ones that add question terms not yet held.
    /// `comparing`: the question compares two values, which may be stated in the same words
    /// ("you must give the Company two months' notice", "the Company will give you three months'
    /// notice"): a close sentence stating other numbers is the second value, though it adds no word.
    func facts(_ q: QuestionAnalysis, _ scored: [SentenceScorer.Scored], comparing: Bool = false) -> [SentenceScorer.Scored] {
        let ranked = scored.sorted { $0.score != $1.score ? $0.score > $1.score : ($0.sentence.n, $0.sentence.start) < ($1.sentence.n, $1.sentence.start) }
        guard let best = ranked.first, best.score >= settings.floor, !best.matched.isEmpty || (best.cosine ?? 0) > 0.35 else { return [] }
        var chosen = [best]
        var held = best.matched
        var quotes: Set<String> = [Self.normalised(best.sentence.text)]
        let limit = settings.maxSentences + (q.multiPart ? 1 : 0)
        // A further sentence must hold question words the chosen ones lack. For a question of
        // several parts it is the one holding most of them (each part has its own best sentence,
        // which naturally scores under the first part's), if it scores at least half the best.
        // A best sentence holding most of the question's (rarity-weighted) words needs no second.
        let floor = (q.multiPart ? 0.5 : settings.closeness) * best.score
        // An amount read from a table: every row of the same file that matches as fully (in its
        // words and under its headings) is part of the answer ("groceries in February" is the
        // supermarket row and the market row; the gas standing charge is not the electricity's).
        if q.expectation == .number, SentenceScorer.isTableRow(best.sentence) {
            let rows = ranked.dropFirst().filter {
                $0.sentence.path == best.sentence.path && SentenceScorer.isTableRow($0.sentence)
                    && $0.matched.isSuperset(of: best.matched) && $0.overlap >= best.overlap && $0.score >= 0.7 * best.score
                    && !quotes.contains(Self.normalised($0.sentence.text))
            }.prefix(settings.tableRows - 1)
            for row in rows {
                chosen.append(row)
                quotes.insert(Self.normalised(row.sentence.text))
            }
            if chosen.count > 1 { return chosen.sorted { ($0.sentence.n, $0.sentence.start) < ($1.sentence.n, $1.sentence.start) } }
        }
        var stated = Self.statedNumbers(best.sentence.text)
        while chosen.count < limit, best.overlap < 0.7 || comparing {
            let next = ranked.dropFirst()
                .filter { $0.score >= floor && !$0.matched.subtracting(held).isEmpty && !quotes.contains(Self.normalised($0.sentence.text)) }
                .max { a, b in
                    let na = a.matched.subtracting(held).count, nb = b.matched.subtracting(held).count
                    return na != nb ? na < nb : a.score < b.score
                }
            var other: SentenceScorer.Scored?
            if comparing, !stated.isEmpty {
                other = ranked.dropFirst().first { s in
                    let c = Self.statedNumbers(s.sentence.text)
                    return s.score >= settings.closeness * best.score && !quotes.contains(Self.normalised(s.sentence.text))
                        && !c.isEmpty && c.isDisjoint(with: stated)
                }
            }
            guard let next = next ?? other else { break }
            chosen.append(next)
            held.formUnion(next.matched)
            stated.formUnion(Self.statedNumbers(next.sentence.text))
            quotes.insert(Self.normalised(next.sentence.text))
        }
        return chosen
    }

    /// The numbers a sentence states, without the number of its clause or list item ("12.3").
    static func statedNumbers(_ text: String) -> Set<String> {
        let t = text.trimmingCharacters(in: .whitespaces)
        let marker = t.prefix { $0.isNumber || $0 == "." || $0 == ")" }
        let numbering = marker.contains { $0 == "." || $0 == ")" } && t.dropFirst(marker.count).first == " "
        let body = numbering ? String(t.dropFirst(marker.count)) : t
        return Set(SentenceScorer.counts(in: body))
    }

    /// Summaries: the documents the question names (SummaryScope), then the best sentences of
    /// each of their sections, sections and sentences in source order so the summary reads like
    /// the document.
    func summary(_ q: QuestionAnalysis, _ scored: [SentenceScorer.Scored], passageRank: [Int: Int], evidence: [Evidence]) -> [SentenceScorer.Scored] {
        let ranked = evidence.sorted { ($0.rank ?? Int.max, $0.n) < ($1.rank ?? Int.max, $1.n) }
        let documents = Set(SummaryScope.documents(subject: SummaryScope.subject(q.text),
                                                   candidates: ranked.map { ($0.docID, $0.title + " " + $0.fileName) },
                                                   limit: 2))
        guard !documents.isEmpty else { return [] }
        let docOf = Dictionary(evidence.map { ($0.chunkID, $0.docID) }, uniquingKeysWith: { a, _ in a })
        // The question names the document ("summarise the meeting notes"); only its other words
        // ("... about the water supply") say what to favour inside it.
        var titleWords: Set<String> = Set(QuestionAnalysis.summaryCues)
        for e in evidence where documents.contains(e.docID) {
            titleWords.formUnion(TermAnalyzer.contentTerms(e.title + " " + e.fileName))
        }
        let topic = q.terms.filter { !titleWords.contains($0) }
        let candidates = scored.filter { s in
            guard let doc = docOf[s.sentence.chunkID], documents.contains(doc) else { return false }
            // Fragments ("1.", a lone label) say nothing on their own.
            return TermAnalyzer.tokens(s.sentence.text).count >= 3
        }
        let weight = Self.summaryWeights(candidates.map(\.sentence), topic: topic)
        let units = Self.summaryUnits(candidates.map(\.sentence))
        var bySection: [String: [(SentenceScorer.Scored, Double)]] = [:]
        var sectionStart: [String: (String, Int)] = [:]
        for ((s, w), key) in zip(zip(candidates, weight), units) {
            bySection[key, default: []].append((s, w))
            let here = (s.sentence.path, s.sentence.start)
            if let seen = sectionStart[key], seen <= here { continue }
            sectionStart[key] = here
        }
        // The best sections by their best sentence, each after the first discounted by how much
        // its words repeat a section already taken (so a log's summary is not four tyre
        // changes), then put back in source order.
        let ordered = bySection.keys.sorted { a, b in
            let sa = bySection[a]!.map(\.1).max()!, sb = bySection[b]!.map(\.1).max()!
            return sa != sb ? sa > sb : sectionStart[a]! < sectionStart[b]!
        }
        let words = Dictionary(uniqueKeysWithValues: ordered.map { key in
            (key, Set(bySection[key]!.flatMap { TermAnalyzer.contentTerms($0.0.sentence.text) }))
        })
        var best: [String] = []
        var left = ordered
        while best.count < settings.summarySections, !left.isEmpty {
            let pick = left.indices.max { i, j in
                func value(_ key: String) -> Double {
                    let overlap = best.map { Self.jaccard(words[key]!, words[$0]!) }.max() ?? 0
                    return bySection[key]!.map(\.1).max()! - 1.5 * overlap
                }
                let vi = value(left[i]), vj = value(left[j])
                return vi != vj ? vi < vj : i > j
            }!
            best.append(left.remove(at: pick))
        }
        var out: [(sentence: SentenceScorer.Scored, weight: Double, place: Int)] = []
        var quotes: Set<String> = []
        // A document of few sections gives more of each, so that every summary says about as much.
        let perSection = best.isEmpty ? 0
            : max(settings.summaryPerSection, min(4, (settings.summarySections + best.count - 1) / best.count))
        for key in best {
            let picked = bySection[key]!.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.sentence.start < $1.0.sentence.start }
                .filter { quotes.insert(Self.normalised($0.0.sentence.text)).inserted }
                .prefix(perSection)
            out += picked.enumerated().map { (sentence: $1.0, weight: $1.1, place: $0) }
        }
        // Over the stated length, a section's second sentence goes before any section's first,
        // then the weakest; the rest stay in source order.
        if out.count > settings.summarySentences {
            let keep = Set(out.sorted { $0.place != $1.place ? $0.place < $1.place : $0.weight > $1.weight }
                .prefix(settings.summarySentences).map { Self.key($0.sentence.sentence) })
            out = out.filter { keep.contains(Self.key($0.sentence.sentence)) }
        }
        return out.map(\.sentence).sorted { ($0.sentence.path, $0.sentence.start) < ($1.sentence.path, $1.sentence.start) }
    }

    static func jaccard(_ a: Set<String>, _ b: Set<String>) -> Double {
        let union = a.union(b).count
        return union == 0 ? 0 : Double(a.intersection(b).count) / Double(union)
    }

    /// The part of a document a summary picks from, for each sentence: its section
    /// (passageKey) or, in a list, its item with the sentences after it. The items of a list
    /// ("Friday 18 July – arrive 13:17 ...", "Saturday 19 July – Edinburgh Castle ...") are each a
    /// part of what the document says, as its sections are: a summary that keeps two of five days
    /// has lost three.
    static func summaryUnits(_ sentences: [EvidenceSentence]) -> [String] {
        var item: [String: String] = [:]
        var units = [String](repeating: "", count: sentences.count)
        for i in sentences.indices.sorted(by: { (sentences[$0].path, sentences[$0].start) < (sentences[$1].path, sentences[$1].start) }) {
            let section = passageKey(sentences[i])
            if isListItem(sentences[i].text) { item[section] = section + "\u{1F}item \(sentences[i].start)" }
            units[i] = item[section] ?? section
        }
        return units
    }

    /// One section of one file (one chunk where the file has no headings): the unit a summary
    /// picks sentences from. Not a desk passage: adjoining chunks of a document without headings
    /// merge into one passage, and a summary of a whole log would then quote one sentence of it.
    static func passageKey(_ s: EvidenceSentence) -> String {
        s.path + "\u{1F}" + (s.section.isEmpty ? s.chunkID : s.section.joined(separator: "\u{1F}"))
    }

    /// How much each sentence is worth in a summary of its document: central (its words recur
    /// in the other sentences), of a readable length, leading its passage, on the question's topic
    /// if it has one; headings in capitals, table rows and bare labels ("**Date:** ...") count
    /// for little. Matching the question's words is no guide here: "summarise the meeting notes"
    /// would pick the lines that say "meeting".
    static func summaryWeights(_ sentences: [EvidenceSentence], topic: [String]) -> [Double] {
        let terms = sentences.map { Set(TermAnalyzer.contentTerms($0.text)) }
        var df: [String: Int] = [:]
        for set in terms { for t in set { df[t, default: 0] += 1 } }
        var firstInPassage: [String: Int] = [:]
        for s in sentences {
            firstInPassage[passageKey(s)] = min(firstInPassage[passageKey(s)] ?? Int.max, s.start)
        }
        return zip(sentences, terms).map { s, set in
            let central = set.isEmpty ? 0 : set.reduce(0.0) { $0 + Double(min((df[$1] ?? 1) - 1, 4)) / 4 } / Double(set.count)
            let words = TermAnalyzer.tokens(s.text).count
            let length = (8...45).contains(words) ? 1.0 : (5...7).contains(words) ? 0.5 : 0.1
            // A section's first statement (not its heading line) usually says what it is for.
            let statement = s.text.trimmingCharacters(in: .whitespacesAndNewlines).last.map { ".!?".contains($0) } ?? false
            let lead = firstInPassage[passageKey(s)] == s.start && statement ? 1.0 : 0.0
            let onTopic = topic.isEmpty ? 0 : Double(topic.filter { set.contains($0) }.count) / Double(topic.count)
            // Facts: amounts, quantities, dates and times, and names (capitalised words inside the
            // sentence) are what a summary must keep ("Your salary is £41,500 a year"); "the
            // minutes were approved without changes" says little.
            let values = summaryValueKinds.reduce(0) { $0 + ValueMentions.find($1, in: s.text).count }
            let facts = min(1, Double(2 * values + factCount(s.text)) / 4)
            var w = 0.35 * central + 0.25 * length + 0.25 * lead + 0.4 * onTopic + 0.3 * facts
            let letters = s.text.unicodeScalars.filter { $0.properties.isAlphabetic }
            if !letters.isEmpty, letters.allSatisfy({ !$0.properties.isLowercase }) { w -= 0.5 }
            // A row of a table of facts ("Warranty period | 7 years parts and labour, to 13 June
            // 2029") states one as a sentence does; a row of a data table is one of many.
            let fact = Self.isFactRow(s.text)
            if SentenceScorer.isTableRow(s), !fact { w -= 0.3 }
            // A short line without closing punctuation is a label or an entry's heading
            // ("2021-06-15  48,510 km  Garage: Hollis Motors"), not a statement.
            if !fact, words <= 10, let last = s.text.trimmingCharacters(in: .whitespaces).last, !".!?;)\"”*".contains(last) { w -= 0.2 }
            // A field of a header block ("**Date:** ...", "Place: ..."), not a list item's label,
            // nor a label before a statement ("Tariff: Brightwater Steady Fix 12M (dual fuel),
            // fixed until 30 November 2025.").
            if let colon = s.text.firstIndex(of: ":"), s.text.distance(from: s.text.startIndex, to: colon) < 24,
               !s.text.hasPrefix("-"), !s.text.hasPrefix("•"), s.text[..<colon].split(separator: " ").count <= 3,
               s.text[s.text.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\n" }).count <= 5 { w -= 0.3 }
            return w
        }
    }

    /// A row of two cells, a label of words and its value ("Installation date | 14 June 2022").
    static func isFactRow(_ text: String) -> Bool {
        let cells = text.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard cells.count == 2, !cells[1].isEmpty else { return false }
        let label = cells[0].split(separator: " ")
        return (1...5).contains(label.count) && label.allSatisfy { $0.allSatisfy { $0.isLetter || "()/-'’".contains($0) } }
    }

    /// The kinds of value a summary keeps where it can.
    static let summaryValueKinds: [AskedValue] = [.money, .quantity, .date, .time]

    /// Numbers and capitalised words after the first word of a sentence.
    static func factCount(_ text: String) -> Int {
        var n = 0
        for (i, word) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).enumerated() {
            guard let head = word.unicodeScalars.first(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { continue }
            if head.properties.numericType != nil || (i > 0 && head.properties.isUppercase) { n += 1 }
        }
        return n
    }

    /// An answer from chosen sentences, in the given order, each cited by its own span; citations
    /// are numbered by first use. `opening` ("On 7 May 2023") goes before the first sentence.
    static func assemble(_ sentences: [EvidenceSentence], route: AnswerRoute, opening: String? = nil, rows: [String: String] = [:]) -> AnswerRecord {
        guard !sentences.isEmpty else {
            return Abstention.declinedAnswer(route: route, receipt: Receipt.extractive)
        }
        var citations: [Citation] = []
        var parts: [String] = []
        var answerSentences: [AnswerSentence] = []
        for s in sentences {
            let n: Int
            if let existing = citations.first(where: { $0.chunkID == s.chunkID && $0.start == s.start && $0.end == s.end }) {
                n = existing.n
            } else {
                n = citations.count + 1
                citations.append(Citation(n: n, evidence: s.n, chunkID: s.chunkID, path: s.path, start: s.start, end: s.end,
                                          line: s.line, page: s.page, section: s.place, quote: s.text, time: s.time))
            }
            let said = rows[key(s)] ?? flatten(s.text)
            let flat = answerSentences.isEmpty ? opening.map { "\($0): " + said } ?? said : said
            parts.append("\(flat) [\(n)]")
            answerSentences.append(AnswerSentence(text: flat, cites: [n]))
        }
        return AnswerRecord(text: parts.joined(separator: " "), sentences: answerSentences, citations: citations, route: route,
                            receipt: Receipt.extractive)
    }

    /// A sentence on one line: runs of whitespace (table rows, wrapped lines) become one space.
    static func flatten(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    /// A duration in milliseconds, to 0.1 ms (receipts).
    public static func milliseconds(_ d: Duration) -> Double {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return (ms * 10).rounded() / 10
    }

    static func normalised(_ text: String) -> String { TermAnalyzer.tokens(text).joined(separator: " ") }
}
