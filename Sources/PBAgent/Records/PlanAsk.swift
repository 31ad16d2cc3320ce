import PBCore

/// What a plan needs to be told before it can act: the request was understood as a tool's, but
/// the thing it acts on was not named ("delete that item", "clear the list", "add a new item").
/// A plan with an `ask` and no steps writes nothing; pb-do puts the question to the person, with
/// the store's candidates as `choices` where there are few enough to list.
public struct PlanAsk: Codable, Equatable, Sendable {
    /// What is missing: which existing task, list or event, what a new item says, which day a
    /// question is about, or whose contact.
    public enum Need: String, ClosedSet {
        case task, list, event, what, when, who
    }

    /// The tool the request was read as.
    public var tool: ToolName
    public var needs: Need
    /// The question, in plain words, with an example of a request that says it.
    public var question: String
    /// The store's candidates (titles, or an event with its day), when there are at most eight.
    public var choices: [String]?
    /// What the request did say (a due, the list to file into), as the tool's arguments.
    public var args: [String: JSONValue]?

    public init(tool: ToolName, needs: Need, question: String, choices: [String]? = nil, args: [String: JSONValue]? = nil) {
        self.tool = tool
        self.needs = needs
        self.question = question
        self.choices = choices
        self.args = args
    }
}
