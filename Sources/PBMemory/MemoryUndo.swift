import Foundation
import PBAgent
import PBCore

/// `pb-undo --memory NAME [--message ID]`: takes back a remembered message (the last one, or the
/// one named) with everything derived from it, in one transaction: its items, their words, and
/// the supersessions they made, so the items they had replaced are current again.
public enum MemoryUndo {
    /// pb-undo's own options, and the two that reach a memory.
    public static func spec(extending base: CommandSpec) -> CommandSpec {
        var spec = base
        spec.summary += "; with --memory, a remembered message"
        spec.options += [
            OptionSpec("memory", value: "NAME", help: "take back the last message remembered in this memory (pb-remember), with all it gave"),
            OptionSpec("message", value: "ID", help: "with --memory, this message instead of the last one"),
        ]
        return spec
    }

    /// pb-undo: a memory's message with --memory, else the agent store's journal.
    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        guard let name = o.value("memory") else {
            if o.value("message") != nil { throw ToolFailure(.usage, "--message needs --memory NAME") }
            return try UndoCommand.run(o, environment: environment)
        }
        for other in ["group", "entry", "list", "now", "redo"] where o.value(other) != nil || o.flag(other) {
            throw ToolFailure(.usage, "--memory takes --message and --dry-run, not --\(other)")
        }
        try MemoryStore.validateName(name)
        guard FileManager.default.fileExists(atPath: MemoryStore.path(name: name, environment: environment)) else {
            throw ToolFailure(.cannotOpen, "no memory '\(name)': nothing was remembered there")
        }
        let store = try MemoryStore(name: name, environment: environment)
        let human = !o.flag("json") && isatty(1) == 1
        let record: UndoRecord
        if let forgotten = try store.forget(message: o.value("message"), dryRun: o.flag("dry-run")) {
            let again = forgotten.restored.isEmpty ? "" : "; \(forgotten.restored.joined(separator: ", ")) current again"
            let replies = forgotten.replies.isEmpty ? "" : " and the repl\(forgotten.replies.count == 1 ? "y" : "ies") \(forgotten.replies.joined(separator: ", "))"
            let summary = "forgot message \(forgotten.message)\(replies) and its \(forgotten.items.count) item\(forgotten.items.count == 1 ? "" : "s")\(again)"
            record = UndoRecord(group: nil, entry: forgotten.message,
                                reverted: [RevertedEntry(entry: forgotten.message, group: "memory:\(name)", tool: "remember", summary: summary)],
                                status: .reverted, message: (o.flag("dry-run") ? "dry run: would have " : "") + summary,
                                dryRun: o.flag("dry-run") ? true : nil)
        } else {
            record = UndoRecord(group: nil, entry: o.value("message"), reverted: [], status: .nothing,
                                message: o.value("message").map { "no message '\($0)' in the memory '\(name)'" } ?? "the memory '\(name)' holds no messages")
        }
        if human { NDJSONWriter.standardOutput.writeText(record.message + "\n") } else { try NDJSONWriter.standardOutput.write(record) }
        return .success
    }
}

extension MemoryStore {
    public struct Forgotten {
        public var message: String
        public var items: [String]
        public var restored: [String]
        /// The replies taken back with it (pb-thread's answers to it).
        public var replies: [String] = []
    }

    /// Deletes a message (the last one a person said when `id` is nil) with its items, their index
    /// rows and the replies to it, and makes current again the items they had superseded; nil
    /// when there is no such message. A turn of pb-thread is its message and the reply: both go.
    public func forget(message id: String?, dryRun: Bool) throws -> Forgotten? {
        let forgotten: Forgotten
        try db.execute("BEGIN IMMEDIATE")
        do {
            let seq = id == nil ? try db.scalarInt("SELECT max(seq) FROM messages WHERE role = 'user'")
                                : try db.scalarInt("SELECT seq FROM messages WHERE id = ?", [.text(id!)])
            guard let seq, let name = try db.scalarText("SELECT id FROM messages WHERE seq = ?", [.int(seq)]) else {
                try db.execute("ROLLBACK")
                return nil
            }
            try retireItemIDs()
            var items: [Int64] = []
            let s = try db.prepare("SELECT id FROM items WHERE message = ? ORDER BY id")
            try s.bind([.int(seq)])
            while try s.step() { items.append(s.int(0)) }
            var restored: [Int64] = []
            let r = try db.prepare("SELECT id FROM items WHERE superseded_by IN (SELECT id FROM items WHERE message = ?) ORDER BY id")
            try r.bind([.int(seq)])
            while try r.step() { restored.append(r.int(0)) }
            try db.run("UPDATE items SET superseded_by = NULL, superseded_reason = NULL WHERE superseded_by IN (SELECT id FROM items WHERE message = ?)", [.int(seq)])
            try db.run("DELETE FROM items_fts WHERE rowid IN (SELECT id FROM items WHERE message = ?)", [.int(seq)])
            try db.run("DELETE FROM items WHERE message = ?", [.int(seq)])
            try db.run("DELETE FROM messages_fts WHERE rowid = ?", [.int(seq)])
            try db.run("DELETE FROM messages WHERE seq = ?", [.int(seq)])
            // Replies hold no items and are not in the words index.
            var replies: [String] = []
            let q = try db.prepare("SELECT id FROM messages WHERE reply_to = ? ORDER BY seq")
            try q.bind([.text(name)])
            while try q.step() { replies.append(q.text(0)) }
            try db.run("DELETE FROM messages WHERE reply_to = ?", [.text(name)])
            try db.execute(dryRun ? "ROLLBACK" : "COMMIT")
            forgotten = Forgotten(message: name, items: items.map { "i-\($0)" }, restored: restored.map { "i-\($0)" }, replies: replies)
        } catch {
            try? db.execute("ROLLBACK")
            throw ToolFailure(.ioError, "cannot change the memory \(path): \(error)")
        }
        // Forgotten means gone from the file, not only from the tables.
        if !dryRun {
            do { try eraseForgotten() } catch {
                throw ToolFailure(.ioError, "forgot the message, but cannot clear its words from \(path): \(error)")
            }
        }
        return forgotten
    }
}
