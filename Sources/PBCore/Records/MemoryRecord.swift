/// `memory`: one item pb-remember derived from a message: its type, subject and entities, the
/// time it refers to (not only when it was said), its workstream, and the earlier items it
/// supersedes. `start` and `end` are the item's bytes in the message's text.
public struct MemoryRecord: PBRecord, Equatable {
    public static let kindName = "memory"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "memory"
    /// The item's id in its memory ("i-12").
    public var id: String
    /// The memory (store) it is kept in.
    public var memory: String
    /// The message it came from.
    public var message: String
    public var speaker: String?
    /// When the message was said, as given.
    public var said: String
    public var type: MemoryItemType
    /// The words the item is about (content words, stemmed), which supersession compares.
    public var subject: [String]
    /// Names, numbers and codes in the item.
    public var entities: [String]
    public var text: String
    public var start: Int
    public var end: Int
    /// The time the item refers to, resolved against `said` (absent when it names none).
    public var time: ReferredTime?
    public var workstream: WorkstreamChoice
    /// Earlier items this one replaces, with why.
    public var supersedes: [Supersession]
    /// The later-said item that replaces this one already: a message that arrived after one
    /// said later is the older state, whatever the order of arrival.
    public var supersededBy: Supersession?
    /// What tells the things it names from others of their kind: each marked noun (stemmed) with
    /// its marks, `#3` a number ("Flat 3"), `@sam` an owner ("Sam's car"; `@me` for "my").
    /// Items whose keys mark one noun differently never supersede one another.
    public var key: [String: [String]]?
    /// For an item that replaced nothing: the nearest earlier item it was compared with, and why
    /// it is not a later state of it (pb-thread --json shows it).
    public var considered: Supersession?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, id, memory, message, speaker, said, type, subject, entities, text, start, end, time, workstream, supersedes, key, considered
        case supersededBy = "superseded_by"
    }

    public init(id: String, memory: String, message: String, speaker: String?, said: String, type: MemoryItemType,
                subject: [String], entities: [String], text: String, start: Int, end: Int, time: ReferredTime?,
                workstream: WorkstreamChoice, supersedes: [Supersession], supersededBy: Supersession? = nil,
                key: [String: [String]]? = nil, considered: Supersession? = nil) {
        self.id = id
        self.memory = memory
        self.message = message
        self.speaker = speaker
        self.said = said
        self.type = type
        self.subject = subject
        self.entities = entities
        self.text = text
        self.start = start
        self.end = end
        self.time = time
        self.workstream = workstream
        self.supersedes = supersedes
        self.supersededBy = supersededBy
        self.key = key
        self.considered = considered
    }
}

/// The time an item refers to: the phrase and the days it covers, `[start, end]` inclusive, as
/// ISO dates in the message's own offset.
public struct ReferredTime: Codable, Equatable, Sendable {
    public var phrase: String
    public var start: String
    public var end: String

    public init(phrase: String, start: String, end: String) {
        self.phrase = phrase
        self.start = start
        self.end = end
    }
}

/// The workstream a message was put in: the `thread` it gave (`given`, score 1), or the nearest
/// by meaning over the workstream's recent items, or a new one when none was near enough.
public struct WorkstreamChoice: Codable, Equatable, Sendable {
    public var name: String
    public var score: Double
    public var given: Bool
    public var new: Bool

    public init(name: String, score: Double, given: Bool, new: Bool) {
        self.name = name
        self.score = score
        self.given = given
        self.new = new
    }
}

/// An earlier item a later one replaces, and why ("changed", "new value 5190 for 4417").
public struct Supersession: Codable, Equatable, Sendable {
    public var id: String
    public var message: String
    public var reason: String
    /// The earlier item's words and when they were said, so a reply can say what changed.
    public var text: String?
    public var said: String?

    public init(id: String, message: String, reason: String, text: String? = nil, said: String? = nil) {
        self.id = id
        self.message = message
        self.reason = reason
        self.text = text
        self.said = said
    }
}
