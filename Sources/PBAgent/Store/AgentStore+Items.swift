import Foundation
import PBCore
import PBSQLite

/// Projects, milestones, notes and links: the services their tools write through.
extension AgentStore {
    // MARK: projects

    public func projects(where condition: String = "1", _ bindings: [SQLValue] = []) throws -> [ProjectItem] {
        let s = try db.prepare("SELECT \(ProjectItem.columns) FROM projects WHERE \(condition) ORDER BY id")
        try s.bind(bindings)
        var out: [ProjectItem] = []
        while try s.step() { out.append(ProjectItem(s)) }
        return out
    }

    public func project(_ id: Int64) throws -> ProjectItem? { try projects(where: "id = ?", [.int(id)]).first }

    public func createProject(title: String, notes: String = "", due: ISOMoment? = nil) throws -> ProjectItem {
        let stamp = clock.stamp
        let id = try insert(.projects, ["title": .text(title), "notes": .text(notes), "due": due.map { .text($0.text) } ?? .null,
                                        "status": .text("active"), "created_at": .text(stamp), "updated_at": .text(stamp)])
        return try project(id)!
    }

    /// Deletes a project with what is in it: its tasks (each as `deleteTask` does), its
    /// milestones, and the links to any of them. Every row goes through the journal, so undo
    /// puts the whole list back. Returns how many tasks went with it.
    @discardableResult
    public func deleteProject(_ p: ProjectItem) throws -> Int {
        let tasks = try tasks(where: "project_id = ?", [.int(p.id)])
        for t in tasks { try deleteTask(t) }
        for m in try milestones(where: "project_id = ?", [.int(p.id)]) {
            for id in try ids("SELECT id FROM links WHERE from_item = ? OR to_item = ?", [.text(m.ref), .text(m.ref)]) { try delete(.links, id: id) }
            try delete(.milestones, id: m.id)
        }
        for id in try ids("SELECT id FROM links WHERE from_item = ? OR to_item = ?", [.text(p.ref), .text(p.ref)]) { try delete(.links, id: id) }
        try delete(.projects, id: p.id)
        return tasks.count
    }

    /// Empties a project (a list): deletes its tasks, or only the done ones, each as deleteTask
    /// does (journalled, so undo puts them back); the project and its milestones stay.
    @discardableResult
    public func clearProject(_ p: ProjectItem, doneOnly: Bool) throws -> [TaskItem] {
        let tasks = try tasks(where: "project_id = ?", [.int(p.id)]).filter { !doneOnly || !$0.isOpen }
        for t in tasks { try deleteTask(t) }
        return tasks
    }

    // MARK: milestones

    public func milestones(where condition: String = "1", _ bindings: [SQLValue] = []) throws -> [MilestoneItem] {
        let s = try db.prepare("SELECT \(MilestoneItem.columns) FROM milestones WHERE \(condition) ORDER BY coalesce(due, '9999'), id")
        try s.bind(bindings)
        var out: [MilestoneItem] = []
        while try s.step() { out.append(MilestoneItem(s)) }
        return out
    }

    public func milestone(_ id: Int64) throws -> MilestoneItem? { try milestones(where: "id = ?", [.int(id)]).first }

    public func addMilestone(project: ProjectItem, title: String, due: ISOMoment?) throws -> MilestoneItem {
        let stamp = clock.stamp
        let id = try insert(.milestones, ["project_id": .int(project.id), "title": .text(title), "due": due.map { .text($0.text) } ?? .null,
                                          "status": .text("open"), "created_at": .text(stamp), "updated_at": .text(stamp)])
        return try milestone(id)!
    }

    public func completeMilestone(_ m: MilestoneItem) throws -> MilestoneItem {
        try update(.milestones, id: m.id, ["status": .text("done"), "completed_at": .text(clock.stamp), "updated_at": .text(clock.stamp)])
        return try milestone(m.id)!
    }

    // MARK: notes

    public func notes(where condition: String = "1", _ bindings: [SQLValue] = []) throws -> [NoteItem] {
        let s = try db.prepare("SELECT \(NoteItem.columns) FROM notes WHERE \(condition) ORDER BY id")
        try s.bind(bindings)
        var out: [NoteItem] = []
        while try s.step() { out.append(NoteItem(s)) }
        return out
    }

    public func note(_ id: Int64) throws -> NoteItem? { try notes(where: "id = ?", [.int(id)]).first }

    public func createNote(title: String, body: String, tags: [String]) throws -> NoteItem {
        let stamp = clock.stamp
        let id = try insert(.notes, ["title": .text(title), "body": .text(body), "tags": .text(tags.joined(separator: ",")),
                                     "created_at": .text(stamp), "updated_at": .text(stamp)])
        return try note(id)!
    }

    /// Appends a paragraph; the inverse restores the body as it was.
    public func appendNote(_ n: NoteItem, text: String) throws -> NoteItem {
        let body = n.body.isEmpty ? text : n.body + "\n\n" + text
        try update(.notes, id: n.id, ["body": .text(body), "updated_at": .text(clock.stamp)])
        return try note(n.id)!
    }

    // MARK: links

    public func itemExists(_ ref: ItemRef) throws -> Bool { try exists(ref.table, id: ref.id) }

    /// The title of any item, for messages.
    public func itemTitle(_ ref: ItemRef) throws -> String? {
        guard ref.kind != .link else { return try exists(.links, id: ref.id) ? ref.description : nil }
        return try scalarText("SELECT title FROM \(ref.table.rawValue) WHERE id = ?", [.int(ref.id)])
    }

    public func linkID(from: ItemRef, to: ItemRef, kind: String) throws -> Int64? {
        try scalarInt("SELECT id FROM links WHERE from_item = ? AND to_item = ? AND kind = ?",
                         [.text(from.description), .text(to.description), .text(kind)])
    }

    /// Links two items with a typed edge; an existing identical link is kept (created: false).
    public func link(from: ItemRef, to: ItemRef, kind: String) throws -> (id: Int64, created: Bool) {
        if let id = try linkID(from: from, to: to, kind: kind) { return (id, false) }
        let id = try insert(.links, ["from_item": .text(from.description), "to_item": .text(to.description), "kind": .text(kind),
                                     "created_at": .text(clock.stamp)])
        return (id, true)
    }

    // MARK: exports

    public func exportedUID(item: String, path: String) throws -> String? {
        try scalarText("SELECT uid FROM exports WHERE item = ? AND path = ?", [.text(item), .text(path)])
    }

    public func recordExport(item: String, path: String, uid: String) throws {
        try insert(.exports, ["item": .text(item), "path": .text(path), "uid": .text(uid), "exported_at": .text(clock.stamp)])
    }
}
