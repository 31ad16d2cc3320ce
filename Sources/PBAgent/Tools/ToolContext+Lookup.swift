import Foundation
import PBCore

/// Finding the item a step names: by reference (`task:3`, or a bare number for an id argument)
/// or by title (see `TitleMatcher`).
extension ToolContext {

    /// The task named by `id` (a reference) or else `title`.
    public func task(idArg: String = "id", titleArg: String = "title", preferOpen: Bool = true) throws -> TaskItem {
        if let id = try args.text(idArg) { return try task(reference: id, preferOpen: preferOpen, argument: idArg, bareNumber: true) }
        if let title = try args.text(titleArg) {
            // "remove milk from my shopping list": the milk of that list, never another list's.
            if let list = try args.text("in_project"), ItemRef(title) == nil {
                // The list by its whole name or id, as lists go: "shopping list" is not "work shopping list".
                let p: ProjectItem
                if ItemRef(list) != nil {
                    p = try project(reference: list, argument: "in_project")
                } else {
                    let whole = try store.projects().filter { Planner.titleKey($0.title) == Planner.titleKey(list) }
                    guard whole.count == 1 else {
                        throw whole.isEmpty ? AgentError.notFound("no project or list is called \"\(list)\" (a list is named by its whole name); nothing was changed")
                                            : AgentError.ambiguous(kind: "project", query: list, candidates: whole.map { "\($0.ref) \"\($0.title)\"" })
                    }
                    p = whole[0]
                }
                let candidates = try store.tasks(where: "project_id = ?", [.int(p.id)]).map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.isOpen) }
                guard !candidates.isEmpty else { throw AgentError.notFound("\(p.ref) \"\(p.title)\" has no tasks; nothing was changed") }
                return try store.task(try resolve(title, kind: "task on \(p.ref) \"\(p.title)\"", candidates: candidates, preferOpen: preferOpen).id)!
            }
            return try task(reference: title, preferOpen: preferOpen, argument: titleArg, bareNumber: false)
        }
        throw AgentError.missingArgument("\(idArg) or \(titleArg)")
    }

    /// A task by reference or title.
    public func task(reference text: String, preferOpen: Bool = true, argument: String, bareNumber: Bool = false) throws -> TaskItem {
        if let ref = try itemRef(text, argument: argument, kind: .task, bareNumber: bareNumber) {
            guard let t = try store.task(ref.id) else { throw AgentError.notFound("no \(ref) (it does not exist or was deleted)") }
            return t
        }
        let candidates = try store.tasks().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.isOpen) }
        let ref = try resolve(text, kind: "task", candidates: candidates, preferOpen: preferOpen)
        return try store.task(ref.id)!
    }

    public func project(reference text: String, argument: String) throws -> ProjectItem {
        if let ref = try itemRef(text, argument: argument, kind: .project, bareNumber: false) {
            guard let p = try store.project(ref.id) else { throw AgentError.notFound("no \(ref)") }
            return p
        }
        let candidates = try store.projects().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.status == "active") }
        return try store.project(try resolve(text, kind: "project", candidates: candidates, preferOpen: true).id)!
    }

    public func note(reference text: String, argument: String, bareNumber: Bool) throws -> NoteItem {
        if let ref = try itemRef(text, argument: argument, kind: .note, bareNumber: bareNumber) {
            guard let n = try store.note(ref.id) else { throw AgentError.notFound("no \(ref)") }
            return n
        }
        let candidates = try store.notes().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: true) }
        return try store.note(try resolve(text, kind: "note", candidates: candidates, preferOpen: true).id)!
    }

    public func milestone(reference text: String, argument: String, bareNumber: Bool, project: ProjectItem? = nil) throws -> MilestoneItem {
        if let ref = try itemRef(text, argument: argument, kind: .milestone, bareNumber: bareNumber) {
            guard let m = try store.milestone(ref.id) else { throw AgentError.notFound("no \(ref)") }
            return m
        }
        let all = try project.map { try store.milestones(where: "project_id = ?", [.int($0.id)]) } ?? store.milestones()
        let candidates = all.map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.status == "open") }
        return try store.milestone(try resolve(text, kind: "milestone", candidates: candidates, preferOpen: true).id)!
    }

    /// Any item: a reference of any kind, or a title looked up across tasks, projects,
    /// milestones and notes at once.
    public func anyItem(_ text: String, argument: String) throws -> ItemRef {
        if let ref = ItemRef(text) {
            guard try store.itemExists(ref) else { throw AgentError.notFound("no \(ref)") }
            return ref
        }
        var candidates = try store.tasks().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.isOpen) }
        candidates += try store.projects().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.status == "active") }
        candidates += try store.milestones().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: $0.status == "open") }
        candidates += try store.notes().map { TitleMatcher.Candidate(ref: $0.ref, title: $0.title, open: true) }
        return try resolve(text, kind: "item", candidates: candidates, preferOpen: true)
    }

    /// A reference of the expected kind, nil when the text is a title instead.
    func itemRef(_ text: String, argument: String, kind: ItemRef.Kind, bareNumber: Bool) throws -> ItemRef? {
        guard let ref = ItemRef(text, defaultKind: bareNumber ? kind : nil) else {
            if bareNumber, !text.contains(" ") {
                throw AgentError.badArgument(argument, "expected a \(kind) reference such as \(kind):3, got '\(text)'")
            }
            return nil
        }
        guard ref.kind == kind else { throw AgentError.badArgument(argument, "expected a \(kind), got \(ref)") }
        return ref
    }

    func resolve(_ query: String, kind: String, candidates: [TitleMatcher.Candidate], preferOpen: Bool) throws -> ItemRef {
        switch TitleMatcher(preferOpen: preferOpen).match(query, in: candidates) {
        case .found(let c): return ItemRef(c.ref)!
        case let .loose(c, missing):
            if destructive { throw AgentError.unsure(kind: kind, query: query, candidate: "\(c.ref) \"\(c.title)\"", missing: missing) }
            return ItemRef(c.ref)!
        case .none: throw AgentError.notFound("no \(kind) matches '\(query)'")
        case .ambiguous(let list):
            throw AgentError.ambiguous(kind: kind, query: query, candidates: list.map { "\($0.ref) \"\($0.title)\"" })
        }
    }
}
