import PBText
import PBCore
import PBRetrieval

/// Everything the gates look at for one query, read once: the question, the hits, the desk
/// (passages and their sentences), the answer with its markers parsed, and, when an encoder was
/// given, the sentence vectors semantic grounding compares.
public struct VerificationCase: Sendable {
    /// A sentence of the retrieved set: on the desk (`passage` is its n) or only in the hits.
    public struct CandidateSentence: Sendable, Equatable {
        public var passage: Int?
        public var chunkID: String
        public var path: String
        public var line: Int
        public var text: String
    }

    /// The vectors of one record, embedded in one batch.
    public struct Vectors: Sendable {
        public var question: [Float]
        /// One per answer sentence.
        public var sentences: [[Float]]
        /// Citation number to the vector of its quote.
        public var quotes: [Int: [Float]]
        /// Parallel to `evidenceIndex`: vectors of desk sentences (indices into `evidenceSentences`).
        public var evidence: [[Float]]
        public var evidenceIndex: [Int]
    }

    public var question: String
    /// Whether the query was answered from a memory (pb-recall's hits, with their messages).
    public var fromMemory: Bool
    /// pb-recall's check of whose words the question finds without the speaker's name.
    public var attribution: Attribution?
    /// From a memory: the question's words it never heard (pb-recall's `unheard`).
    public var unheard: [String] = []
    public var hits: [Hit]
    public var evidence: [Evidence]
    public var answer: AnswerRecord
    /// Passage numbers in order of first appearance on the desk.
    public var passageNumbers: [Int]
    /// Passage number to its pieces, in desk order.
    public var pieces: [Int: [Evidence]]
    /// Every sentence of the desk, with source spans.
    public var evidenceSentences: [EvidenceSentence]
    /// Sentences of the desk and of the hits that did not reach it.
    public var candidateSentences: [CandidateSentence]
    /// The answer's text with markers parsed out.
    public var markers: CitationMarkers.Scan
    public var vectors: Vectors?
    /// What the question asks for (pb-search's analysis, else read here).
    public var reading: QuestionReading

    /// An answer listing the library's documents (`overview` intent, written as a summary): its
    /// lines are of different subjects by design.
    public var isOverview: Bool { reading.intent == .overview && answer.route == .summary }

    /// An overview of the whole library ("what is in my documents?"): read from its catalogue,
    /// not from hits, and sharing no topic with its question.
    public var isCatalogue: Bool { isOverview && QuestionReader.overviewTopic(question).isEmpty }

    /// The text answer sentence `i` is judged by. A table row that the composer read out as
    /// "Column: cell" pairs is judged as the row it quotes when every cell it gives is in that
    /// row: the reading adds the header's words, not claims.
    public func groundingText(_ i: Int) -> String {
        let s = answer.sentences[i]
        guard answer.route != .endpoint, s.cites.count == 1,
              let quote = answer.citations.first(where: { $0.n == s.cites[0] })?.quote else { return s.text }
        // A quote behind a label ("notes.md: ...", "On 7 May 2023: ...") is judged as the quote.
        let flatQuote = quote.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if s.text.hasSuffix(": " + flatQuote) { return quote }
        // A value read from the quote, or the date its memory item refers to ("7 May 2023"), is
        // judged as the quote it was read from.
        let value = s.text.lowercased()
        if !value.isEmpty, flatQuote.lowercased().contains(value) { return quote }
        if let n = answer.citations.first(where: { $0.n == s.cites[0] })?.evidence,
           (pieces[n] ?? []).compactMap(EvidenceDate.phrase(of:)).contains(where: { $0.lowercased().hasSuffix(value) }) {
            return quote
        }
        let parts = s.text.components(separatedBy: "; ")
        guard parts.count >= 2 else { return s.text }
        let flat = quote.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let cells = parts.map { part -> String in
            guard let colon = part.range(of: ": ") else { return part }
            return String(part[colon.upperBound...])
        }
        return cells.allSatisfy({ flat.contains($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }) ? quote : s.text
    }

    /// Memory hits name their messages (`source`); a desk without hits, its pieces' `said`.
    public static func isFromMemory(_ q: QueryRecord) -> Bool {
        if let hits = q.hits, !hits.isEmpty { return hits.allSatisfy { $0.source != nil } }
        let evidence = q.context?.evidence ?? []
        return !evidence.isEmpty && evidence.allSatisfy { $0.said != nil }
    }

    public init(record q: QueryRecord, splitter: EvidenceSentences) {
        question = q.questionText
        reading = q.analysis ?? QuestionReader.read(q.questionText)
        fromMemory = Self.isFromMemory(q)
        attribution = q.attribution
        unheard = q.unheard ?? []
        hits = q.hits ?? []
        evidence = q.context?.evidence ?? []
        answer = q.answer ?? AnswerRecord(text: "", sentences: [], citations: [], route: .none,
                                          receipt: Receipt(intended: .none, attempted: [], actual: .none))
        var numbers: [Int] = []
        var pieces: [Int: [Evidence]] = [:]
        for e in evidence {
            if pieces[e.n] == nil { numbers.append(e.n) }
            pieces[e.n, default: []].append(e)
        }
        passageNumbers = numbers
        self.pieces = pieces
        let desk = evidence // a local, so the closures below need not capture self
        let sentences = splitter.sentences(desk)
        evidenceSentences = sentences
        var candidates = sentences.map { s in
            CandidateSentence(passage: s.n, chunkID: s.chunkID, path: s.path, line: s.line, text: s.text)
        }
        let onDesk = Set(desk.map(\.chunkID))
        for (i, h) in (q.hits ?? []).enumerated() where !onDesk.contains(h.chunkID) {
            let piece = Evidence(n: 0, span: h.span, text: h.text, role: .hit)
            candidates += splitter.sentences(of: piece, piece: i).map {
                CandidateSentence(passage: nil, chunkID: h.chunkID, path: h.path, line: $0.line, text: $0.text)
            }
        }
        candidateSentences = candidates
        markers = CitationMarkers.scan(answer.text)
    }

    // MARK: Reading the answer

    /// The citation numbered `n` in the answer.
    public func citation(_ n: Int) -> Citation? { answer.citations.first { $0.n == n } }

    /// The citations an answer sentence carries (numbers that resolve).
    public func citations(of s: AnswerSentence) -> [Citation] { s.cites.compactMap { citation($0) } }

    /// The text of a passage: its pieces joined in desk order.
    public func passageText(_ n: Int) -> String { (pieces[n] ?? []).map(\.text).joined(separator: "\n") }

    /// What a sentence's citations point at: each quote and the whole passage it sits in, with
    /// the date a memory's passage carries (EvidenceDate), which an answer may state.
    public func citedText(of s: AnswerSentence) -> String {
        var parts: [String] = []
        var seen: Set<Int> = []
        for c in citations(of: s) {
            parts.append(c.quote)
            if seen.insert(c.evidence).inserted {
                parts.append(passageText(c.evidence))
                parts += (pieces[c.evidence] ?? []).compactMap(EvidenceDate.phrase(of:))
            }
        }
        return parts.joined(separator: "\n")
    }

    /// The passages the answer cites, in order of first citation.
    public var citedPassages: [Int] {
        var seen: Set<Int> = []
        return answer.citations.map(\.evidence).filter { pieces[$0] != nil && seen.insert($0).inserted }
    }

    /// Everything the answer cites: quotes and their passages.
    public var allCitedText: String {
        var parts = answer.citations.map(\.quote)
        parts += citedPassages.map { passageText($0) }
        return parts.joined(separator: "\n")
    }

    /// The answer without citation markers.
    public var answerText: String { markers.stripped }

    /// The documents of the passages a sentence cites.
    public func citedDocuments(of s: AnswerSentence) -> Set<String> {
        Set(citations(of: s).flatMap { (pieces[$0.evidence] ?? []).map(\.docID) })
    }

    // MARK: Reading the question

    /// The question's content terms (stemmed) without the words every question uses
    /// ("name", "called", "many", "year"), which the evidence need not repeat.
    public var questionTerms: [String] {
        TermAnalyzer.contentTerms(question).filter { !TermAnalyzer.questionVocabulary.contains($0) }
    }

}
