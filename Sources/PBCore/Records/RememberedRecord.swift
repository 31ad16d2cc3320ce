/// `remembered`: pb-remember's receipt for one message (with `--receipts`), written before the
/// memory records derived from it: the id and time it was stored under (filled in when the
/// message gave none), its role, the workstream it went to, and its items. A message remembered
/// before says so (`again`) and lists nothing new. A composition (pb-thread) learns from it where
/// a message went without parsing diagnostics.
public struct RememberedRecord: PBRecord, Equatable {
    public static let kindName = "remembered"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "remembered"
    public var memory: String
    public var message: String
    public var time: String
    public var role: MessageRole
    public var replyTo: String?
    /// Absent for a message remembered before (its workstream was chosen then).
    public var workstream: WorkstreamChoice?
    /// The items' ids, in order ("i-12").
    public var items: [String]
    public var again: Bool
    /// With pb-remember --endpoint: who cut the message into items, and why not the endpoint.
    public var extraction: Extraction?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, memory, message, time, role, workstream, items, again, extraction
        case replyTo = "reply_to"
    }

    public init(memory: String, message: String, time: String, role: MessageRole, replyTo: String?,
                workstream: WorkstreamChoice?, items: [String], again: Bool) {
        self.memory = memory
        self.message = message
        self.time = time
        self.role = role
        self.replyTo = replyTo
        self.workstream = workstream
        self.items = items
        self.again = again
    }
}

/// How a message was cut into items: `endpoint` (its items checked against the message's own
/// words; `unplaced` counts those that were not) or `deterministic` (with `fallback`, why the
/// endpoint was not used).
public struct Extraction: Codable, Equatable, Sendable {
    public var route: String
    public var fallback: String?
    public var unplaced: Int?
    public init(route: String, fallback: String? = nil, unplaced: Int? = nil) {
        self.route = route
        self.fallback = fallback
        self.unplaced = unplaced
    }
}
