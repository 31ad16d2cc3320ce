import PBCore

/// How a plan was made when a model was asked (`pb-plan --endpoint`): which planner was meant,
/// which one's plan this is, and why the grammar planned instead when it did. The same shape as
/// an answer's receipt, so one jq filter reads both.
public struct PlanReceipt: Codable, Equatable, Sendable {
    /// The planners a request can go to.
    public enum Brain: String, Codable, Sendable {
        /// pb-plan's own grammar, which needs nothing outside the program.
        case grammar
        /// An OpenAI-compatible chat server asked for a plan within a JSON schema.
        case endpoint
    }

    public var intended: Brain
    public var actual: Brain
    /// Why the intended planner's plan is not the one given (the server failed, timed out, or
    /// proposed a plan the checks rejected); nil when it is.
    public var fallback: String?
    /// The server asked (its completions URL).
    public var endpoint: String?
    /// The model the server said answered.
    public var model: String?
    /// The tools the model was offered, the grammar's own reading first.
    public var offered: [ToolName]
    /// Milliseconds spent waiting for the server.
    public var elapsedMS: Int?

    enum CodingKeys: String, CodingKey {
        case intended, actual, fallback, endpoint, model, offered
        case elapsedMS = "elapsed_ms"
    }

    public init(intended: Brain, actual: Brain, fallback: String? = nil, endpoint: String? = nil, model: String? = nil,
                offered: [ToolName] = [], elapsedMS: Int? = nil) {
        self.intended = intended
        self.actual = actual
        self.fallback = fallback
        self.endpoint = endpoint
        self.model = model
        self.offered = offered
        self.elapsedMS = elapsedMS
    }
}
