/// `answer`, added to a query by pb-answer.
///
/// `text` carries citation markers [n]; `citations` resolves every n to the sentence of evidence
/// that supports it, as a byte span of the source text layer, so a reader can jump to it.
public struct AnswerRecord: Codable, Equatable, Sendable {
    public var text: String
    /// The answer split into sentences, each with the citation numbers it carries.
    public var sentences: [AnswerSentence]
    /// Numbered by first use in `text`.
    public var citations: [Citation]
    /// How the answer was written: extractive, summary (extractive per section) or endpoint.
    public var route: AnswerRoute
    public var receipt: Receipt

    public init(text: String, sentences: [AnswerSentence], citations: [Citation], route: AnswerRoute, receipt: Receipt) {
        self.text = text
        self.sentences = sentences
        self.citations = citations
        self.route = route
        self.receipt = receipt
    }
}

/// One sentence of an answer and the citations it carries.
public struct AnswerSentence: Codable, Equatable, Sendable {
    /// The sentence without its citation markers.
    public var text: String
    public var cites: [Int]

    public init(text: String, cites: [Int]) {
        self.text = text
        self.cites = cites
    }
}

/// What [n] in an answer points at: a sentence (or span) inside one chunk of evidence.
public struct Citation: Codable, Equatable, Sendable {
    /// The number the answer text uses, by first use.
    public var n: Int
    /// The passage number in `context.evidence` it came from.
    public var evidence: Int
    public var chunkID: String
    public var path: String
    /// Byte span of the cited text in the source text layer: within the chunk's [start, end).
    public var start: Int
    public var end: Int
    /// The line of `start` in the source (1-based), for `path:line`.
    public var line: Int
    public var page: Int?
    /// The section path of the cited text, its headings joined by " > ": where it is in the
    /// document, and for the formats whose sections are places, the place ("Slide 2: Seed
    /// order", "Sheet: Monthly", "Message 3: Re: Seeds ordered > Attachment: quote.pdf").
    /// Absent when the text is under no heading.
    public var section: String?
    /// The cited bytes themselves.
    public var quote: String
    /// For a recording (a voice memo), when the cited words were said: "0:42–0:47".
    public var time: String?

    enum CodingKeys: String, CodingKey {
        case n, evidence, path, start, end, line, page, section, quote, time
        case chunkID = "chunk_id"
    }

    public init(n: Int, evidence: Int, chunkID: String, path: String, start: Int, end: Int, line: Int, page: Int? = nil, section: String? = nil, quote: String,
                time: String? = nil) {
        self.time = time
        self.n = n
        self.evidence = evidence
        self.chunkID = chunkID
        self.path = path
        self.start = start
        self.end = end
        self.line = line
        self.page = page
        self.section = section
        self.quote = quote
    }
}

/// How an answer came to be: the route intended, tried and taken, and what each part cost.
public struct Receipt: Codable, Equatable, Sendable {
    /// extractive or endpoint: what the options asked for.
    public var intended: AnswerRoute
    /// The routes tried, in order.
    public var attempted: [AnswerRoute]
    /// The route that wrote the answer.
    public var actual: AnswerRoute
    /// Why the intended route was not the actual one (absent when it was).
    public var fallback: String?
    /// The endpoint URL and model, when one was asked for.
    public var endpoint: String?
    public var model: String?
    public var temperature: Double?
    /// Characters of evidence sent to the endpoint, and passages left out of that payload.
    public var payloadChars: Int?
    public var omitted: Int?
    /// Milliseconds per part (compose, request, ...).
    public var timings: [String: Double]

    enum CodingKeys: String, CodingKey {
        case intended, attempted, actual, fallback, endpoint, model, temperature, omitted, timings
        case payloadChars = "payload_chars"
    }

    public init(intended: AnswerRoute, attempted: [AnswerRoute], actual: AnswerRoute, fallback: String? = nil, endpoint: String? = nil,
                model: String? = nil, temperature: Double? = nil, payloadChars: Int? = nil, omitted: Int? = nil,
                timings: [String: Double] = [:]) {
        self.intended = intended
        self.attempted = attempted
        self.actual = actual
        self.fallback = fallback
        self.endpoint = endpoint
        self.model = model
        self.temperature = temperature
        self.payloadChars = payloadChars
        self.omitted = omitted
        self.timings = timings
    }

    /// The receipt of an answer the extractive composer wrote as asked.
    public static let extractive = Receipt(intended: .extractive, attempted: [.extractive], actual: .extractive)

    public init(extractiveWith timings: [String: Double]) {
        self.init(intended: .extractive, attempted: [.extractive], actual: .extractive, timings: timings)
    }
}
