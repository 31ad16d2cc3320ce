import PBCore

/// `result`: what pb-exec did with a plan. One journal `group` per plan (absent when nothing was
/// written); `undoable` says whether `pb-undo --group` has anything to revert; `message` says in
/// plain words what is in place.
public struct ResultRecord: PBRecord, Equatable {
    public static let kindName = "result"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "result"
    public var group: String?
    /// The plan's request text, carried over.
    public var text: String?
    public var now: String?
    /// `ok` when every step succeeded, else `failed`.
    public var status: Status
    public var steps: [StepResult]
    public var undoable: Bool
    public var message: String
    /// Present and true when the plan ran with `--dry-run`: nothing was written.
    public var dryRun: Bool?
    /// The plan's question, carried over: what it needs to be told to do what was asked.
    public var ask: PlanAsk?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, group, text, now, status, steps, undoable, message, ask
        case dryRun = "dry_run"
    }

    /// A plan's outcome: a closed set (pb-records(5)).
    public enum Status: String, ClosedSet {
        case ok, failed
    }

    public init(group: String?, text: String?, now: String?, status: Status, steps: [StepResult], undoable: Bool, message: String, dryRun: Bool? = nil) {
        self.group = group
        self.text = text
        self.now = now
        self.status = status
        self.steps = steps
        self.undoable = undoable
        self.message = message
        self.dryRun = dryRun
    }
}

/// The outcome of one plan step.
public struct StepResult: Codable, Equatable, Sendable {
    public enum Status: String, ClosedSet {
        case ok, failed, skipped
    }

    public var n: Int
    public var tool: ToolName
    public var status: Status
    /// What the step touched: `id` (`task:3`, `note:1`, ...) and fields later steps may refer to.
    public var ref: [String: JSONValue]?
    public var summary: String?
    /// Why the step failed.
    public var error: String?
    /// What a reading tool found (agenda items, search hits, ...).
    public var data: JSONValue?
    /// The journal entry holding the step's inverse, when it wrote something.
    public var entry: String?

    public init(n: Int, tool: ToolName, status: Status, ref: [String: JSONValue]? = nil, summary: String? = nil,
                error: String? = nil, data: JSONValue? = nil, entry: String? = nil) {
        self.n = n
        self.tool = tool
        self.status = status
        self.ref = ref
        self.summary = summary
        self.error = error
        self.data = data
        self.entry = entry
    }
}
