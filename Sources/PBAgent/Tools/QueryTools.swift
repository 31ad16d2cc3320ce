import Foundation
import PBCore
import PBSQLite
import PBIndex

/// The reading tools: search, agenda, project status, project blockers, summaries. They write
/// nothing, so they are never journaled.
enum QueryTools {
    static func day(_ t: TaskItem, _ clock: AgentClock) -> String? {
        guard let due = t.due else { return nil }
        // A date is its own day: the store only holds dates that parsed when written, and parsing
        // each again (a Calendar per call) was most of a brief's time over thousands of tasks.
        if due.utf8.count == 10 { return due }
        return ISOMoment.parse(due, zone: clock.zone)?.day(in: clock.zone)
    }

    static func list(_ tasks: [TaskItem]) -> JSONValue { .array(tasks.map { .object($0.refFields) }) }

    static func byDue(_ a: TaskItem, _ b: TaskItem) -> Bool {
        if a.due != b.due { return (a.due ?? "9999") < (b.due ?? "9999") }
        if a.priority != b.priority { return a.priority > b.priority }
        return a.id < b.id
    }

    static func names(_ tasks: [TaskItem], max: Int = 5) -> String {
        let shown = tasks.prefix(max).map { "\($0.ref) \"\($0.title)\"" }.joined(separator: ", ")
        return tasks.count > max ? shown + " and \(tasks.count - max) more" : shown
    }

    /// The last day of the clock's week (weeks start on Monday).
    /// The Sunday the week's agenda runs to: this one, or, asked on a Saturday or Sunday, the
    /// coming week's ("what's due this week?" on a weekend means the week ahead too).
    static func endOfWeek(_ clock: AgentClock) -> String {
        let cal = clock.calendar
        let weekday = cal.component(.weekday, from: clock.now) // 1 = Sunday
        let daysLeft = (8 - weekday) % 7 + (weekday == 1 || weekday == 7 ? 7 : 0)
        let end = cal.date(byAdding: .day, value: daysLeft, to: clock.now)!
        return ISOMoment.dayString(end, zone: clock.zone)
    }

    static let search = AgentTool(.search, "search tasks, projects, milestones and notes by the words of their titles and text (stemmed, ranked by BM25)", mutates: false, arguments: [
        .init("query", "the words to look for", required: true),
        .init("kind", "only items of this kind: task, project, milestone or note"),
        .init("limit", "at most this many hits (default 10)"),
    ], run: { ctx in
        let query = try ctx.args.required("query")
        let kind = try ctx.args.text("kind")?.lowercased()
        if let kind, !["task", "project", "milestone", "note"].contains(kind) {
            throw AgentError.badArgument("kind", "expected task, project, milestone or note, got '\(kind)'")
        }
        let limit = try ctx.args.int("limit", in: 1...1000) ?? 10
        let kinds = kind.flatMap(AgentStore.ItemKind.init(name:)).map { Set([$0]) } ?? Set(AgentStore.ItemKind.allCases)
        let phrase = query.lowercased().trimmingCharacters(in: .whitespaces)
        let wordHits = try ctx.store.searchWords(query, kinds: kinds)
        // Each kind's hits loaded with one query per 500 ids (well under SQLite's limit on bound
        // parameters), not one query per hit.
        typealias Found = (ref: String, title: String, fields: [String: JSONValue], open: Bool)
        var loaded: [AgentStore.ItemKind: [Int64: Found]] = [:]
        let batches = AgentStore.ItemKind.allCases.flatMap { kind in
            let ids = wordHits.filter { $0.kind == kind }.map(\.id)
            return stride(from: 0, to: ids.count, by: 500).map { (kind, Array(ids[$0..<min($0 + 500, ids.count)])) }
        }
        for (kind, ids) in batches {
            let condition = "id IN (\(ids.map { _ in "?" }.joined(separator: ",")))"
            let bindings = ids.map { SQLValue.int($0) }
            var found: [Found] = []
            var keys: [Int64] = []
            switch kind {
            case .task:
                for t in try ctx.store.tasks(where: condition, bindings) { keys.append(t.id); found.append((t.ref, t.title, t.refFields, t.isOpen)) }
            case .project:
                for p in try ctx.store.projects(where: condition, bindings) { keys.append(p.id); found.append((p.ref, p.title, p.refFields, p.status == "active")) }
            case .milestone:
                for m in try ctx.store.milestones(where: condition, bindings) { keys.append(m.id); found.append((m.ref, m.title, m.refFields, m.status == "open")) }
            case .note:
                for n in try ctx.store.notes(where: condition, bindings) { keys.append(n.id); found.append((n.ref, n.title, n.refFields, true)) }
            }
            loaded[kind, default: [:]].merge(zip(keys, found)) { a, _ in a }
        }
        var items: [(ref: String, title: String, fields: [String: JSONValue], score: Double)] = []
        for hit in wordHits {
            guard let found = loaded[hit.kind]?[hit.id] else { continue }
            // Scale-free preferences on top of BM25: the whole query in the title, and open items
            // over finished ones (what a user searching for something usually still has to do).
            var score = hit.score
            if found.title.lowercased().contains(phrase) { score *= 1.5 }
            if !found.open { score *= 0.8 }
            items.append((found.ref, found.title, found.fields, score))
        }
        let hits = items.enumerated().sorted { $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset }
        let top = hits.prefix(limit).map(\.element)
        let data = JSONValue.array(top.map { .object($0.fields) })
        guard let first = top.first else {
            return ToolOutcome(ref: nil, summary: "nothing matches '\(query)'", data: data)
        }
        var ref = first.fields
        ref["count"] = .number(Double(top.count))
        let shown = top.prefix(5).map { "\($0.ref) \"\($0.title)\"" }.joined(separator: ", ")
        return ToolOutcome(ref: ref, summary: "\(top.count) match\(top.count == 1 ? "" : "es") for '\(query)': \(shown)\(top.count > 5 ? ", ..." : "")", data: data)
    })

    static let agenda = AgentTool(.agenda, "open tasks overdue, due today or due this week (to Sunday; on a weekend, the coming week's), relative to the plan's now", mutates: false, arguments: [
        .init("range", "today (overdue and due today, the default), week (overdue and due by Sunday, the coming week's on a weekend) or overdue"),
    ], run: { ctx in
        let range = try ctx.args.text("range")?.lowercased() ?? "today"
        guard ["today", "week", "overdue"].contains(range) else { throw AgentError.badArgument("range", "expected today, week or overdue, got '\(range)'") }
        let clock = ctx.clock
        let today = clock.today
        let open = try ctx.store.tasks(where: "status = 'open' AND due IS NOT NULL").sorted(by: byDue)
        let overdue = open.filter { (day($0, clock) ?? "9999") < today }
        let last = range == "week" ? endOfWeek(clock) : today
        let due = range == "overdue" ? [] : open.filter { guard let d = day($0, clock) else { return false }; return d >= today && d <= last }
        var data: [String: JSONValue] = ["range": .string(range), "today": .string(today), "overdue": list(overdue)]
        if range != "overdue" { data["due"] = list(due); data["until"] = .string(last) }
        var parts: [String] = []
        if !overdue.isEmpty { parts.append("\(overdue.count) overdue: \(names(overdue))") }
        if range != "overdue" {
            let when = range == "week" ? "this week" : "today"
            parts.append(due.isEmpty ? "nothing due \(when)" : "\(due.count) due \(when): \(names(due))")
        } else if overdue.isEmpty {
            parts.append("nothing overdue")
        }
        return ToolOutcome(ref: nil, summary: parts.joined(separator: "; "), data: .object(data))
    })

    struct ProjectFacts {
        var project: ProjectItem
        var open: [TaskItem]
        var done: [TaskItem]
        var overdue: [TaskItem]
        var milestones: [MilestoneItem]
        /// Open tasks of the project with the open tasks they wait on.
        var blocked: [(TaskItem, [TaskItem])]

        init(_ ctx: ToolContext, _ p: ProjectItem) throws {
            project = p
            let tasks = try ctx.store.tasks(where: "project_id = ?", [.int(p.id)])
            open = tasks.filter(\.isOpen).sorted(by: QueryTools.byDue)
            done = tasks.filter { !$0.isOpen }
            overdue = open.filter { (QueryTools.day($0, ctx.clock) ?? "9999") < ctx.clock.today }
            milestones = try ctx.store.milestones(where: "project_id = ?", [.int(p.id)])
            blocked = try open.compactMap { t in
                let waits = try ctx.store.blockers(of: t.id).filter(\.isOpen)
                return waits.isEmpty ? nil : (t, waits)
            }
        }

        var nextMilestone: MilestoneItem? { milestones.first { $0.status == "open" } }

        var line: String {
            var s = "\(project.ref) \"\(project.title)\": \(open.count) open"
            if !overdue.isEmpty { s += " (\(overdue.count) overdue)" }
            s += ", \(done.count) done"
            if !blocked.isEmpty { s += ", \(blocked.count) blocked" }
            if let m = nextMilestone { s += "; next milestone \"\(m.title)\"\(m.due.map { " due \($0)" } ?? "")" }
            return s
        }

        var data: [String: JSONValue] {
            ["project": .object(project.refFields), "open": .number(Double(open.count)), "done": .number(Double(done.count)),
             "overdue": QueryTools.list(overdue), "next": QueryTools.list(Array(open.prefix(5))),
             "milestones": .array(milestones.map { .object($0.refFields) }),
             "blocked": .array(blocked.map { t, b in .object(["task": .object(t.refFields), "blocked_by": QueryTools.list(b)]) })]
        }
    }

    static let projectStatus = AgentTool(.projectStatus, "a project's open, done, overdue and blocked tasks and its milestones", mutates: false, arguments: [
        .init("project", "project:N or a title", required: true),
    ], run: { ctx in
        let facts = try ProjectFacts(ctx, try ctx.project(reference: try ctx.args.required("project"), argument: "project"))
        return ToolOutcome(ref: facts.project.refFields, summary: facts.line, data: .object(facts.data))
    })

    static let projectBlockers = AgentTool(.projectBlockers, "what is blocking a project: its tasks waiting on open tasks, and overdue work", mutates: false, arguments: [
        .init("project", "project:N or a title", required: true),
    ], run: { ctx in
        let facts = try ProjectFacts(ctx, try ctx.project(reference: try ctx.args.required("project"), argument: "project"))
        var parts: [String] = []
        for (t, waits) in facts.blocked {
            parts.append("\(t.ref) \"\(t.title)\" waits on \(names(waits))")
        }
        if !facts.overdue.isEmpty { parts.append("overdue: \(names(facts.overdue))") }
        let summary = "\(facts.project.ref) \"\(facts.project.title)\": " + (parts.isEmpty ? "nothing is blocking it" : parts.joined(separator: "; "))
        let data: [String: JSONValue] = ["project": .object(facts.project.refFields), "blocked": facts.data["blocked"]!, "overdue": list(facts.overdue)]
        return ToolOutcome(ref: facts.project.refFields, summary: summary, data: .object(data))
    })

    static let summarize = AgentTool(.summarize, "summarise a project, or a day (default today): due, done, overdue", mutates: false, arguments: [
        .init("project", "project:N or a title"),
        .init("day", "an ISO 8601 date (default: today)"),
    ], run: { ctx in
        if let p = try ctx.args.text("project") {
            let facts = try ProjectFacts(ctx, try ctx.project(reference: p, argument: "project"))
            var s = facts.line
            if !facts.open.isEmpty { s += ". Next: \(names(Array(facts.open.prefix(3))))" }
            return ToolOutcome(ref: facts.project.refFields, summary: s, data: .object(facts.data))
        }
        let clock = ctx.clock
        let dayText: String
        if let m = try ctx.args.moment("day", clock: clock) { dayText = m.day(in: clock.zone) } else { dayText = clock.today }
        let all = try ctx.store.tasks().sorted(by: byDue)
        let due = all.filter { $0.isOpen && day($0, clock) == dayText }
        let done = all.filter { t in t.completedAt.flatMap { ISOMoment.parse($0, zone: clock.zone) }?.day(in: clock.zone) == dayText }
        let overdue = all.filter { $0.isOpen && (day($0, clock) ?? "9999") < dayText }
        var parts = ["\(dayText): \(due.count) due", "\(done.count) done", "\(overdue.count) overdue"]
        if !due.isEmpty { parts.append("due: \(names(due))") }
        if !done.isEmpty { parts.append("done: \(names(done))") }
        let data: [String: JSONValue] = ["day": .string(dayText), "due": list(due), "done": list(done), "overdue": list(overdue)]
        return ToolOutcome(ref: nil, summary: parts.joined(separator: ", "), data: .object(data))
    })

    static let all = [search, agenda, projectStatus, projectBlockers, summarize]
}
