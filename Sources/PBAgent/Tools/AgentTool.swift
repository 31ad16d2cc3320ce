import Foundation
import PBCore

/// One capability of the agent: its name, the arguments it takes, what it does, and the
/// postcondition the executor checks after it ran. Every tool that writes does so through
/// `AgentStore`'s services, inside the journal entry the executor opened for it.
public struct AgentTool: Sendable {
    public struct Argument: Sendable {
        public var name: String
        public var help: String
        public var required: Bool

        public init(_ name: String, _ help: String, required: Bool = false) {
            self.name = name
            self.help = help
            self.required = required
        }
    }

    public var name: ToolName
    public var summary: String
    public var arguments: [Argument]
    /// Writes to the store (and so is journaled and undoable).
    public var mutates: Bool
    let body: @Sendable (ToolContext) throws -> ToolOutcome
    /// nil when the step did what it was asked; else what is wrong.
    let postcondition: @Sendable (ToolContext, ToolOutcome) throws -> String?

    public init(_ name: ToolName, _ summary: String, mutates: Bool, arguments: [Argument],
                run body: @escaping @Sendable (ToolContext) throws -> ToolOutcome,
                check postcondition: @escaping @Sendable (ToolContext, ToolOutcome) throws -> String? = { _, _ in nil }) {
        self.name = name
        self.summary = summary
        self.mutates = mutates
        self.arguments = arguments
        self.body = body
        self.postcondition = postcondition
    }

    /// Rejects arguments the tool does not take and required ones that are missing.
    public func validate(_ args: [String: JSONValue]) throws {
        let known = arguments.map(\.name)
        for key in args.keys.sorted() where !known.contains(key) {
            throw AgentError.unknownArgument(key, known: known)
        }
        for a in arguments where a.required {
            if args[a.name] == nil || args[a.name] == .null { throw AgentError.missingArgument(a.name) }
        }
    }

    public func run(_ context: ToolContext) throws -> ToolOutcome {
        try validate(context.args.values)
        return try body(context)
    }

    public func check(_ context: ToolContext, _ outcome: ToolOutcome) throws -> String? {
        try postcondition(context, outcome)
    }
}

/// What a tool call produced: the reference later steps can use, a one-line summary, and for
/// reading tools what they found.
public struct ToolOutcome: Sendable {
    public var ref: [String: JSONValue]?
    public var summary: String
    public var data: JSONValue?

    public init(ref: [String: JSONValue]?, summary: String, data: JSONValue? = nil) {
        self.ref = ref
        self.summary = summary
        self.data = data
    }

    /// The `id` of the reference (`task:3`).
    public var refID: String? { ref?["id"]?.stringValue }
}

/// Everything a tool call sees: the store, the plan's clock, where calendars are, its arguments.
public struct ToolContext {
    public let store: AgentStore
    public var clock: AgentClock
    public var calendarDirectory: String?
    public var args: ToolArguments
    /// Whether the step destroys or closes what it names (delete, complete): such a step runs only
    /// on an item its title really names, never on a loose match (see `TitleMatcher.Outcome.loose`).
    public var destructive: Bool
    /// The user's working hours for find_slot, as PB_WORK_HOURS gives them ("09:00-17:30").
    public var workHours: String?
    /// The contacts (PB_CONTACTS: a .vcf file or a folder), and the From of email drafts (PB_FROM).
    public var contactsPath: String?
    public var from: String?

    public init(store: AgentStore, clock: AgentClock, calendarDirectory: String? = nil, args: [String: JSONValue], destructive: Bool = false,
                workHours: String? = nil) {
        self.store = store
        self.clock = clock
        self.calendarDirectory = calendarDirectory
        self.workHours = workHours
        self.args = ToolArguments(args)
        self.destructive = destructive
    }
}
