import Foundation

/// `context`, added to a query by pb-pack: the desk an answer is written from.
///
/// Everything a writer may use sits in `evidence`; `instructions` and `prompt` are the two chat
/// messages (system and user) built from it. `used` counts the WordPiece tokens of both messages
/// plus `reserved` (the answer's allowance) and never exceeds `budget`.
///
/// The prompt repeats every passage, and only the endpoint route reads it, so a record read by
/// RecordCodec keeps it as the JSON literal of its line (`promptLiteral`) and decodes it only
/// when `prompt` is read; writing the record puts the same bytes back.
public struct PackedContext: Codable, Equatable, Sendable {
    /// The token budget shared by instructions, evidence, question and the reserved answer.
    public var budget: Int
    /// Tokens spent: instructions + prompt + reserved. Always <= budget.
    public var used: Int
    /// Tokens kept back for the answer.
    public var reserved: Int
    /// The mode the context was packed for (fast, standard, deep).
    public var mode: Mode
    /// The system message: answer only from the evidence, cite [n], say when it is not there.
    public var instructions: String
    /// The user message: numbered evidence passages, then the question.
    public var prompt: String {
        get {
            guard let promptLiteral else { return promptText }
            // The literal passed JSONShape's check when its line was read, so it decodes.
            return (try? JSONDecoder().decode(String.self, from: promptLiteral)) ?? promptText
        }
        set {
            promptText = newValue
            promptLiteral = nil
        }
    }
    private var promptText: String
    /// The prompt's JSON string literal as read, quotes included, while no stage has changed it.
    public private(set) var promptLiteral: Data?
    /// The passages, in the order they appear in the prompt (strongest at both ends).
    public var evidence: [Evidence]
    /// Candidates and passages left off the desk, and why.
    public var dropped: [DroppedHit]
    /// Whether the question was taken as a lookup (numbers, specs, part numbers).
    public var lookup: Bool?
    /// From a memory: the workstream's summary and the recent messages that fit the budget, as
    /// they stand in the prompt (summary before the passages, messages after them).
    public var background: Background?

    public init(budget: Int, used: Int, reserved: Int, mode: Mode, instructions: String, prompt: String,
                evidence: [Evidence], dropped: [DroppedHit] = [], lookup: Bool? = nil) {
        self.budget = budget
        self.used = used
        self.reserved = reserved
        self.mode = mode
        self.instructions = instructions
        self.promptText = prompt
        self.evidence = evidence
        self.dropped = dropped
        self.lookup = lookup
    }

    enum CodingKeys: String, CodingKey {
        case budget, used, reserved, mode, instructions, evidence, dropped, lookup, background
        case promptText = "prompt"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        budget = try c.decode(Int.self, forKey: .budget)
        used = try c.decode(Int.self, forKey: .used)
        reserved = try c.decode(Int.self, forKey: .reserved)
        mode = try c.decode(Mode.self, forKey: .mode)
        instructions = try c.decode(String.self, forKey: .instructions)
        promptText = try c.decode(String.self, forKey: .promptText)
        evidence = try c.decode([Evidence].self, forKey: .evidence)
        dropped = try c.decode([DroppedHit].self, forKey: .dropped)
        lookup = try c.decodeIfPresent(Bool.self, forKey: .lookup)
        background = try c.decodeIfPresent(Background.self, forKey: .background)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(budget, forKey: .budget)
        try c.encode(used, forKey: .used)
        try c.encode(reserved, forKey: .reserved)
        try c.encode(mode, forKey: .mode)
        try c.encode(instructions, forKey: .instructions)
        // RecordCodec writes the kept literal over the "" itself; any other encoder gets the text.
        let splices = promptLiteral != nil && encoder.userInfo[RecordCodec.splicesLiterals] as? Bool == true
        try c.encode(splices ? "" : prompt, forKey: .promptText)
        try c.encode(evidence, forKey: .evidence)
        try c.encode(dropped, forKey: .dropped)
        try c.encodeIfPresent(lookup, forKey: .lookup)
        try c.encodeIfPresent(background, forKey: .background)
    }

    /// Takes the literal of a line whose prompt was read as "" (RecordCodec).
    mutating func keepPromptLiteral(_ literal: Data) {
        promptLiteral = literal
    }

    public static func == (a: PackedContext, b: PackedContext) -> Bool {
        a.budget == b.budget && a.used == b.used && a.reserved == b.reserved && a.mode == b.mode
            && a.instructions == b.instructions && a.prompt == b.prompt && a.evidence == b.evidence
            && a.dropped == b.dropped && a.lookup == b.lookup && a.background == b.background
    }
}

/// One piece of evidence: a chunk, or the part of it not already on the desk.
///
/// `text` is exactly the source text layer's bytes [start, end) (pb-records(5), "Byte offsets"),
/// so a citation into it resolves to the file. Pieces sharing `n` form one passage: an anchor
/// hit with the neighbours that were read around it, in source order.
public struct Evidence: Codable, Equatable, Sendable, SourceFile {
    /// The passage number the prompt shows as [n].
    public var n: Int
    /// The piece's chunk, file, section path and byte/line/page range (written flat).
    public var span: SourceSpan
    public var seq: Int?
    public var text: String
    /// anchor (a reranked hit), neighbour (small-to-big), reference ("see section X") or lookup
    /// (rare question terms next to numbers).
    public var role: EvidenceRole
    /// The anchor's rerank (or fused) score; pieces of one passage share it.
    public var score: Double?
    /// The anchor's rank among the hits (1 = best); absent for lookup passages not in the hits.
    public var rank: Int?
    /// From a memory hit: who said it, when (ISO 8601), and the time it refers to (ISO date or
    /// "start/end"), so that a writer can say when something happened and whose words it quotes.
    public var speaker: String?
    public var said: String?
    public var time: String?
    /// From a memory hit: the item that replaced this one (its chunk id), when there is one.
    public var supersededBy: String?
    /// For a piece of a table: the table's header row, so a row can be read as column: value.
    public var header: String?

    enum CodingKeys: String, CodingKey {
        case n, seq, text, role, score, rank, speaker, said, time, header
        case supersededBy = "superseded_by"
    }

    public init(n: Int, span: SourceSpan, seq: Int? = nil, text: String, role: EvidenceRole,
                score: Double? = nil, rank: Int? = nil) {
        self.n = n
        self.span = span
        self.seq = seq
        self.text = text
        self.role = role
        self.score = score
        self.rank = rank
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        n = try c.decode(Int.self, forKey: .n)
        span = try SourceSpan(from: decoder)
        seq = try c.decodeIfPresent(Int.self, forKey: .seq)
        text = try c.decode(String.self, forKey: .text)
        role = try c.decode(EvidenceRole.self, forKey: .role)
        score = try c.decodeIfPresent(Double.self, forKey: .score)
        rank = try c.decodeIfPresent(Int.self, forKey: .rank)
        speaker = try c.decodeIfPresent(String.self, forKey: .speaker)
        said = try c.decodeIfPresent(String.self, forKey: .said)
        time = try c.decodeIfPresent(String.self, forKey: .time)
        supersededBy = try c.decodeIfPresent(String.self, forKey: .supersededBy)
        header = try c.decodeIfPresent(String.self, forKey: .header)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(n, forKey: .n)
        try span.encode(to: encoder)
        try c.encodeIfPresent(seq, forKey: .seq)
        try c.encode(text, forKey: .text)
        try c.encode(role, forKey: .role)
        try c.encodeIfPresent(score, forKey: .score)
        try c.encodeIfPresent(rank, forKey: .rank)
        try c.encodeIfPresent(speaker, forKey: .speaker)
        try c.encodeIfPresent(said, forKey: .said)
        try c.encodeIfPresent(time, forKey: .time)
        try c.encodeIfPresent(supersededBy, forKey: .supersededBy)
        try c.encodeIfPresent(header, forKey: .header)
    }
}
