/// `message`: something the user said or wrote, for pb-remember. `time` is when it was said (ISO
/// 8601 with an offset, or a date); `thread` names a workstream the caller already knows. A
/// message without `id` is named by its content (so a re-run stores it once); a plain text line
/// is a message said now.
///
/// `role` is `user` (the default: someone's words, cut into items) or `assistant` (a reply
/// pb-thread wrote: kept in the conversation, shown among the recent messages, never cut into
/// items, so the memory never quotes itself back as evidence). `reply_to` names the message a
/// reply answers; taking that message back takes its replies with it.
public struct MessageRecord: PBRecord, Equatable {
    public static let kindName = "message"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "message"
    public var id: String?
    public var time: String?
    public var text: String
    public var speaker: String?
    public var thread: String?
    public var role: MessageRole?
    public var replyTo: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, id, time, text, speaker, thread, role
        case replyTo = "reply_to"
    }

    public init(id: String? = nil, time: String? = nil, text: String, speaker: String? = nil, thread: String? = nil,
                role: MessageRole? = nil, replyTo: String? = nil) {
        self.id = id
        self.time = time
        self.text = text
        self.speaker = speaker
        self.thread = thread
        self.role = role
        self.replyTo = replyTo
    }
}

/// Who wrote a message (pb-records(5)): a closed set.
public enum MessageRole: String, ClosedSet {
    /// A person: the message is cut into items.
    case user
    /// PocketBrains' own reply: kept, never cut into items.
    case assistant
}
