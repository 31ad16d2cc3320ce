import Foundation
import PBCore
#if canImport(Glibc)
import Glibc
#endif

/// pb-undo: reverts what pb-exec journaled; writes undo records (a human line on a terminal).
public enum UndoCommand {
    public static let spec = CommandSpec(
        name: "pb-undo",
        summary: "revert the last group of changes pb-exec made, a named group, or one entry",
        options: [
            OptionSpec("group", short: "g", value: "ID", help: "revert this group (g-N) instead of the last one"),
            OptionSpec("entry", value: "ID", help: "revert only this journal entry (e-N)"),
            OptionSpec("redo", help: "take back the last undo: reapply the turn it reverted, as a new group"),
            OptionSpec("list", help: "list recent groups, newest first, and exit"),
            OptionSpec("limit", value: "N", help: "with --list, at most N groups (default 20)"),
            OptionSpec("dry-run", short: "n", help: "check that the undo would apply, and change nothing"),
            OptionSpec("now", value: "TIME", help: "the instant the undo is stamped with, and the status snapshot counts from (ISO 8601; default: now)"),
            OptionSpec("json", help: "write records even when standard output is a terminal"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment(),
                           variables: [String: String] = ProcessInfo.processInfo.environment,
                           writer: NDJSONWriter = .standardOutput, human: Bool? = nil) throws -> ExitCode {
        guard o.operands.isEmpty else { throw ToolFailure(.usage, "pb-undo reads no input; unexpected operand '\(o.operands[0])'") }
        if o.value("group") != nil, o.value("entry") != nil { throw ToolFailure(.usage, "give --group or --entry, not both") }
        if o.flag("list"), o.value("group") != nil || o.value("entry") != nil || o.flag("dry-run") {
            throw ToolFailure(.usage, "--list takes only --limit")
        }
        if o.flag("redo"), o.value("group") != nil || o.value("entry") != nil || o.flag("list") {
            throw ToolFailure(.usage, "--redo takes back the last undo; it takes no --group, --entry or --list")
        }
        let limit = try o.int("limit", default: 20, in: 1...100_000)
        let human = human ?? (!o.flag("json") && isatty(1) == 1)
        if o.flag("list") {
            // Nothing done yet: nothing to list (and no store is made just to say so).
            let path = AgentStore.defaultPath(environment)
            guard FileManager.default.fileExists(atPath: path) else { return .success }
            let store = try AgentStore(readingOnly: path)
            for g in try store.recentGroups(limit: limit) {
                if human {
                    writer.writeText("\(g.group)  \(g.createdAt)  \(g.entries) change\(g.entries == 1 ? "" : "s")\(g.undone ? "  (undone)" : g.undoneEntries > 0 ? "  (\(g.undoneEntries) undone)" : "")  \(g.summary)\n")
                } else {
                    try writer.writeValue(g)
                }
            }
            return .success
        }
        let store = try AgentStore(environment: environment)
        let scope: UndoEngine.Scope = o.value("group").map { .group($0) } ?? o.value("entry").map { .entry($0) } ?? .last
        var engine = UndoEngine(store: store)
        engine.calendarDirectory = variables["PB_CALENDAR_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        engine.workHours = variables["PB_WORK_HOURS"].flatMap { $0.isEmpty ? nil : $0 }
        let clock: AgentClock
        do { clock = try AgentClock(text: o.value("now")) } catch {
            throw ToolFailure(.usage, "--now: expected an ISO 8601 date and time such as 2026-11-29T18:00:00Z, got '\(o.value("now") ?? "")'")
        }
        let record = o.flag("redo") ? try engine.redo(dryRun: o.flag("dry-run"), now: clock.now, zone: clock.zone)
                                    : try engine.undo(scope, dryRun: o.flag("dry-run"), now: clock.now, zone: clock.zone)
        if human { writer.writeText(record.message + "\n") } else { try writer.write(record) }
        return record.status == .refused ? .verdict : .success
    }
}
