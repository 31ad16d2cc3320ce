/// `analysis`, added to a query by pb-search: what the question asks for, and the words of it that
/// were corrected against the library's own vocabulary before searching. Every later stage reads
/// it (pb-answer answers in the shape of `intent`, pb-verify withholds a lookup whose answer holds
/// no value of the `asks` kind), and `jq` shows why an answer took the shape it did.
public struct QuestionReading: Codable, Equatable, Sendable {
    public var intent: QuestionIntent
    /// For a lookup, when/who questions: the kind of value asked for.
    public var asks: AskedValue?
    /// For a quantity: what it measures ("what is the tyre pressure?": pressure).
    public var measure: Measure?
    /// The question's content words (lowercased, lightly stemmed), after correction.
    public var terms: [String]
    /// The question with corrected words put in, when a word was corrected.
    public var corrected: String?
    public var corrections: [Correction]

    public struct Correction: Codable, Equatable, Sendable {
        /// The word as typed and the library's word it was read as.
        public var from: String
        public var to: String
        /// Edit distance between them (adjacent transpositions count one).
        public var distance: Int

        public init(from: String, to: String, distance: Int) {
            self.from = from
            self.to = to
            self.distance = distance
        }
    }

    public init(intent: QuestionIntent, asks: AskedValue? = nil, measure: Measure? = nil, terms: [String] = [], corrected: String? = nil,
                corrections: [Correction] = []) {
        self.intent = intent
        self.asks = asks
        self.measure = measure
        self.terms = terms
        self.corrected = corrected
        self.corrections = corrections
    }

    enum CodingKeys: String, CodingKey { case intent, asks, measure, terms, corrected, corrections }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        intent = try c.decode(QuestionIntent.self, forKey: .intent)
        asks = try c.decodeIfPresent(AskedValue.self, forKey: .asks)
        measure = try c.decodeIfPresent(Measure.self, forKey: .measure)
        terms = try c.decodeIfPresent([String].self, forKey: .terms) ?? []
        corrected = try c.decodeIfPresent(String.self, forKey: .corrected)
        corrections = try c.decodeIfPresent([Correction].self, forKey: .corrections) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(intent, forKey: .intent)
        try c.encodeIfPresent(asks, forKey: .asks)
        try c.encodeIfPresent(measure, forKey: .measure)
        try c.encode(terms, forKey: .terms)
        try c.encodeIfPresent(corrected, forKey: .corrected)
        if !corrections.isEmpty { try c.encode(corrections, forKey: .corrections) }
    }
}
