import Foundation
import PBCore

/// Projects, milestones, notes and links.
enum ItemTools {
    static let createProject = AgentTool(.createProject, "create a project", mutates: true, arguments: [
        .init("title", "the project's name", required: true),
        .init("notes", "longer text"),
        .init("due", "ISO 8601 date the project should be done by"),
    ], run: { ctx in
        let p = try ctx.store.createProject(title: try ctx.args.required("title"), notes: try ctx.args.string("notes") ?? "",
                                            due: try ctx.args.moment("due", clock: ctx.clock))
        return ToolOutcome(ref: p.refFields, summary: "created \(p.ref) \"\(p.title)\"")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id), let p = try ctx.store.project(ref.id) else { return "the created project does not exist" }
        return p.title == (try ctx.args.required("title")) ? nil : "\(p.ref) has title \"\(p.title)\""
    })

    static let clearProject = AgentTool(.clearProject, "empty a project or list: delete every task on it, or with done only the done ones; the list and its milestones stay (undo puts the tasks back)", mutates: true, arguments: [
        .init("id", "the project, as project:N (or N)"),
        .init("title", "the project, by its whole title when no id is given"),
        .init("done", "true: only the tasks that are done"),
    ], run: { ctx in
        let p = try wholeProject(ctx)
        let doneOnly = try ctx.args.bool("done") ?? false
        let gone = try ctx.store.clearProject(p, doneOnly: doneOnly)
        let kind = doneOnly ? "done task" : "task"
        let what = gone.isEmpty ? "had no \(kind)s; nothing was deleted"
            : "deleted \(gone.count) \(kind)\(gone.count == 1 ? "" : "s"): " + gone.prefix(10).map { "\"\($0.title)\"" }.joined(separator: ", ") + (gone.count > 10 ? ", ..." : "")
        return ToolOutcome(ref: ["id": .string(p.ref), "title": .string(p.title)], summary: "emptied \(p.ref) \"\(p.title)\": \(what)",
                           data: .object(["deleted": .array(gone.map { .string($0.ref) })]))
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id) else { return "no reference" }
        guard try ctx.store.project(ref.id) != nil else { return "\(ref) is gone, though only its tasks were to go" }
        let doneOnly = try ctx.args.bool("done") ?? false
        let left = try ctx.store.tasks(where: "project_id = ?", [.int(ref.id)]).filter { !doneOnly || !$0.isOpen }
        return left.isEmpty ? nil : "\(left.count) of its tasks are left"
    })

    /// The project an `id` or a whole `title` names: a whole list goes, or is emptied, only by its
    /// whole name ("shopping" is not "shopping list", nor "shoping list" it, though a lookup would
    /// find it).
    static func wholeProject(_ ctx: ToolContext) throws -> ProjectItem {
        if let id = try ctx.args.text("id") {
            guard let ref = try ctx.itemRef(id, argument: "id", kind: .project, bareNumber: true), let found = try ctx.store.project(ref.id) else {
                throw AgentError.notFound("no project \(id)")
            }
            return found
        }
        guard let title = try ctx.args.text("title") else { throw AgentError.missingArgument("id or title") }
        let p = try ctx.project(reference: title, argument: "title")
        guard Planner.titleKey(title) == Planner.titleKey(p.title) else {
            throw AgentError.conflict("'\(title)' is not the whole name of \(p.ref) \"\(p.title)\": a list is deleted or emptied only by its whole name or its id; nothing was changed")
        }
        return p
    }

    static let deleteProject = AgentTool(.deleteProject, "delete a project or list with its tasks, milestones and links (undo puts them all back)", mutates: true, arguments: [
        .init("id", "the project, as project:N (or N)"),
        .init("title", "the project, by title when no id is given"),
    ], run: { ctx in
        let p = try wholeProject(ctx)
        let n = try ctx.store.deleteProject(p)
        let with = n == 0 ? "" : n == 1 ? " and its 1 task" : " and its \(n) tasks"
        return ToolOutcome(ref: ["id": .string(p.ref), "title": .string(p.title)], summary: "deleted \(p.ref) \"\(p.title)\"\(with)")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id) else { return "no reference" }
        if try ctx.store.project(ref.id) != nil { return "\(ref) still exists" }
        return try ctx.store.tasks(where: "project_id = ?", [.int(ref.id)]).isEmpty ? nil : "tasks of \(ref) are left"
    })

    static let addMilestone = AgentTool(.addMilestone, "add a milestone to a project", mutates: true, arguments: [
        .init("project", "project:N or a title", required: true),
        .init("title", "the milestone", required: true),
        .init("due", "ISO 8601 date or date and time"),
    ], run: { ctx in
        let p = try ctx.project(reference: try ctx.args.required("project"), argument: "project")
        let m = try ctx.store.addMilestone(project: p, title: try ctx.args.required("title"), due: try ctx.args.moment("due", clock: ctx.clock))
        return ToolOutcome(ref: m.refFields, summary: "added \(m.ref) \"\(m.title)\" to \(p.ref) \"\(p.title)\"\(m.due.map { " due \($0)" } ?? "")")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id), let m = try ctx.store.milestone(ref.id) else { return "the milestone does not exist" }
        let p = try ctx.project(reference: try ctx.args.required("project"), argument: "project")
        return m.projectID == p.id ? nil : "\(m.ref) is not in \(p.ref)"
    })

    static let completeMilestone = AgentTool(.completeMilestone, "mark a milestone done", mutates: true, arguments: [
        .init("id", "milestone:N (or N)"),
        .init("title", "the milestone, by title"),
        .init("project", "narrows a title lookup to one project"),
    ], run: { ctx in
        let m: MilestoneItem
        if let id = try ctx.args.text("id") {
            m = try ctx.milestone(reference: id, argument: "id", bareNumber: true)
        } else if let title = try ctx.args.text("title") {
            let p = try ctx.args.text("project").map { try ctx.project(reference: $0, argument: "project") }
            m = try ctx.milestone(reference: title, argument: "title", bareNumber: false, project: p)
        } else {
            throw AgentError.missingArgument("id or title")
        }
        guard m.status == "open" else { return ToolOutcome(ref: m.refFields, summary: "\(m.ref) \"\(m.title)\" was already done") }
        let done = try ctx.store.completeMilestone(m)
        return ToolOutcome(ref: done.refFields, summary: "completed \(done.ref) \"\(done.title)\"")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id), let m = try ctx.store.milestone(ref.id) else { return "the milestone does not exist" }
        return m.status == "done" ? nil : "\(m.ref) is not done"
    })

    static let createNote = AgentTool(.createNote, "create a note (a title, or the first line of the body)", mutates: true, arguments: [
        .init("title", "the note's title"),
        .init("body", "the text"),
        .init("tags", "an array of strings, or one comma-separated string"),
    ], run: { ctx in
        let body = try ctx.args.string("body") ?? ""
        var title = try ctx.args.text("title")
        if title == nil {
            let first = body.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !first.isEmpty else { throw AgentError.missingArgument("title or body") }
            title = first.count > 60 ? String(first.prefix(60)) + "…" : first
        }
        let tags = try ctx.args.strings("tags") ?? []
        guard tags.allSatisfy({ !$0.contains(",") }) else { throw AgentError.badArgument("tags", "a tag cannot contain a comma") }
        let n = try ctx.store.createNote(title: title!, body: body, tags: tags)
        return ToolOutcome(ref: n.refFields, summary: "created \(n.ref) \"\(n.title)\"")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id), try ctx.store.note(ref.id) != nil else { return "the note does not exist" }
        return nil
    })

    static let appendNote = AgentTool(.appendNote, "add a paragraph to a note", mutates: true, arguments: [
        .init("id", "note:N (or N)"),
        .init("title", "the note, by title"),
        .init("text", "the paragraph to add", required: true),
    ], run: { ctx in
        let n: NoteItem
        if let id = try ctx.args.text("id") { n = try ctx.note(reference: id, argument: "id", bareNumber: true) }
        else if let title = try ctx.args.text("title") { n = try ctx.note(reference: title, argument: "title", bareNumber: false) }
        else { throw AgentError.missingArgument("id or title") }
        let u = try ctx.store.appendNote(n, text: try ctx.args.required("text"))
        return ToolOutcome(ref: u.refFields, summary: "appended to \(u.ref) \"\(u.title)\"")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id), let n = try ctx.store.note(ref.id) else { return "the note does not exist" }
        return n.body.hasSuffix(try ctx.args.required("text")) ? nil : "\(n.ref) does not end with the appended text"
    })

    static let linkItems = AgentTool(.linkItems, "link two items (tasks, projects, milestones, notes) with a typed edge", mutates: true, arguments: [
        .init("from", "kind:N or a title", required: true),
        .init("to", "kind:N or a title", required: true),
        .init("kind", "the link's type (default related)"),
    ], run: { ctx in
        let from = try ctx.anyItem(try ctx.args.required("from"), argument: "from")
        let to = try ctx.anyItem(try ctx.args.required("to"), argument: "to")
        guard from != to else { throw AgentError.conflict("cannot link \(from) to itself") }
        let kind = (try ctx.args.text("kind") ?? "related").lowercased()
        let (id, created) = try ctx.store.link(from: from, to: to, kind: kind)
        let ref: [String: JSONValue] = ["id": .string("link:\(id)"), "from": .string(from.description), "to": .string(to.description), "kind": .string(kind)]
        return ToolOutcome(ref: ref, summary: created ? "linked \(from) to \(to) (\(kind))" : "\(from) was already linked to \(to) (\(kind))")
    }, check: { ctx, o in
        guard let f = o.ref?["from"]?.stringValue.flatMap({ ItemRef($0) }), let t = o.ref?["to"]?.stringValue.flatMap({ ItemRef($0) }),
              let k = o.ref?["kind"]?.stringValue else { return "no reference" }
        return try ctx.store.linkID(from: f, to: t, kind: k) != nil ? nil : "the link does not exist"
    })

    static let all = [createProject, clearProject, deleteProject, addMilestone, completeMilestone, createNote, appendNote, linkItems]
}
