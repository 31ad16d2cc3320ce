import Foundation
import PBCore

/// iCalendar: exporting tasks (VTODO) and milestones (VEVENT) to a file, and an agenda read
/// from the .ics files of a folder.
enum CalendarTools {
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    static func priorityValue(_ p: Int) -> Int? { [0: nil, 1: 9, 2: 5, 3: 1][p] ?? nil }

    static func dueProperty(_ name: String, _ due: String, _ clock: AgentClock) -> String? {
        guard let m = ISOMoment.parse(due, zone: clock.zone) else { return nil }
        return m.dateOnly ? "\(name);VALUE=DATE:\(ICalendarFile.dateValue(m.text))" : "\(name):\(ICalendarFile.utcStamp(m.date))"
    }

    static func todo(_ t: TaskItem, project: ProjectItem?, clock: AgentClock, uid: String) -> String {
        var props = ["UID:\(uid)", "DTSTAMP:\(ICalendarFile.utcStamp(clock.now))", "SUMMARY:\(ICalendarFile.escape(t.title))"]
        if !t.notes.isEmpty { props.append("DESCRIPTION:\(ICalendarFile.escape(t.notes))") }
        if let due = t.due, let p = dueProperty("DUE", due, clock) { props.append(p) }
        if let p = priorityValue(t.priority) { props.append("PRIORITY:\(p)") }
        if let project { props.append("CATEGORIES:\(ICalendarFile.escape(project.title))") }
        props.append("STATUS:\(t.isOpen ? "NEEDS-ACTION" : "COMPLETED")")
        return ICalendarFile.component("VTODO", props)
    }

    static func event(_ m: MilestoneItem, project: ProjectItem?, clock: AgentClock, uid: String) -> String? {
        guard let due = m.due, let start = dueProperty("DTSTART", due, clock), let moment = ISOMoment.parse(due, zone: clock.zone) else { return nil }
        var props = ["UID:\(uid)", "DTSTAMP:\(ICalendarFile.utcStamp(clock.now))", "SUMMARY:\(ICalendarFile.escape(m.title))", start]
        if moment.dateOnly { props.append("DTEND;VALUE=DATE:\(ICalendarFile.dateValue(moment.adding(.day, 1, zone: clock.zone).text))") }
        if let project { props.append("CATEGORIES:\(ICalendarFile.escape(project.title))") }
        return ICalendarFile.component("VEVENT", props)
    }

    static let exportICS = AgentTool(.exportICS, "export tasks (VTODO) and dated milestones (VEVENT) to an iCalendar file; an item already exported to that file is never written again", mutates: true, arguments: [
        .init("path", "the .ics file to write (created if missing, else added to)", required: true),
        .init("project", "only this project's tasks and milestones: project:N or a title"),
        .init("id", "only this task: task:N"),
        .init("title", "only this task, by title"),
        .init("include_done", "also export done tasks (default false)"),
        .init("milestones", "also export dated milestones as events (default true)"),
    ], run: { ctx in
        let given = try ctx.args.required("path")
        let path = absolute(given)
        let store = ctx.store
        let project = try ctx.args.text("project").map { try ctx.project(reference: $0, argument: "project") }
        var tasks: [TaskItem]
        var milestones: [MilestoneItem] = []
        if ctx.args.has("id") || ctx.args.has("title") {
            tasks = [try ctx.task()]
        } else {
            tasks = try project.map { try store.tasks(where: "project_id = ?", [.int($0.id)]) } ?? store.tasks()
            if try ctx.args.bool("include_done") != true { tasks = tasks.filter(\.isOpen) }
            if try ctx.args.bool("milestones") ?? true {
                milestones = try (project.map { try store.milestones(where: "project_id = ?", [.int($0.id)]) } ?? store.milestones()).filter { $0.due != nil }
            }
        }
        var components = ""
        var uids: [String] = []
        var skipped = 0
        var projects: [Int64: ProjectItem] = [:]
        func projectOf(_ id: Int64?) throws -> ProjectItem? {
            guard let id else { return nil }
            if let p = projects[id] { return p }
            let p = try store.project(id)
            projects[id] = p
            return p
        }
        for t in tasks {
            if try store.exportedUID(item: t.ref, path: path) != nil { skipped += 1; continue }
            let uid = "pb-task-\(t.id)@pocketbrains"
            components += todo(t, project: try projectOf(t.projectID), clock: ctx.clock, uid: uid)
            try store.recordExport(item: t.ref, path: path, uid: uid)
            uids.append(uid)
        }
        for m in milestones {
            if try store.exportedUID(item: m.ref, path: path) != nil { skipped += 1; continue }
            let uid = "pb-milestone-\(m.id)@pocketbrains"
            guard let c = event(m, project: try projectOf(m.projectID), clock: ctx.clock, uid: uid) else { continue }
            components += c
            try store.recordExport(item: m.ref, path: path, uid: uid)
            uids.append(uid)
        }
        let already = skipped > 0 ? " (\(skipped) already there)" : ""
        var ref: [String: JSONValue] = ["id": .string(given), "path": .string(given), "count": .number(Double(uids.count)),
                                        "uids": .array(uids.map(JSONValue.string))]
        guard !uids.isEmpty else {
            ref["count"] = .number(0)
            return ToolOutcome(ref: ref, summary: "nothing new to export to \(given)\(already)")
        }
        let existing = try store.fileContent(path)
        let text = try ICalendarFile.appending(components, to: existing.map { String(decoding: $0, as: UTF8.self) })
        store.scheduleFile(path, Data(text.utf8))
        try store.journalInverse(.unexport(path: path, uids: uids, createdFile: existing == nil))
        return ToolOutcome(ref: ref, summary: "exported \(uids.count) item\(uids.count == 1 ? "" : "s") to \(given)\(already)")
    }, check: { ctx, o in
        guard let given = o.ref?["path"]?.stringValue, case .array(let uids)? = o.ref?["uids"] else { return "no reference" }
        let path = absolute(given)
        guard !uids.isEmpty else { return nil }
        guard let data = try ctx.store.fileContent(path) else { return "\(given) was not written" }
        let present = Set(ICalendarFile.unfold(String(decoding: data, as: UTF8.self)).filter { $0.name == "UID" }.map(\.value))
        for uid in uids.compactMap(\.stringValue) where !present.contains(uid) { return "\(uid) is not in \(given)" }
        return nil
    })

    static func clockTime(_ text: String, argument: String) throws -> (Int, Int) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0..<60).contains(m), h * 60 + m <= 1440 else {
            throw AgentError.badArgument(argument, "expected a time of day HH:MM, got '\(text)'")
        }
        return (h, m)
    }

    static func hhmm(_ date: Date, _ zone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour!, c.minute!)
    }

    static let calendarAgenda = AgentTool(.calendarAgenda, "the events of a day from the .ics files in a folder, the free stretches between them, and the tasks due", mutates: false, arguments: [
        .init("dir", "the folder of .ics files (default: PB_CALENDAR_DIR; PocketBrains' own calendar is always read)"),
        .init("day", "an ISO 8601 date (default: today)"),
        .init("start", "the window's start, HH:MM (default 08:00; now, if later, on today)"),
        .init("end", "the window's end, HH:MM (default 20:00)"),
        .init("min_free", "the shortest free stretch worth listing, in minutes (default 30)"),
    ], run: { ctx in
        // Without a folder, PocketBrains' own calendar alone.
        let dir = try ctx.args.text("dir") ?? ctx.calendarDirectory
        let clock = ctx.clock
        let zone = clock.zone
        let dayText = try ctx.args.moment("day", clock: clock)?.day(in: zone) ?? clock.today
        let dayStart = ISOMoment.parse(dayText, zone: zone)!.date
        let (sh, sm) = try clockTime(try ctx.args.text("start") ?? "08:00", argument: "start")
        let (eh, em) = try clockTime(try ctx.args.text("end") ?? "20:00", argument: "end")
        var windowStart = dayStart.addingTimeInterval(Double(sh * 3600 + sm * 60))
        let windowEnd = dayStart.addingTimeInterval(Double(eh * 3600 + em * 60))
        guard windowStart < windowEnd else { throw AgentError.badArgument("end", "the window ends before it starts") }
        if dayText == clock.today, clock.now > windowStart { windowStart = min(clock.now, windowEnd) }
        let minFree = try ctx.args.int("min_free", in: 1...1440) ?? 30
        let dayWindow = DateInterval(start: dayStart, end: dayStart.addingTimeInterval(86_400))
        let (events, unresolved) = try CalendarSources.events(store: ctx.store, directory: dir, zone: zone, window: dayWindow)
        let dayEnd = dayStart.addingTimeInterval(86_400)
        let allDay = events.filter { $0.allDay && $0.start < dayEnd && $0.end > dayStart }
        let timed = events.filter { !$0.allDay && $0.start < windowEnd && $0.end > dayStart.addingTimeInterval(Double(sh * 3600 + sm * 60)) }
            .sorted { ($0.start, $0.title) < ($1.start, $1.title) }
        var free: [(Date, Date)] = []
        var cursor = windowStart
        for e in timed where e.end > cursor {
            if e.start > cursor, e.start.timeIntervalSince(cursor) >= Double(minFree * 60) { free.append((cursor, min(e.start, windowEnd))) }
            cursor = max(cursor, e.end)
        }
        if windowEnd.timeIntervalSince(cursor) >= Double(minFree * 60) { free.append((cursor, windowEnd)) }
        let tasks = try ctx.store.tasks(where: "status = 'open' AND due IS NOT NULL").filter { QueryTools.day($0, clock) == dayText }.sorted(by: QueryTools.byDue)
        func eventJSON(_ e: CalendarEvent) -> JSONValue {
            var o: [String: JSONValue] = ["title": .string(e.title), "all_day": .bool(e.allDay), "file": .string(e.file),
                                          "start": .string(ISOMoment.format(e.start, zone: zone)), "end": .string(ISOMoment.format(e.end, zone: zone))]
            if let l = e.location { o["location"] = .string(l) }
            return .object(o)
        }
        var data: [String: JSONValue] = [
            "day": .string(dayText),
            "window": .object(["start": .string(ISOMoment.format(windowStart, zone: zone)), "end": .string(ISOMoment.format(windowEnd, zone: zone))]),
            "events": .array((allDay + timed).map(eventJSON)),
            "free": .array(free.map { .object(["start": .string(hhmm($0.0, zone)), "end": .string(hhmm($0.1, zone)), "minutes": .number(($0.1.timeIntervalSince($0.0) / 60).rounded())]) }),
            "tasks": QueryTools.list(tasks),
        ]
        // Times in a zone this reader does not know were read as local times: say so.
        if !unresolved.isEmpty { data["unresolved_zones"] = .array(unresolved.map { .string($0) }) }
        var parts: [String] = []
        let eventText = allDay.map { "all day \($0.title)" } + timed.map { "\(hhmm($0.start, zone))-\(hhmm($0.end, zone)) \($0.title)" }
        parts.append(eventText.isEmpty ? "\(dayText): no events" : "\(dayText): \(eventText.count) event\(eventText.count == 1 ? "" : "s") (\(eventText.joined(separator: ", ")))")
        parts.append(free.isEmpty ? "no free stretch of \(minFree) minutes" : "free " + free.map { "\(hhmm($0.0, zone))-\(hhmm($0.1, zone))" }.joined(separator: ", "))
        parts.append(tasks.isEmpty ? "no tasks due" : "\(tasks.count) task\(tasks.count == 1 ? "" : "s") due: \(QueryTools.names(tasks))")
        if !unresolved.isEmpty { parts.append("times in unknown zones read as local: \(unresolved.joined(separator: ", "))") }
        return ToolOutcome(ref: nil, summary: parts.joined(separator: "; "), data: .object(data))
    })

    static let all = [exportICS, calendarAgenda]
}
