/// `background`: what a conversation's next turn is told besides the recalled items (a
/// token-budgeted payload: a summary, the top items, the recent messages). pb-recall --context
/// adds it to a query; pb-pack puts the summary before the passages and the recent messages
/// after them, as far as the budget allows, and keeps in `context.background` what it used.
/// Neither is a passage: nothing is cited from them, and the extractive writer does not read them.
public struct Background: Codable, Equatable, Sendable {
    /// The workstream the question belongs to: its thread, its message's, or the nearest by meaning.
    public var workstream: String
    /// How the workstream was chosen: "thread", "message" or "meaning" (with `score`).
    public var chosenBy: String
    public var score: Double?
    /// A few lines on the workstream: its span, its latest current items, what was replaced.
    public var summary: String
    /// The workstream's latest messages before the question, oldest first.
    public var recent: [RecentMessage]

    enum CodingKeys: String, CodingKey {
        case workstream, score, summary, recent
        case chosenBy = "chosen_by"
    }

    public init(workstream: String, chosenBy: String, score: Double? = nil, summary: String, recent: [RecentMessage]) {
        self.workstream = workstream
        self.chosenBy = chosenBy
        self.score = score
        self.summary = summary
        self.recent = recent
    }
}

/// One message of a conversation as the background shows it.
public struct RecentMessage: Codable, Equatable, Sendable {
    public var id: String
    public var time: String
    public var speaker: String?
    public var role: MessageRole
    public var text: String

    public init(id: String, time: String, speaker: String?, role: MessageRole, text: String) {
        self.id = id
        self.time = time
        self.speaker = speaker
        self.role = role
        self.text = text
    }
}
