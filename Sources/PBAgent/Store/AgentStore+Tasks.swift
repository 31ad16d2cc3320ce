import Foundation
import PBCore
import PBSQLite

/// Tasks, their dependencies and repeat rules: the service every task tool writes through.
extension AgentStore {
    public func task(_ id: Int64) throws -> TaskItem? {
        try tasks(where: "id = ?", [.int(id)]).first
    }

    public func tasks(where condition: String = "1", _ bindings: [SQLValue] = [], order: String = "id") throws -> [TaskItem] {
        let s = try db.prepare("SELECT \(TaskItem.columns) FROM tasks WHERE \(condition) ORDER BY \(order)")
        try s.bind(bindings)
        var out: [TaskItem] = []
        while try s.step() { out.append(TaskItem(s)) }
        return out
    }

    public func createTask(title: String, notes: String = "", due: ISOMoment? = nil, grain: String? = nil,
                           priority: Int = 0, projectID: Int64? = nil) throws -> TaskItem {
        let stamp = clock.stamp
        let id = try insert(.tasks, [
            "title": .text(title), "notes": .text(notes),
            "due": due.map { .text($0.text) } ?? .null,
            "due_grain": due == nil ? .null : .text(grain ?? (due!.dateOnly ? "day" : "minute")),
            "priority": .int(Int64(priority)), "status": .text("open"),
            "project_id": projectID.map { .int($0) } ?? .null,
            "created_at": .text(stamp), "updated_at": .text(stamp),
        ])
        return try task(id)!
    }

    /// Writes the given columns and the update time.
    @discardableResult
    public func updateTask(_ id: Int64, _ changes: [String: SQLValue]) throws -> TaskItem {
        var values = changes
        values["updated_at"] = .text(clock.stamp)
        try update(.tasks, id: id, values)
        return try task(id)!
    }

    /// Marks a task done. A repeating task spawns its next occurrence, and the rule moves to it;
    /// both are part of the same journal entry, so one undo reverts both.
    public func completeTask(_ t: TaskItem) throws -> (done: TaskItem, next: TaskItem?) {
        let done = try updateTask(t.id, ["status": .text("done"), "completed_at": .text(clock.stamp)])
        guard let rule = try recurrence(forTask: t.id), let parsed = RecurrenceRule(rule.rule) else { return (done, nil) }
        let mode = RecurrenceRule.Mode(rawValue: rule.mode) ?? .schedule
        let due = t.due.flatMap { ISOMoment.parse($0, zone: clock.zone) }
        let nextDue = parsed.next(after: due, mode: mode, clock: clock)
        let next = try createTask(title: t.title, notes: t.notes, due: nextDue, grain: t.dueGrain, priority: t.priority, projectID: t.projectID)
        try update(.recurrences, id: rule.id, ["task_id": .int(next.id), "updated_at": .text(clock.stamp)])
        return (done, next)
    }

    public func reopenTask(_ t: TaskItem) throws -> TaskItem {
        try updateTask(t.id, ["status": .text("open"), "completed_at": .null])
    }

    /// Deletes a task with its dependencies, links and repeat rule (each journaled, so undo puts
    /// all of them back).
    public func deleteTask(_ t: TaskItem) throws {
        for id in try ids("SELECT id FROM dependencies WHERE task_id = ? OR blocker_id = ?", [.int(t.id), .int(t.id)]) {
            try delete(.dependencies, id: id)
        }
        for id in try ids("SELECT id FROM links WHERE from_item = ? OR to_item = ?", [.text(t.ref), .text(t.ref)]) {
            try delete(.links, id: id)
        }
        for id in try ids("SELECT id FROM recurrences WHERE task_id = ?", [.int(t.id)]) {
            try delete(.recurrences, id: id)
        }
        try delete(.tasks, id: t.id)
    }

    func ids(_ sql: String, _ bindings: [SQLValue]) throws -> [Int64] {
        let s = try db.prepare(sql)
        try s.bind(bindings)
        var out: [Int64] = []
        while try s.step() { out.append(s.int(0)) }
        return out
    }

    // MARK: dependencies

    /// The open or done tasks `taskID` is blocked by.
    public func blockers(of taskID: Int64) throws -> [TaskItem] {
        try tasks(where: "id IN (SELECT blocker_id FROM dependencies WHERE task_id = ?)", [.int(taskID)])
    }

    public func hasDependency(task: Int64, blocker: Int64) throws -> Bool {
        try scalarInt("SELECT 1 FROM dependencies WHERE task_id = ? AND blocker_id = ?", [.int(task), .int(blocker)]) != nil
    }

    /// "`task` is blocked by `blocker`". Refuses a task blocking itself and cycles; an existing
    /// dependency is left as it is (returns false).
    public func addDependency(task: TaskItem, blocker: TaskItem) throws -> Bool {
        guard task.id != blocker.id else { throw AgentError.conflict("a task cannot block itself (\(task.ref))") }
        if try hasDependency(task: task.id, blocker: blocker.id) { return false }
        // A cycle: `task` already (transitively) blocks `blocker`.
        var seen: Set<Int64> = []
        var frontier = [blocker.id]
        while let current = frontier.popLast() {
            if current == task.id {
                throw AgentError.conflict("\(blocker.ref) \"\(blocker.title)\" already waits on \(task.ref) \"\(task.title)\": that would be a cycle")
            }
            guard seen.insert(current).inserted else { continue }
            frontier += try ids("SELECT blocker_id FROM dependencies WHERE task_id = ?", [.int(current)])
        }
        try insert(.dependencies, ["task_id": .int(task.id), "blocker_id": .int(blocker.id), "created_at": .text(clock.stamp)])
        return true
    }

    // MARK: recurrence

    public struct RecurrenceRow: Equatable, Sendable {
        public var id: Int64
        public var taskID: Int64
        public var rule: String
        public var mode: String
    }

    public func recurrence(forTask id: Int64) throws -> RecurrenceRow? {
        let s = try db.prepare("SELECT id, task_id, rule, mode FROM recurrences WHERE task_id = ?")
        try s.bind([.int(id)])
        guard try s.step() else { return nil }
        return RecurrenceRow(id: s.int(0), taskID: s.int(1), rule: s.text(2), mode: s.text(3))
    }

    /// Sets, changes or (with nil) removes a task's repeat rule.
    public func setRecurrence(task: TaskItem, rule: RecurrenceRule?, mode: RecurrenceRule.Mode) throws {
        let existing = try recurrence(forTask: task.id)
        switch (existing, rule) {
        case (nil, nil): return
        case (let row?, nil): try delete(.recurrences, id: row.id)
        case (nil, let r?):
            try insert(.recurrences, ["task_id": .int(task.id), "rule": .text(r.text), "mode": .text(mode.rawValue),
                                      "created_at": .text(clock.stamp), "updated_at": .text(clock.stamp)])
        case (let row?, let r?):
            guard row.rule != r.text || row.mode != mode.rawValue else { return }
            try update(.recurrences, id: row.id, ["rule": .text(r.text), "mode": .text(mode.rawValue), "updated_at": .text(clock.stamp)])
        }
    }
}
