import Foundation
import PBCore

/// pb-brief: the morning brief, as one screen of text, a `brief` record (--json), or the status
/// snapshot rewritten and printed (--status). Reads the store and the calendars; writes nothing
/// but the snapshot.
public enum BriefCommand {
    public static let spec = CommandSpec(
        name: "pb-brief",
        summary: "the day at a glance: overdue, due today, today's events and free time, what was done yesterday",
        options: [
            OptionSpec("now", help: "the instant to brief for (ISO 8601; its offset sets the day's zone; default: the current time)"),
            OptionSpec("json", help: "write one brief record instead of text"),
            OptionSpec("headline", help: "print only the one-line headline"),
            OptionSpec("status", help: "rewrite the status snapshot (PB_HOME/status.json) and print it"),
            OptionSpec("calendar-dir", value: "DIR", help: "folder of .ics files (default: PB_CALENDAR_DIR); PocketBrains' own calendar is always read"),
            OptionSpec("min-free", value: "MINUTES", help: "the shortest free stretch worth listing (default 30)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment(),
                           variables: [String: String] = ProcessInfo.processInfo.environment,
                           writer: NDJSONWriter = .standardOutput) throws -> ExitCode {
        guard o.operands.isEmpty else { throw ToolFailure(.usage, "pb-brief reads no input; unexpected operand '\(o.operands[0])'") }
        let shapes = ["json", "headline", "status"].filter { o.flag($0) }
        guard shapes.count <= 1 else { throw ToolFailure(.usage, "give one of --json, --headline and --status, not \(shapes.map { "--" + $0 }.joined(separator: " and "))") }
        let clock: AgentClock
        do { clock = try AgentClock(text: o.value("now")) } catch {
            throw ToolFailure(.usage, "--now: expected an ISO 8601 date and time such as 2026-12-05T07:30:00+01:00, got '\(o.value("now") ?? "")'")
        }
        let minFree = try o.int("min-free", default: 30, in: 5...1440)
        let calendar = o.value("calendar-dir") ?? variables["PB_CALENDAR_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let workHours = variables["PB_WORK_HOURS"].flatMap { $0.isEmpty ? nil : $0 }
        let home = environment.home.path
        // Nothing done yet is an empty day, not an error; no store is made just to say so.
        let path = AgentStore.defaultPath(environment)
        let store = FileManager.default.fileExists(atPath: path) ? try AgentStore(readingOnly: path) : nil
        let brief: MorningBrief
        do {
            brief = try MorningBrief.make(store: store, home: home, clock: clock, calendarDirectory: calendar, workHours: workHours, minFree: minFree)
        } catch let e as AgentError {
            switch e {
            case .notFound(let what): throw ToolFailure(.cannotOpen, what)
            case .badArgument(let name, let why): throw ToolFailure(.usage, "\(name): \(why)")
            default: throw ToolFailure(.ioError, e.description)
            }
        }
        if o.flag("status") {
            try StatusSnapshot.write(brief, home: home)
            try writer.writeValue(StatusSnapshot.record(brief))
        } else if o.flag("json") {
            var record = brief.json
            record["kind"] = .string("brief")
            try writer.writeValue(JSONValue.object(record))
        } else if o.flag("headline") {
            writer.writeText(brief.headline + "\n")
        } else {
            writer.writeText(brief.text())
        }
        return .success
    }
}
