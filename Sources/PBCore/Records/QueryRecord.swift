import Foundation

/// `query`: a question flowing down the knowledge pipe. pb-embed adds `embedding`, pb-search adds
/// `hits` (pb-rerank reorders them), pb-pack adds `context`, pb-answer `answer`, pb-verify `verdict`.
public struct QueryRecord: PBRecord, Equatable {
    public static let kindName = "query"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "query"
    /// The caller's identifier, any JSON value, passed through as given.
    public var id: JSONValue?
    public var text: String
    public var library: String?
    public var filters: QueryFilters?
    public var mode: String?
    /// How many hits the caller wants (overrides `--k`).
    public var k: Int?
    public var embedding: Embedding?
    public var hits: [Hit]?
    public var dropped: [DroppedHit]?
    /// Per-list rankings, with `--explain`: list name to chunk ids in rank order.
    public var lists: [String: [String]]?
    /// pb-pack's desk, pb-answer's answer, pb-verify's verdict.
    public var context: PackedContext?
    public var answer: AnswerRecord?
    public var verdict: Verdict?
    /// pb-recall: the time a question is asked at (relative times resolve against it) and the
    /// workstream it is restricted to.
    public var now: String?
    public var thread: String?
    /// The message this question was said as (pb-thread remembers it first): its own items are
    /// never recalled for it, and its workstream is the background's.
    public var message: String?
    /// pb-recall --context: the workstream's summary and latest messages, for pb-pack.
    public var background: Background?
    /// pb-recall: for a question naming one of the memory's speakers, whose words it finds
    /// when asked without the name (pb-verify's gate H fails when they are another's).
    public var attribution: Attribution?
    /// pb-recall: the question's words that no message of the memory (as of `now`) holds, of
    /// those that name a thing ("sister", "birthday", a name): what it asks about was never said,
    /// and pb-verify's gate H withholds.
    public var unheard: [String]?
    /// pb-search: what the question asks for, and the words corrected before searching.
    public var analysis: QuestionReading?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, id, text, library, filters, mode, k, embedding, hits, dropped, lists, context, answer, verdict, now, thread, message, background, attribution, unheard, analysis
    }

    public init(id: JSONValue? = nil, text: String, library: String? = nil) {
        self.id = id
        self.text = text
        self.library = library
    }

    /// The question as the stages after search read it: with its typing errors corrected.
    public var questionText: String { analysis?.corrected ?? text }

    public static var literalPath: [String] { ["context", "prompt"] }
    public var keptLiteral: Data? { context?.promptLiteral }
    public mutating func keepLiteral(_ literal: Data) { context?.keepPromptLiteral(literal) }
}

/// Restrictions applied before ranking, so a filter never returns fewer hits than exist.
public struct QueryFilters: Codable, Equatable, Sendable {
    public var pathPrefix: String?
    public var docIDs: [String]?

    enum CodingKeys: String, CodingKey {
        case pathPrefix = "path_prefix", docIDs = "doc_ids"
    }

    public init(pathPrefix: String? = nil, docIDs: [String]? = nil) {
        self.pathPrefix = pathPrefix
        self.docIDs = docIDs
    }

    public var isEmpty: Bool { pathPrefix == nil && (docIDs ?? []).isEmpty }
}

/// One retrieved chunk with where it sits in its source and every score that ranked it.
public struct Hit: Codable, Equatable, Sendable, SourceFile {
    /// The chunk's ids, file, title, section path and byte/line/page range (written flat).
    public var span: SourceSpan
    public var text: String
    public var prefix: String?
    public var seq: Int?
    public var scores: HitScores
    public var rank: Int
    /// A memory hit (pb-recall): the messages it came from, its item type, the time it refers
    /// to (ISO date, or "start/end"), when it was said and by whom, and the item that replaced it.
    public var source: [String]?
    public var type: MemoryItemType?
    public var time: String?
    public var said: String?
    public var speaker: String?
    public var supersededBy: String?

    enum CodingKeys: String, CodingKey {
        case text, prefix, seq, scores, rank, source, type, time, said, speaker
        case supersededBy = "superseded_by"
    }

    public init(span: SourceSpan, text: String, prefix: String? = nil, seq: Int? = nil,
                scores: HitScores = HitScores(), rank: Int = 0) {
        self.span = span
        self.text = text
        self.prefix = prefix
        self.seq = seq
        self.scores = scores
        self.rank = rank
    }

    public init(from decoder: Decoder) throws {
        span = try SourceSpan(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        prefix = try c.decodeIfPresent(String.self, forKey: .prefix)
        seq = try c.decodeIfPresent(Int.self, forKey: .seq)
        scores = try c.decode(HitScores.self, forKey: .scores)
        rank = try c.decode(Int.self, forKey: .rank)
        source = try c.decodeIfPresent([String].self, forKey: .source)
        type = try c.decodeIfPresent(MemoryItemType.self, forKey: .type)
        time = try c.decodeIfPresent(String.self, forKey: .time)
        said = try c.decodeIfPresent(String.self, forKey: .said)
        speaker = try c.decodeIfPresent(String.self, forKey: .speaker)
        supersededBy = try c.decodeIfPresent(String.self, forKey: .supersededBy)
    }

    public func encode(to encoder: Encoder) throws {
        try span.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encodeIfPresent(prefix, forKey: .prefix)
        try c.encodeIfPresent(seq, forKey: .seq)
        try c.encode(scores, forKey: .scores)
        try c.encode(rank, forKey: .rank)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(time, forKey: .time)
        try c.encodeIfPresent(said, forKey: .said)
        try c.encodeIfPresent(speaker, forKey: .speaker)
        try c.encodeIfPresent(supersededBy, forKey: .supersededBy)
    }
}

/// Every list's score and rank for a hit (absent when the hit was not in that list).
/// `bm25` is SQLite's bm25() negated, so that for every score here higher is better.
public struct HitScores: Codable, Equatable, Sendable {
    public var bm25: Double?
    public var bm25Rank: Int?
    public var dense: Double?
    public var denseRank: Int?
    public var fused: Double?
    public var rerank: Double?

    enum CodingKeys: String, CodingKey {
        case bm25, dense, fused, rerank
        case bm25Rank = "bm25_rank", denseRank = "dense_rank"
    }

    public init(bm25: Double? = nil, bm25Rank: Int? = nil, dense: Double? = nil, denseRank: Int? = nil, fused: Double? = nil, rerank: Double? = nil) {
        self.bm25 = bm25
        self.bm25Rank = bm25Rank
        self.dense = dense
        self.denseRank = denseRank
        self.fused = fused
        self.rerank = rerank
    }
}

/// A candidate a stage removed, and why.
public struct DroppedHit: Codable, Equatable, Sendable {
    /// Why a candidate was removed: pb-rerank's first three, pb-pack's next two, and whatever
    /// a stage of the user's own says (carried as written, so a pipeline may add its stages).
    public enum Reason: RawRepresentable, Codable, Hashable, Sendable {
        /// Scored too far under the best hit.
        case belowMargin
        /// Its document already had as many hits as one may.
        case perDocCap
        /// Ranked past the number of hits kept.
        case beyondK
        /// It would not fit in the desk's token budget.
        case overBudget
        /// Its bytes were all on the desk already.
        case duplicate
        /// Another stage's reason.
        case other(String)

        /// The reasons PocketBrains' own stages write.
        public static let own: [Reason] = [.belowMargin, .perDocCap, .beyondK, .overBudget, .duplicate]

        public init(rawValue: String) {
            self = Self.own.first { $0.rawValue == rawValue } ?? .other(rawValue)
        }

        public var rawValue: String {
            switch self {
            case .belowMargin: return "below-margin"
            case .perDocCap: return "per-doc-cap"
            case .beyondK: return "beyond-k"
            case .overBudget: return "over-budget"
            case .duplicate: return "duplicate"
            case .other(let text): return text
            }
        }

        public init(from decoder: Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(rawValue)
        }
    }

    public var chunkID: String
    public var reason: Reason

    enum CodingKeys: String, CodingKey {
        case reason
        case chunkID = "chunk_id"
    }

    public init(chunkID: String, reason: Reason) {
        self.chunkID = chunkID
        self.reason = reason
    }
}
