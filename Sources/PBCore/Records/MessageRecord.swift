/// `message`: something the user said or wrote, for pb-remember. `time` is when it was said (ISO
/// 8601 with an offset, or a date); `thread` names a workstream the caller already knows. A
/// message without `id` is named by its content (so a re-run stores it once); a plain text line
/// is a message said now.
public struct MessageRecord: PBRecord, Equatable {
    public static let kindName = "message"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "message"
    public var id: String?
    public var time: String?
    public var text: String
    public var speaker: String?
    public var thread: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, id, time, text, speaker, thread
    }

    public init(id: String? = nil, time: String? = nil, text: String, speaker: String? = nil, thread: String? = nil) {
        self.id = id
        self.time = time
        self.text = text
        self.speaker = speaker
        self.thread = thread
    }
}
