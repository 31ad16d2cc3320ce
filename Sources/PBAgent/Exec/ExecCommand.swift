import Foundation
import PBCore
#if canImport(Glibc)
import Glibc
#endif

/// pb-exec: plan records in, result records out (a human summary on a terminal).
public enum ExecCommand {
    public static let spec = CommandSpec(
        name: "pb-exec",
        summary: "run plan records against the agent store, journaling every change for pb-undo",
        operands: "[FILE ...]",
        options: [
            OptionSpec("dry-run", short: "n", help: "run each plan in a transaction that is rolled back: report, write nothing"),
            OptionSpec("now", value: "TIME", help: "the instant for plans without 'now' (ISO 8601; default: the current time)"),
            OptionSpec("yes", short: "y", help: "run plans that ask first (their record has confirm) for real, not as dry runs"),
            OptionSpec("calendar-dir", value: "DIR", help: "folder of .ics files for calendar_agenda (default: PB_CALENDAR_DIR)"),
            OptionSpec("exit-status", help: "exit 1 when a plan had a failed step"),
            OptionSpec("keep-going", short: "k", help: "write an error record for a malformed plan and go on (exit 65 at the end)"),
            OptionSpec("json", help: "write result records even when standard output is a terminal"),
            OptionSpec("tools", help: "write the tools and their arguments, one JSON object per line, and exit"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment(),
                           variables: [String: String] = ProcessInfo.processInfo.environment,
                           writer: NDJSONWriter = .standardOutput, human: Bool? = nil) throws -> ExitCode {
        if o.flag("tools") {
            for t in ToolRegistry.standard.tools {
                let args: [JSONValue] = t.arguments.map { .object(["name": .string($0.name), "help": .string($0.help), "required": .bool($0.required)]) }
                try writer.writeValue(JSONValue.object(["tool": .string(t.name.rawValue), "summary": .string(t.summary), "mutates": .bool(t.mutates), "args": .array(args)]))
            }
            return .success
        }
        if let now = o.value("now") {
            guard let m = ISOMoment.parse(now, zone: TimeZone(secondsFromGMT: 0)!), !m.dateOnly else {
                throw ToolFailure(.usage, "--now: expected an ISO 8601 date and time such as 2026-11-29T18:00:00Z, got '\(now)'")
            }
        }
        let human = human ?? (!o.flag("json") && isatty(1) == 1)
        let calendar = o.value("calendar-dir") ?? variables["PB_CALENDAR_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let readers = try RecordLoop.readers(for: o.operands)
        let codec = RecordCodec()
        var executor: PlanExecutor?
        var anyFailed = false
        let loop = RecordLoop(keepGoing: o.flag("keep-going"), writer: writer)
        let status = try loop.run(readers) { line in
            let plan = try codec.decode(PlanRecord.self, from: line.data)
            if executor == nil {
                executor = PlanExecutor(store: try AgentStore(environment: environment), calendarDirectory: calendar,
                                        dryRun: o.flag("dry-run"), defaultNow: o.value("now"))
                executor!.workHours = variables["PB_WORK_HOURS"].flatMap { $0.isEmpty ? nil : $0 }
                executor!.confirmed = o.flag("yes")
                executor!.contactsPath = variables["PB_CONTACTS"].flatMap { $0.isEmpty ? nil : $0 }
                executor!.from = variables["PB_FROM"].flatMap { $0.isEmpty ? nil : $0 }
            }
            let result = try executor!.execute(plan)
            if result.status != .ok { anyFailed = true }
            if human { writer.writeText(humanSummary(result)) } else { try writer.write(result) }
        }
        if status == .success, anyFailed, o.flag("exit-status") { return .verdict }
        return status
    }

    /// The result as a person reads it: the group, one line per step, and the message.
    public static func humanSummary(_ r: ResultRecord) -> String {
        var lines: [String] = []
        var head = r.dryRun == true ? "dry run" : (r.group ?? "no changes")
        if let text = r.text { head += ": \(text)" }
        lines.append(head)
        for s in r.steps {
            let mark = s.status == .ok ? "✓" : s.status == .failed ? "✗" : "–"
            let detail = s.status == .ok ? (s.summary ?? "") : s.status == .failed ? (s.error ?? "failed") : "skipped"
            lines.append("  \(mark) \(s.n) \(s.tool): \(detail)")
        }
        lines.append(r.message)
        // What the plan needs to be told, and the store's candidates, to answer in a new request.
        if let ask = r.ask {
            lines.append("? " + ask.question)
            lines += (ask.choices ?? []).map { "  - " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
