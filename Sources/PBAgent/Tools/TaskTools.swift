import Foundation
import PBCore
import PBSQLite
import PBIndex

/// The task tools: create, update, complete, reopen, delete, reschedule, snooze, priority,
/// recurrence and dependencies.
enum TaskTools {
    static let lookup: [AgentTool.Argument] = [
        .init("id", "the task, as task:N (or N)"),
        .init("title", "the task, by title when no id is given"),
        .init("in_project", "narrows a title lookup to the tasks of one project or list: project:N or a title"),
    ]

    static func quoted(_ t: TaskItem) -> String { "\(t.ref) \"\(t.title)\"" }

    static func dueText(_ t: TaskItem) -> String { t.due.map { " due \($0)" } ?? "" }

    static func grain(_ ctx: ToolContext) throws -> String? {
        guard let g = try ctx.args.text("due_grain") else { return nil }
        guard g.allSatisfy({ $0.isLetter || $0 == "_" }), g.count <= 16 else {
            throw AgentError.badArgument("due_grain", "expected a word such as day, minute, week, got '\(g)'")
        }
        return g.lowercased()
    }

    static func fetched(_ ctx: ToolContext, _ o: ToolOutcome) throws -> TaskItem? {
        guard let id = o.refID, let ref = ItemRef(id), ref.kind == .task else { return nil }
        return try ctx.store.task(ref.id)
    }

    static let createTask = AgentTool(.createTask, "create a task", mutates: true, arguments: [
        .init("title", "what to do", required: true),
        .init("notes", "longer text"),
        .init("due", "ISO 8601 date or date and time"),
        .init("due_grain", "how precise the due is: day, minute, week, ... (default day for a date, minute for a time)"),
        .init("priority", "0-3 or none, low, medium, high"),
        .init("project", "the project to file it in: project:N or a title"),
    ], run: { ctx in
        let title = try ctx.args.required("title")
        let due = try ctx.args.moment("due", clock: ctx.clock)
        let project = try ctx.args.text("project").map { try ctx.project(reference: $0, argument: "project") }
        let t = try ctx.store.createTask(title: title, notes: try ctx.args.string("notes") ?? "", due: due, grain: try grain(ctx),
                                         priority: try ctx.args.priority("priority") ?? 0, projectID: project?.id)
        let into = project.map { " in \($0.ref) \"\($0.title)\"" } ?? ""
        return ToolOutcome(ref: t.refFields, summary: "created \(quoted(t))\(dueText(t))\(into)")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the created task does not exist" }
        if t.title != (try ctx.args.required("title")) { return "\(t.ref) has title \"\(t.title)\"" }
        if let p = try ctx.args.text("project"), t.projectID != (try ctx.project(reference: p, argument: "project")).id {
            return "\(t.ref) is not in the requested project"
        }
        if let due = try ctx.args.moment("due", clock: ctx.clock), t.due != due.text { return "\(t.ref) is due \(t.due ?? "never"), not \(due.text)" }
        return nil
    })

    static let updateTask = AgentTool(.updateTask, "change a task's title, notes, due, priority or project", mutates: true, arguments: lookup + [
        .init("new_title", "the new title"),
        .init("notes", "the new notes"),
        .init("due", "the new due (null clears it)"),
        .init("due_grain", "how precise the due is"),
        .init("priority", "0-3 or none, low, medium, high"),
        .init("project", "project:N or a title (null takes it out of its project)"),
    ], run: { ctx in
        let t = try ctx.task()
        var changes: [String: SQLValue] = [:]
        var changed: [String] = []
        if let title = try ctx.args.text("new_title") { changes["title"] = .text(title); changed.append("title") }
        if ctx.args.has("notes") { changes["notes"] = .text(try ctx.args.string("notes") ?? ""); changed.append("notes") }
        if ctx.args.isNull("due") {
            changes["due"] = .null; changes["due_grain"] = .null; changed.append("due")
        } else if let due = try ctx.args.moment("due", clock: ctx.clock) {
            changes["due"] = .text(due.text)
            changes["due_grain"] = .text(try grain(ctx) ?? (due.dateOnly ? "day" : "minute"))
            changed.append("due")
        } else if let g = try grain(ctx) {
            changes["due_grain"] = .text(g); changed.append("due_grain")
        }
        if let p = try ctx.args.priority("priority") { changes["priority"] = .int(Int64(p)); changed.append("priority") }
        if ctx.args.isNull("project") {
            changes["project_id"] = .null; changed.append("project")
        } else if let p = try ctx.args.text("project") {
            changes["project_id"] = .int(try ctx.project(reference: p, argument: "project").id); changed.append("project")
        }
        guard !changes.isEmpty else {
            throw AgentError.missingArgument("something to change (new_title, notes, due, due_grain, priority or project)")
        }
        let u = try ctx.store.updateTask(t.id, changes)
        return ToolOutcome(ref: u.refFields, summary: "updated \(quoted(u)): \(changed.joined(separator: ", "))")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        if let title = try ctx.args.text("new_title"), t.title != title { return "\(t.ref) has title \"\(t.title)\"" }
        if ctx.args.isNull("due"), t.due != nil { return "\(t.ref) still has a due" }
        if let due = try ctx.args.moment("due", clock: ctx.clock), t.due != due.text { return "\(t.ref) is due \(t.due ?? "never")" }
        if let p = try ctx.args.priority("priority"), t.priority != p { return "\(t.ref) has priority \(t.priority)" }
        return nil
    })

    static let completeTask = AgentTool(.completeTask, "mark a task done (a repeating task spawns its next occurrence)", mutates: true, arguments: lookup, run: { ctx in
        let t = try ctx.task()
        guard t.isOpen else { return ToolOutcome(ref: t.refFields, summary: "\(quoted(t)) was already done") }
        let (done, next) = try ctx.store.completeTask(t)
        var ref = done.refFields
        var summary = "completed \(quoted(done))"
        if let next {
            ref["next"] = .string(next.ref)
            summary += "; next occurrence \(next.ref)\(dueText(next))"
        }
        return ToolOutcome(ref: ref, summary: summary)
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        guard t.status == "done" else { return "\(t.ref) is not done" }
        if let next = o.ref?["next"]?.stringValue, let ref = ItemRef(next) {
            guard try ctx.store.task(ref.id) != nil else { return "the next occurrence \(next) does not exist" }
            guard try ctx.store.recurrence(forTask: ref.id) != nil else { return "the repeat rule did not move to \(next)" }
        }
        return nil
    })

    static let reopenTask = AgentTool(.reopenTask, "mark a done task open again", mutates: true, arguments: lookup, run: { ctx in
        let t = try ctx.task(preferOpen: false)
        guard !t.isOpen else { return ToolOutcome(ref: t.refFields, summary: "\(quoted(t)) was already open") }
        let u = try ctx.store.reopenTask(t)
        return ToolOutcome(ref: u.refFields, summary: "reopened \(quoted(u))")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        return t.isOpen ? nil : "\(t.ref) is not open"
    })

    static let deleteTask = AgentTool(.deleteTask, "delete a task with its dependencies, links and repeat rule", mutates: true, arguments: lookup, run: { ctx in
        let t = try ctx.task()
        try ctx.store.deleteTask(t)
        return ToolOutcome(ref: ["id": .string(t.ref), "title": .string(t.title)], summary: "deleted \(quoted(t))")
    }, check: { ctx, o in
        guard let id = o.refID, let ref = ItemRef(id) else { return "no reference" }
        return try ctx.store.task(ref.id) == nil ? nil : "\(ref) still exists"
    })

    static let rescheduleTask = AgentTool(.rescheduleTask, "give a task a new due", mutates: true, arguments: lookup + [
        .init("due", "the new due: ISO 8601 date or date and time", required: true),
        .init("due_grain", "how precise the due is"),
    ], run: { ctx in
        let t = try ctx.task()
        let due = try ctx.args.moment("due", clock: ctx.clock)!
        let u = try ctx.store.updateTask(t.id, ["due": .text(due.text), "due_grain": .text(try grain(ctx) ?? (due.dateOnly ? "day" : "minute"))])
        return ToolOutcome(ref: u.refFields, summary: "rescheduled \(quoted(u)) from \(t.due ?? "no date") to \(due.text)")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        let due = try ctx.args.moment("due", clock: ctx.clock)!
        return t.due == due.text ? nil : "\(t.ref) is due \(t.due ?? "never"), not \(due.text)"
    })

    static let snoozeTask = AgentTool(.snoozeTask, "push a task's due later (default one day), from its due or from now if that is later", mutates: true, arguments: lookup + [
        .init("days", "days to push by"),
        .init("hours", "hours to push by (tasks with a time only)"),
        .init("minutes", "minutes to push by (tasks with a time only)"),
    ], run: { ctx in
        let t = try ctx.task()
        let days = try ctx.args.int("days", in: 0...3650)
        let hours = try ctx.args.int("hours", in: 0...100_000)
        let minutes = try ctx.args.int("minutes", in: 0...1_000_000)
        let zone = ctx.clock.zone
        var base: ISOMoment
        if let d = t.due.flatMap({ ISOMoment.parse($0, zone: zone) }) {
            base = d
            if d.dateOnly, d.text < ctx.clock.today { base = ISOMoment.parse(ctx.clock.today, zone: zone)! }
            if !d.dateOnly, d.date < ctx.clock.now {
                base = ISOMoment(date: ctx.clock.now, dateOnly: false, offset: d.offset, text: ISOMoment.format(ctx.clock.now, zone: d.offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? zone))
            }
        } else {
            base = ISOMoment.parse(ctx.clock.today, zone: zone)!
        }
        if base.dateOnly, (hours ?? 0) > 0 || (minutes ?? 0) > 0 {
            throw AgentError.badArgument(hours != nil ? "hours" : "minutes", "\(quoted(t)) is due on a date without a time: snooze it by days")
        }
        var moved = base.adding(.day, days ?? ((hours ?? 0) + (minutes ?? 0) == 0 ? 1 : 0), zone: zone)
        if let hours, hours > 0 { moved = moved.adding(.hour, hours, zone: zone) }
        if let minutes, minutes > 0 { moved = moved.adding(.minute, minutes, zone: zone) }
        let u = try ctx.store.updateTask(t.id, ["due": .text(moved.text), "due_grain": .text(t.dueGrain ?? (moved.dateOnly ? "day" : "minute"))])
        return ToolOutcome(ref: u.refFields, summary: "snoozed \(quoted(u)) to \(moved.text)")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        return t.due == o.ref?["due"]?.stringValue ? nil : "\(t.ref) has due \(t.due ?? "none")"
    })

    static let setPriority = AgentTool(.setPriority, "set a task's priority", mutates: true, arguments: lookup + [
        .init("priority", "0-3 or none, low, medium, high", required: true),
    ], run: { ctx in
        let t = try ctx.task()
        let p = try ctx.args.priority("priority")!
        let u = try ctx.store.updateTask(t.id, ["priority": .int(Int64(p))])
        return ToolOutcome(ref: u.refFields, summary: "set the priority of \(quoted(u)) to \(p)")
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        return t.priority == (try ctx.args.priority("priority")) ? nil : "\(t.ref) has priority \(t.priority)"
    })

    static let setRecurrence = AgentTool(.setRecurrence, "set, change or (with rule none) remove a task's repeat rule", mutates: true, arguments: lookup + [
        .init("rule", "FREQ=DAILY|WEEKLY|MONTHLY|YEARLY[;INTERVAL=N], daily, weekly, monthly, yearly, or none", required: true),
        .init("mode", "schedule (from the due date, the default) or completion (from the day it is done)"),
    ], run: { ctx in
        let t = try ctx.task()
        let text = try ctx.args.required("rule")
        let rule: RecurrenceRule?
        if text.lowercased() == "none" { rule = nil } else {
            guard let r = RecurrenceRule(text) else {
                throw AgentError.badArgument("rule", "expected FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with an optional ;INTERVAL=N, got '\(text)'")
            }
            rule = r
        }
        let modeText = try ctx.args.text("mode") ?? "schedule"
        guard let mode = RecurrenceRule.Mode(rawValue: modeText) else { throw AgentError.badArgument("mode", "expected schedule or completion, got '\(modeText)'") }
        try ctx.store.setRecurrence(task: t, rule: rule, mode: mode)
        var ref = t.refFields
        ref["rule"] = rule.map { .string($0.text) } ?? .null
        let summary = rule.map { "\(quoted(t)) repeats \($0.text) from its \(mode == .schedule ? "due date" : "completion")" } ?? "\(quoted(t)) no longer repeats"
        return ToolOutcome(ref: ref, summary: summary)
    }, check: { ctx, o in
        guard let t = try fetched(ctx, o) else { return "the task no longer exists" }
        let row = try ctx.store.recurrence(forTask: t.id)
        return row?.rule == o.ref?["rule"]?.stringValue ? nil : "\(t.ref) has rule \(row?.rule ?? "none")"
    })

    static let addDependency = AgentTool(.addDependency, "record that a task is blocked by another", mutates: true, arguments: [
        .init("task", "the blocked task: task:N or a title", required: true),
        .init("blocked_by", "the task it waits on: task:N or a title", required: true),
    ], run: { ctx in
        let t = try ctx.task(reference: try ctx.args.required("task"), argument: "task", bareNumber: false)
        let b = try ctx.task(reference: try ctx.args.required("blocked_by"), argument: "blocked_by", bareNumber: false)
        let created = try ctx.store.addDependency(task: t, blocker: b)
        var ref = t.refFields
        ref["blocked_by"] = .string(b.ref)
        return ToolOutcome(ref: ref, summary: created ? "\(quoted(t)) is now blocked by \(quoted(b))" : "\(quoted(t)) was already blocked by \(quoted(b))")
    }, check: { ctx, o in
        guard let id = o.refID, let t = ItemRef(id), let bid = o.ref?["blocked_by"]?.stringValue, let b = ItemRef(bid) else { return "no reference" }
        return try ctx.store.hasDependency(task: t.id, blocker: b.id) ? nil : "\(t) is not blocked by \(b)"
    })

    static let all = [createTask, updateTask, completeTask, reopenTask, deleteTask, rescheduleTask, snoozeTask, setPriority, setRecurrence, addDependency]
}
