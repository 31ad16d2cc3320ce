/// `attribution`: whose words a question about one speaker finds. pb-recall asks the question
/// again with the speaker's name taken out ("what did someone realize after the charity race?")
/// and keeps the first item that ranking finds: its speaker, message and text. When that is
/// another speaker than the one named, the memory holds what was asked as the other speaker's
/// words ("what did Caroline realize after her charity race?" when Melanie ran it), and
/// pb-verify's gate H fails: the memory does not hold it for the one named.
public struct Attribution: Codable, Equatable, Sendable {
    /// The speaker the question names.
    public var named: String
    /// The question as asked without the name.
    public var asked: String
    /// The speaker of the first item found for `asked` (nil: a message without a speaker).
    public var speaker: String?
    /// That item's message ids, and its text.
    public var source: [String]
    public var text: String

    public init(named: String, asked: String, speaker: String?, source: [String], text: String) {
        self.named = named
        self.asked = asked
        self.speaker = speaker
        self.source = source
        self.text = text
    }

    /// Whether the words found are another speaker's than the one named.
    public var isAnother: Bool { speaker != nil && speaker != named }
}
