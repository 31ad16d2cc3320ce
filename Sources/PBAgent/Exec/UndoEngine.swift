import Foundation
import PBCore
import PBSQLite

/// Reverts journaled changes: the last group (default), a named group, or one entry. Every
/// inverse step is validated against the store before any is applied, so a group reverts
/// completely or not at all; the application then runs in one transaction too.
public struct UndoEngine {
    public enum Scope: Equatable, Sendable {
        case last
        case group(String)
        case entry(String)
    }

    public let store: AgentStore
    /// For the status snapshot rewritten after an undo: PB_CALENDAR_DIR and PB_WORK_HOURS.
    public var calendarDirectory: String?
    public var workHours: String?

    public init(store: AgentStore) { self.store = store }

    /// Reverts `scope`, stamped at `now`; the status snapshot then counts days in `zone`.
    public func undo(_ scope: Scope, dryRun: Bool = false, now: Date = Date(), zone: TimeZone = .current) throws -> UndoRecord {
        let entries: [JournalEntry]
        var group: String?
        var entryID: String?
        switch scope {
        case .last:
            guard let g = try store.lastOpenGroup() else {
                return UndoRecord(group: nil, reverted: [], status: .nothing, message: "nothing to undo", dryRun: dryRun ? true : nil)
            }
            group = g
            entries = try store.journalEntries(where: "group_id = ? AND undone_at IS NULL", [.text(g)])
        case .group(let g):
            group = g
            let all = try store.journalEntries(where: "group_id = ?", [.text(g)])
            guard !all.isEmpty else { throw ToolFailure(.usage, "--group: no group '\(g)' in the journal (see pb-undo --list)") }
            entries = all.filter { $0.undoneAt == nil }
            if entries.isEmpty {
                return UndoRecord(group: g, reverted: [], status: .nothing, message: "group \(g) was already undone", dryRun: dryRun ? true : nil)
            }
        case .entry(let e):
            let digits = e.hasPrefix("e-") ? String(e.dropFirst(2)) : e
            guard let n = Int64(digits) else { throw ToolFailure(.usage, "--entry: expected an entry id such as e-3, got '\(e)'") }
            let found = try store.journalEntries(where: "id = ?", [.int(n)])
            guard let entry = found.first else { throw ToolFailure(.usage, "--entry: no entry 'e-\(n)' in the journal (see pb-undo --list)") }
            group = entry.group
            entryID = entry.entryID
            if entry.undoneAt != nil {
                return UndoRecord(group: entry.group, entry: entry.entryID, reverted: [], status: .nothing,
                                  message: "entry \(entry.entryID) was already undone", dryRun: dryRun ? true : nil)
            }
            entries = [entry]
        }
        // Newest first, and each entry's steps in reverse: the exact reverse of the writes.
        let ordered = entries.sorted { $0.id > $1.id }
        let steps = ordered.flatMap { $0.inverse.reversed() }
        let reverted = ordered.map { RevertedEntry(entry: $0.entryID, group: $0.group, tool: $0.tool, summary: $0.summary) }
        let what = entryID.map { "entry \($0)" } ?? "group \(group!)"
        let later = try laterDependents(of: ordered)
        guard later.isEmpty else {
            let names = later.map { "\($0.group) (\($0.entries.joined(separator: ", ")) changed \($0.rows.joined(separator: ", ")) after it)" }
            let problem = "later changes depend on it: " + names.joined(separator: "; ")
                + "; undo \(later.count == 1 ? "that group" : "those groups") first, newest first"
            return UndoRecord(group: group, entry: entryID, reverted: [], status: .refused,
                              message: "cannot undo \(what); nothing was changed: \(problem)", problems: [problem],
                              dryRun: dryRun ? true : nil)
        }
        let problems = try validate(steps)
        guard problems.isEmpty else {
            return UndoRecord(group: group, entry: entryID, reverted: [], status: .refused,
                              message: "cannot undo \(what); nothing was changed: \(problems.joined(separator: "; "))",
                              problems: problems, dryRun: dryRun ? true : nil)
        }
        let summaries = reverted.map(\.summary).joined(separator: "; ")
        try store.begin()
        do {
            // How the rows and files stand before the undo, kept for redo.
            let kept = dryRun ? nil : try UndoneChange.before(steps, store: store)
            for step in steps { try store.applyInverse(step) }
            // A dry run applies the steps for real inside the transaction, so the store's own
            // checks (a task filed into the project this group made, say) answer exactly as they
            // would, then takes everything back; file changes were only scheduled.
            if dryRun {
                store.rollback()
                return UndoRecord(group: group, entry: entryID, reverted: reverted, status: .reverted,
                                  message: "dry run: would undo \(what) (\(reverted.count) change\(reverted.count == 1 ? "" : "s")): \(summaries); nothing was written", dryRun: true)
            }
            let stamp = ISOMoment.format(now, zone: TimeZone(secondsFromGMT: 0)!)
            for e in ordered { try store.db.run("UPDATE journal SET undone_at = ? WHERE id = ?", [.text(stamp), .int(e.id)]) }
            try kept?.record(group: group!, entries: ordered.map(\.id), store: store, stamp: stamp)
            try store.commit()
            StatusSnapshot.refresh(store: store, clock: AgentClock(now: now, zone: zone), calendarDirectory: calendarDirectory, workHours: workHours)
        } catch let e as DatabaseError where e.code & 0xFF != 19 /* SQLITE_CONSTRAINT */ {
            // A full disk, an I/O error, a busy store: a failure to write, not a refusal.
            store.rollback()
            throw ToolFailure(.ioError, "cannot undo \(what): the store could not be written (\(e.message)); nothing was changed")
        } catch let e as DatabaseError {
            store.rollback()
            // Either way round: a later change holds on to what undoing this would take away, or
            // took away what undoing this would put things back into.
            let problem = "the store refused the change (\(e.message)): a later change depends on, or took away, what undoing \(what) touches; undo the later groups first (pb-undo --list)"
            return UndoRecord(group: group, entry: entryID, reverted: [], status: .refused,
                              message: "cannot undo \(what); nothing was changed: \(problem)", problems: [problem],
                              dryRun: dryRun ? true : nil)
        } catch {
            store.rollback()
            throw error
        }
        return UndoRecord(group: group, entry: entryID, reverted: reverted, status: .reverted,
                          message: "undid \(what) (\(reverted.count) change\(reverted.count == 1 ? "" : "s")): \(summaries)")
    }

    /// The not-undone entries after `entries` (outside them) that wrote a row they wrote, by group:
    /// undoing `entries` first would put back a state those later changes were made on top of,
    /// and destroy them (a task's later notes, say).
    func laterDependents(of entries: [JournalEntry]) throws -> [(group: String, entries: [String], rows: [String])] {
        guard let first = entries.map(\.id).min() else { return [] }
        let mine = Set(entries.map(\.id))
        let rows = Set(entries.flatMap { $0.inverse.compactMap(\.rowKey) })
        var found: [(group: String, entries: [String], rows: [String])] = []
        for later in try store.journalEntries(where: "id > ? AND undone_at IS NULL", [.int(first)]) where !mine.contains(later.id) {
            let shared = Set(later.inverse.compactMap(\.rowKey)).intersection(rows)
            guard !shared.isEmpty else { continue }
            let labels = shared.sorted().map { key -> String in
                let parts = key.split(separator: ":")
                guard parts.count == 2, let table = StoreTable(rawValue: String(parts[0])), let id = Int64(parts[1]) else { return key }
                return table.label(id)
            }
            if let i = found.firstIndex(where: { $0.group == later.group }) {
                found[i].entries.append(later.entryID)
                found[i].rows = Array(Set(found[i].rows).union(labels)).sorted()
            } else {
                found.append((later.group, [later.entryID], labels))
            }
        }
        return found.reversed()
    }

    /// Every problem that would stop the steps, checked in order against the store as the steps
    /// before would leave it. Deleting what is already gone counts as done.
    public func validate(_ steps: [InverseStep]) throws -> [String] {
        var state: [String: Bool] = [:]
        // A row an earlier step of this undo restores, as it will stand: a plan that made a task
        // and completed it is checked against the task as the completion's undo leaves it.
        var restored: [String: [String: JSONValue]] = [:]
        var problems: [String] = []
        func exists(_ t: StoreTable, _ id: Int64) throws -> Bool {
            if let s = state["\(t.rawValue):\(id)"] { return s }
            return try store.exists(t, id: id)
        }
        for step in steps {
            switch step {
            case let .delete(table, id):
                state["\(table.rawValue):\(id)"] = false
                restored["\(table.rawValue):\(id)"] = nil
            case let .insert(table, row):
                guard let id = InverseStep.rowID(row) else { problems.append("a journaled row has no id"); continue }
                let key = "\(table.rawValue):\(id)"
                if try exists(table, id) {
                    let current = state[key] == nil ? try store.snapshot(table, id: id) : nil
                    if current != row { problems.append("\(table.label(id)) cannot be put back: another row holds its id") }
                }
                state[key] = true
            case let .restore(table, id, row):
                if !(try exists(table, id)) {
                    problems.append("\(table.label(id)) no longer exists (deleted outside this group), so its earlier state cannot be restored")
                }
                restored["\(table.rawValue):\(id)"] = row
            case let .unexport(path, _, _), let .reinsert(path, _, _, _), let .removeFile(path, _), let .removeRecords(path, _, _, _):
                if FileManager.default.fileExists(atPath: path), !FileManager.default.isReadableFile(atPath: path) {
                    problems.append("\(path) cannot be read")
                    continue
                }
                // A draft the user edited since is theirs now: refused, as a row changed outside
                // the journal is, rather than deleted with the edit.
                if case let .removeFile(_, sha256?) = step, let data = try store.fileContent(path), SHA256.hex(data) != sha256 {
                    problems.append("\(path) was edited since it was written; undoing would delete that edit (move it aside to keep it, then undo)")
                }
                if case let .removeRecords(_, _, _, sha256?) = step, let data = try store.fileContent(path) {
                    for line in data.split(separator: UInt8(ascii: "\n")) {
                        guard let record = try? RecordCodec().decodeObject(Data(line)), case .string(let id)? = record["id"],
                              let written = sha256[id], try InverseStep.recordDigest(record) != written else { continue }
                        problems.append("the draft \(id) in \(path) was edited since it was written; undoing would delete that edit (copy it elsewhere and take it out of the file to keep it, then undo)")
                    }
                }
            case let .expect(table, id, row):
                guard let row else { continue }
                // A row an earlier step restores must be restored to what this change left.
                if let after = restored["\(table.rawValue):\(id)"] {
                    if !row.allSatisfy({ after[$0.key] == $0.value }) {
                        problems.append("\(table.label(id)) was changed outside the journal between two changes of this undo; undoing would overwrite that change")
                    }
                    continue
                }
                // A row an earlier step of this undo already took back was checked by its own
                // entry's expectation; a row the change deleted is the insert step's to check.
                guard state["\(table.rawValue):\(id)"] == nil else { continue }
                // A row gone since is the other steps' to judge (deleting it again counts as done,
                // restoring it cannot be). Only the columns the change saw are compared: a column
                // added by a later schema is not a change.
                guard let current = try store.snapshot(table, id: id) else { continue }
                if !row.allSatisfy({ current[$0.key] == $0.value }) {
                    problems.append("\(table.label(id)) was changed outside the journal since (by sqlite3 or another program); undoing would overwrite that change")
                }
            }
        }
        return problems
    }
}

extension UndoEngine {
    /// Takes back the last undo not taken back yet: the rows and files it touched are put back as
    /// it found them (the same ids, the same bytes), and the entries it undid are journaled again,
    /// with their own inverse steps, as a new group, which can be undone like any turn. Nothing
    /// to redo when no undo is left, or when a new turn came after it (as in an editor, a new
    /// change discards what was undone); refused when anything it would put back changed since.
    public func redo(dryRun: Bool = false, now: Date = Date(), zone: TimeZone = .current) throws -> UndoRecord {
        func nothing(_ message: String) -> UndoRecord {
            UndoRecord(group: nil, reverted: [], status: .nothing, message: message, dryRun: dryRun ? true : nil)
        }
        guard let undone = try store.lastUndone() else {
            let any = try store.scalarInt("SELECT 1 FROM undos LIMIT 1") != nil
            return nothing(any ? "nothing to redo: every undo was redone" : "nothing to redo: no change was undone")
        }
        if let newer = try store.newTurn(after: undone.journalHigh) {
            return nothing("nothing to redo: \(newer) was made after the last undo, and a new change discards what was undone before it")
        }
        let list = undone.entries.map(String.init).joined(separator: ", ")
        let entries = try store.journalEntries(where: "id IN (\(list))")
        let what = "group \(undone.group)"
        let problems = try undone.change.changedSince(store: store)
        guard problems.isEmpty else {
            return UndoRecord(group: undone.group, reverted: [], status: .refused,
                              message: "cannot redo \(what); nothing was changed: \(problems.joined(separator: "; "))",
                              problems: problems, dryRun: dryRun ? true : nil)
        }
        let stamp = ISOMoment.format(now, zone: TimeZone(secondsFromGMT: 0)!)
        try store.begin()
        let redoGroup: String
        var reapplied: [RevertedEntry] = []
        do {
            redoGroup = try store.nextGroupID()
            try undone.change.reapply(store: store)
            // The entries again, in their order, with the inverse steps they had: the rows and
            // files are as they left them, so the same steps take them back.
            for (i, e) in entries.enumerated() {
                let inverse = String(decoding: try RecordCodec().encodeValue(e.inverse), as: UTF8.self)
                try store.db.run("INSERT INTO journal(group_id, seq, tool, summary, inverse, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(redoGroup), .int(Int64(i + 1)), .text(e.tool), .text("redo: " + e.summary), .text(inverse), .text(stamp)])
                reapplied.append(RevertedEntry(entry: "e-\(store.db.lastInsertRowID)", group: redoGroup, tool: e.tool, summary: e.summary))
            }
            let summaries = entries.map(\.summary).joined(separator: "; ")
            let count = "\(entries.count) change\(entries.count == 1 ? "" : "s")"
            if dryRun {
                store.rollback()
                return UndoRecord(group: undone.group, reverted: entries.map { RevertedEntry(entry: $0.entryID, group: $0.group, tool: $0.tool, summary: $0.summary) },
                                  status: .redone, message: "dry run: would redo \(what) (\(count)): \(summaries); nothing was written", dryRun: true)
            }
            try store.claimGroupID(redoGroup)
            try store.db.run("UPDATE undos SET redone_by = ? WHERE id = ?", [.text(redoGroup), .int(undone.id)])
            try store.commit()
            StatusSnapshot.refresh(store: store, clock: AgentClock(now: now, zone: zone), calendarDirectory: calendarDirectory, workHours: workHours)
            var record = UndoRecord(group: undone.group, reverted: reapplied, status: .redone,
                                    message: "redid \(what) as \(redoGroup) (\(count)): \(summaries); undo with pb-undo --group \(redoGroup)")
            record.redoGroup = redoGroup
            return record
        } catch let e as DatabaseError where e.code & 0xFF != 19 /* SQLITE_CONSTRAINT */ {
            store.rollback()
            throw ToolFailure(.ioError, "cannot redo \(what): the store could not be written (\(e.message)); nothing was changed")
        } catch let e as DatabaseError {
            store.rollback()
            let problem = "the store refused the change (\(e.message))"
            return UndoRecord(group: undone.group, reverted: [], status: .refused,
                              message: "cannot redo \(what); nothing was changed: \(problem)", problems: [problem], dryRun: dryRun ? true : nil)
        } catch {
            store.rollback()
            throw error
        }
    }
}
