import Foundation
import PBCore
import PBSQLite

/// A task as the store holds it (named like the seed's TaskItem, away from Swift's `Task`).
public struct TaskItem: Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var notes: String
    public var due: String?
    public var dueGrain: String?
    public var priority: Int
    public var status: String
    public var projectID: Int64?
    public var createdAt: String
    public var updatedAt: String
    public var completedAt: String?

    public var ref: String { "task:\(id)" }
    public var isOpen: Bool { status == "open" }

    static let columns = "id, title, notes, due, due_grain, priority, status, project_id, created_at, updated_at, completed_at"

    init(_ s: PBSQLite.Statement) {
        id = s.int("id"); title = s.text("title"); notes = s.text("notes"); due = s.optionalText("due"); dueGrain = s.optionalText("due_grain")
        priority = Int(s.int("priority")); status = s.text("status"); projectID = s.optionalInt("project_id")
        createdAt = s.text("created_at"); updatedAt = s.text("updated_at"); completedAt = s.optionalText("completed_at")
    }

    /// The fields a later step may refer to (`$1.title`, `$1.due`, ...).
    public var refFields: [String: JSONValue] {
        var r: [String: JSONValue] = ["id": .string(ref), "title": .string(title), "status": .string(status), "priority": .number(Double(priority))]
        r["due"] = due.map(JSONValue.string) ?? .null
        if let dueGrain { r["due_grain"] = .string(dueGrain) }
        r["project"] = projectID.map { .string("project:\($0)") } ?? .null
        if !notes.isEmpty { r["notes"] = .string(notes) }
        return r
    }
}

public struct ProjectItem: Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var notes: String
    public var due: String?
    public var status: String

    public var ref: String { "project:\(id)" }
    static let columns = "id, title, notes, due, status"

    init(_ s: PBSQLite.Statement) {
        id = s.int("id"); title = s.text("title"); notes = s.text("notes"); due = s.optionalText("due"); status = s.text("status")
    }

    public var refFields: [String: JSONValue] {
        ["id": .string(ref), "title": .string(title), "status": .string(status), "due": due.map(JSONValue.string) ?? .null]
    }
}

public struct MilestoneItem: Equatable, Sendable {
    public var id: Int64
    public var projectID: Int64
    public var title: String
    public var due: String?
    public var status: String
    public var completedAt: String?

    public var ref: String { "milestone:\(id)" }
    static let columns = "id, project_id, title, due, status, completed_at"

    init(_ s: PBSQLite.Statement) {
        id = s.int("id"); projectID = s.int("project_id"); title = s.text("title"); due = s.optionalText("due"); status = s.text("status")
        completedAt = s.optionalText("completed_at")
    }

    public var refFields: [String: JSONValue] {
        ["id": .string(ref), "title": .string(title), "status": .string(status), "due": due.map(JSONValue.string) ?? .null,
         "project": .string("project:\(projectID)")]
    }
}

public struct NoteItem: Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var body: String
    public var tags: [String]

    public var ref: String { "note:\(id)" }
    static let columns = "id, title, body, tags"

    init(_ s: PBSQLite.Statement) {
        id = s.int("id"); title = s.text("title"); body = s.text("body")
        tags = s.text("tags").split(separator: ",").map(String.init)
    }

    public var refFields: [String: JSONValue] {
        ["id": .string(ref), "title": .string(title), "body": .string(body), "tags": .array(tags.map(JSONValue.string))]
    }
}

/// A reference to any item: `task:3`, `project:1`, `milestone:2`, `note:4`, `link:5`.
public struct ItemRef: Hashable, Sendable, CustomStringConvertible {
    /// What a reference names; the raw value is the word before the colon.
    public enum Kind: String, ClosedSet, CustomStringConvertible {
        case task, project, milestone, note, link

        public var description: String { rawValue }
    }

    public var kind: Kind
    public var id: Int64

    public init(kind: Kind, id: Int64) {
        self.kind = kind
        self.id = id
    }

    /// `kind:N`; a bare number is taken as `defaultKind` when one is given.
    public init?(_ text: String, defaultKind: Kind? = nil) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let colon = t.firstIndex(of: ":") {
            guard let k = Kind(rawValue: String(t[..<colon]).lowercased()), let n = Int64(t[t.index(after: colon)...]), n > 0 else { return nil }
            kind = k; id = n
        } else if let defaultKind, let n = Int64(t), n > 0 {
            kind = defaultKind; id = n
        } else {
            return nil
        }
    }

    public var description: String { "\(kind):\(id)" }

    var table: StoreTable {
        switch kind {
        case .task: return .tasks
        case .project: return .projects
        case .milestone: return .milestones
        case .note: return .notes
        case .link: return .links
        }
    }
}
