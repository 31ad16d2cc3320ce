import Foundation
import PBCore
import PBDates

/// pb-plan: reads requests (text lines or records with `text`) and writes one `plan` record each.
public enum PlanCommand {
    public static let spec = CommandSpec(
        name: "pb-plan",
        summary: "turn requests into plan records of tool calls, without running them",
        operands: "[FILE ...]",
        options: [
            OptionSpec("now", value: "TIME", help: "resolve dates against this ISO 8601 time (default: the current time; a record's own now wins)"),
            OptionSpec("time-zone", value: "TZ", help: "time zone: IANA name, UTC or +HH:MM (default: $TZ, else the system's)"),
            OptionSpec("week-start", value: "DAY", help: "monday or sunday: what 'this week' and 'next friday' count from (default monday)"),
            OptionSpec("date-order", value: "ORDER", help: "dmy, mdy or ymd: how 03/04/2026 reads (default dmy)"),
            OptionSpec("capture", short: "c", help: "read the whole of the text input as one dump to capture (records: each one)"),
            OptionSpec("reconcile", short: "r", help: "read plan records made elsewhere (a model, a script) and apply the reconciliation rules to them"),
            OptionSpec("no-examples", help: "read with the grammar alone, never comparing a request with the labelled requests (see pb-plan(1))"),
            OptionSpec("no-store", help: "do not read the store's open tasks and notes (which a capture never adds again)"),
            OptionSpec("endpoint", value: "URL", help: "ask an OpenAI-compatible chat server for each plan, within a JSON schema; checked and reconciled like the grammar's, which plans instead when the server fails"),
            OptionSpec("model", value: "NAME", help: "with --endpoint, the model to ask for"),
            OptionSpec("timeout", value: "S", help: "with --endpoint, seconds per request before the grammar plans it (default 60)"),
            OptionSpec("allow-remote", help: "with --endpoint, allow a server that is not on this machine (the request is shown on stderr first)"),
            OptionSpec("keep-going", short: "k", help: "turn a bad input line into an error record and go on (exit 65 at the end)"),
        ])

    /// A request is at most this long (a line: the text or its record), as pb-date's: the
    /// grammar's work grows faster than the text, and at this size it stays under a second.
    public static let maxLineBytes = DateCommand.maxLineBytes
    /// All the text lines of one --capture dump together.
    public static let maxCaptureBytes = 131_072

    public static func run(_ o: ParsedOptions) throws -> ExitCode {
        let parser = try DateCommand.parser(o)
        let stored = o.flag("no-store") ? (tasks: [], notes: [], targets: nil) : storedItems(PBEnvironment())
        var planner = Planner(parser: parser, openTasks: stored.tasks, savedNotes: stored.notes, targets: stored.targets,
                              people: o.flag("no-store") ? [] : contactNames(PBEnvironment()))
        let environment = PBEnvironment()
        if !o.flag("no-examples"), environment.modelPresent {
            planner.recogniser = LabelledRequests.onDemand(environment)
        }
        let brain = try EndpointPlanner(options: o)
        if brain != nil, o.flag("reconcile") {
            throw ToolFailure(.usage, "--endpoint plans requests; --reconcile checks plans made elsewhere: give one of them")
        }
        let readers = try RecordLoop.readers(for: o.operands, maxLineBytes: maxLineBytes)
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let writer = NDJSONWriter.standardOutput
        if o.flag("reconcile") {
            return try loop.run(readers) { line in
                try writer.write(try reconciled(line, planner: planner, capture: o.flag("capture")))
            }
        }
        if o.flag("capture") {
            var dump: [String] = []
            var dumpBytes = 0
            let code = try loop.run(readers) { line in
                if isRecord(line) {
                    try writer.write(try plan(for: line, planner: planner, capture: true, brain: brain))
                } else {
                    dumpBytes += line.data.count + 1
                    guard dumpBytes <= maxCaptureBytes else {
                        throw ToolFailure(.badInput, "the text to capture passes \(maxCaptureBytes) bytes here; pb-plan captures at most that much at once (split it)")
                    }
                    dump.append(line.text)
                }
            }
            if !dump.isEmpty {
                let text = dump.joined(separator: "\n")
                try writer.write(brain.map { $0.plan(text, planner: planner, capture: true) } ?? planner.plan(text, capture: true))
            }
            return code
        }
        return try loop.run(readers) { line in
            try writer.write(try plan(for: line, planner: planner, capture: nil, brain: brain))
        }
    }

    static func isRecord(_ line: InputLine) -> Bool {
        line.data.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{")
    }

    /// The plan for one input line: a plain text line, or a JSON object with `text` (a string),
    /// optional `now` (ISO 8601, overrides --now) and `capture` (a boolean); other fields pass through.
    public static func plan(for line: InputLine, planner: Planner, capture: Bool?, brain: EndpointPlanner? = nil) throws -> PlanRecord {
        func planned(_ text: String, by planner: Planner, capture: Bool?) -> PlanRecord {
            brain.map { $0.plan(text, planner: planner, capture: capture) } ?? planner.plan(text, capture: capture)
        }
        guard isRecord(line) else { return planned(line.text, by: planner, capture: capture) }
        let object = try RecordCodec().decodeObject(line.data)
        let text: String
        switch object["text"] {
        case .string(let s)?: text = s
        case nil, .null?: throw RecordError.missingField("text")
        default: throw RecordError.badField(name: "text", reason: "expected a string")
        }
        var own = planner
        if case .string(let now)? = object["now"] {
            guard let d = planner.dates.format.parseInstant(now) else {
                throw RecordError.badField(name: "now", reason: "expected an ISO 8601 time such as 2026-11-29T10:00:00Z")
            }
            own = planner.at(d)
        }
        var wantsCapture = capture
        switch object["capture"] {
        case .bool(let b)?: wantsCapture = b ? true : capture
        case nil, .null?: break
        default: throw RecordError.badField(name: "capture", reason: "expected true or false")
        }
        var record = planned(text, by: own, capture: wantsCapture)
        for (key, value) in object where !PlanRecord.knownKeys.contains(key) && record.extra[key] == nil {
            record.extra[key] = value
        }
        // The request's own word on what the planner left unsaid passes on too ("confirmed": true
        // from a script that has asked its user already).
        if record.message == nil, case .string(let said)? = object["message"] { record.message = said }
        if record.confirm == nil, case .string(let question)? = object["confirm"] { record.confirm = question }
        if record.confirmed == nil, case .bool(let yes)? = object["confirmed"] { record.confirmed = yes }
        return record
    }

    /// The store's open tasks and notes (R1) and every item a change could name (R9), read only; a
    /// store that is not there yet holds none. One that cannot be read is said on stderr and
    /// planning goes on without it (R1 then sees the plan only, and R9 checks nothing).
    static func storedItems(_ environment: PBEnvironment) -> (tasks: [StoredItem], notes: [StoredItem], targets: StoreTargets?) {
        let path = AgentStore.defaultPath(environment)
        guard FileManager.default.fileExists(atPath: path) else { return ([], [], .empty) }
        do {
            let store = try AgentStore(readingOnly: path)
            let tasks = try store.tasks(where: "status = 'open'").map { StoredItem(ref: $0.ref, text: $0.title) }
            let notes = try store.notes().map { StoredItem(ref: $0.ref, text: $0.body) }
            return (tasks, notes, try StoreTargets(store))
        } catch {
            Diagnostics.shared.warning("\(path): cannot read the store's items (\(error)); a capture is checked against itself only, and a change is not checked against the store")
            return ([], [], nil)
        }
    }

    /// The contacts' names, lowercased, from PB_CONTACTS or `$PB_HOME/contacts` (as pb-exec
    /// finds them); none when the user keeps none. Contacts that cannot be read are said on
    /// stderr, and planning goes on without them.
    static func contactNames(_ environment: PBEnvironment, variables: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        let own = environment.home.appendingPathComponent("contacts").path
        let path = variables["PB_CONTACTS"].flatMap { $0.isEmpty ? nil : $0 } ?? (FileManager.default.fileExists(atPath: own) ? own : nil)
        guard let path else { return [] }
        do {
            var names = Set<String>()
            for c in try ContactBook.load(path).contacts {
                for n in [c.given, c.family, c.fullName] + c.nicknames where !n.isEmpty { names.insert(n.lowercased()) }
            }
            return names
        } catch {
            Diagnostics.shared.warning("\(path): cannot read the contacts (\(error)); names typed in lower case are not known as people")
            return []
        }
    }

    /// `--reconcile`: one plan record from another planner, with `text` (the request it was made
    /// from, which R6 grounds it in) and `steps`; `now` as for requests. It is a capture when the
    /// record says `capture: true` or `source: "capture"`, or with --capture.
    public static func reconciled(_ line: InputLine, planner: Planner, capture: Bool) throws -> PlanRecord {
        guard isRecord(line) else {
            throw RecordError.badField(name: "line", reason: "--reconcile reads plan records (JSON objects with text and steps), not text")
        }
        var object = try RecordCodec().decodeObject(line.data)
        // A step naming a tool there is none of is another planner's mistake, which R5 rejects in
        // its place; the rest of the plan is read as any plan is.
        let unknownTools = ProposedStep.unknown(in: &object)
        let data = unknownTools.isEmpty ? line.data : try RecordCodec().encodeValue(JSONValue.object(object))
        let plan = try RecordCodec().decode(PlanRecord.self, from: data, raw: object)
        guard let text = plan.text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RecordError.missingField("text")
        }
        var own = planner
        if let now = plan.now {
            guard let d = planner.dates.format.parseInstant(now) else {
                throw RecordError.badField(name: "now", reason: "expected an ISO 8601 time such as 2026-11-29T10:00:00Z")
            }
            own = planner.at(d)
        }
        var wantsCapture = capture || plan.source == "capture"
        if case .bool(let b)? = object["capture"] { wantsCapture = wantsCapture || b }
        var input = plan
        if input.now == nil { input.now = own.dates.format.instant(own.dates.parser.now) }
        return own.reconcile(input, capture: wantsCapture, unknownTools: unknownTools)
    }
}
