/// `forgotten`: what pb-remember did with a request to forget ("forget my locker code"): the
/// items it took out of the memory (their words, and when they were said), or, when several
/// different things fit the request, the candidates it asks the person to choose among, having
/// forgotten nothing. The request itself is not remembered.
public struct ForgottenRecord: PBRecord, Equatable {
    public static let kindName = "forgotten"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "forgotten"
    public var memory: String
    /// The request as said.
    public var request: String
    /// What was looked for ("my locker code"); empty for "forget that" (the last message).
    public var topic: String
    public var status: ForgetStatus
    /// Forgotten items (`forgotten`) or the candidates (`ambiguous`), each with its message, words and time.
    public var items: [ForgottenItem]
    /// A reply for a person, which never repeats the forgotten words (a composition may keep it).
    public var message: String
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, memory, request, topic, status, items, message
    }

    public init(memory: String, request: String, topic: String, status: ForgetStatus, items: [ForgottenItem], message: String) {
        self.memory = memory
        self.request = request
        self.topic = topic
        self.status = status
        self.items = items
        self.message = message
    }
}

/// What a request to forget came to: a closed set.
public enum ForgetStatus: String, ClosedSet {
    /// The items that fit are gone from the memory, file included.
    case forgotten
    /// Several different things fit; nothing was forgotten, and the candidates are listed.
    case ambiguous
    /// Nothing in the memory fits.
    case nothing
}

/// One item of a `forgotten` record.
public struct ForgottenItem: Codable, Equatable, Sendable {
    public var id: String
    public var message: String
    public var text: String
    public var said: String

    public init(id: String, message: String, text: String, said: String) {
        self.id = id
        self.message = message
        self.text = text
        self.said = said
    }
}
