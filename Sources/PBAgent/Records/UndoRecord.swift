import PBCore

/// `undo`: what pb-undo reverted. `status` is `reverted`, `nothing` (no group left to undo) or
/// `refused` (an inverse step could not apply, and so nothing changed; `problems` says why).
public struct UndoRecord: PBRecord, Equatable {
    public static let kindName = "undo"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "undo"
    public var group: String?
    /// The one entry reverted, with `--entry`.
    public var entry: String?
    public var reverted: [RevertedEntry]
    public var status: Status
    public var message: String
    public var problems: [String]?
    public var dryRun: Bool?
    /// With --redo: the new group that reapplied `group`.
    public var redoGroup: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, group, entry, reverted, status, message, problems
        case dryRun = "dry_run", redoGroup = "redo_group"
    }

    /// An undo's outcome: a closed set (pb-records(5)).
    public enum Status: String, ClosedSet {
        case reverted, nothing, refused, redone
    }

    public init(group: String?, entry: String? = nil, reverted: [RevertedEntry], status: Status, message: String,
                problems: [String]? = nil, dryRun: Bool? = nil) {
        self.group = group
        self.entry = entry
        self.reverted = reverted
        self.status = status
        self.message = message
        self.problems = problems
        self.dryRun = dryRun
    }
}

/// One journal entry that was (or, on a dry run, would be) reverted.
public struct RevertedEntry: Codable, Equatable, Sendable {
    public var entry: String
    public var group: String
    public var tool: String
    public var summary: String

    public init(entry: String, group: String, tool: String, summary: String) {
        self.entry = entry
        self.group = group
        self.tool = tool
        self.summary = summary
    }
}
