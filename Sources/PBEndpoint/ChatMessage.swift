/// One message of an OpenAI-style chat: `system`, `user` or `assistant`, and its text.
public struct ChatMessage: Codable, Equatable, Sendable {
    public var role: String
    public var content: String

    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }
}

/// What a chat endpoint wrote, with what it says it cost and how long the whole request took.
public struct ChatCompletion: Equatable, Sendable {
    /// `choices[0].message.content`, without surrounding whitespace.
    public var text: String
    /// The model the server says answered (servers often name the file they loaded).
    public var model: String?
    /// `usage.prompt_tokens` and `usage.completion_tokens`, when the server reports them.
    public var promptTokens: Int?
    public var completionTokens: Int?
    /// Wall time of the whole request: connect, send, generate, receive.
    public var milliseconds: Double

    public init(text: String, model: String? = nil, promptTokens: Int? = nil, completionTokens: Int? = nil,
                milliseconds: Double) {
        self.text = text
        self.model = model
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.milliseconds = milliseconds
    }
}
