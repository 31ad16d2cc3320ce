import Foundation
import PBCore

/// The day at a glance (the morning brief): what is overdue, what is due today and how
/// much of it is already done, today's events and the free stretches of working time between
/// them, and what was done yesterday. Read-only: the store, the calendar folder and PocketBrains'
/// own calendar, as they are now. `pb-brief` prints it, the `brief` tool returns it, and the
/// status snapshot is made from it.
public struct MorningBrief: Sendable {
    public struct Event: Sendable, Equatable {
        public var title: String
        public var start: Date
        public var end: Date
        public var allDay: Bool
        public var busy: Bool
        public var location: String?
        public var file: String
    }

    public var clock: AgentClock
    /// Today, `YYYY-MM-DD` in the clock's zone.
    public var day: String
    /// Open tasks due before today, the oldest first.
    public var overdue: [TaskItem]
    /// Tasks due today, open or done (done ones are the "already done").
    public var dueToday: [TaskItem]
    /// Tasks completed today, whenever they were due.
    public var doneToday: [TaskItem]
    public var doneYesterday: [TaskItem]
    /// Today's events, all-day ones first, then by start.
    public var events: [Event]
    /// Free stretches of at least `minFree` minutes in today's working hours, from now on; nil
    /// when today is not a working day.
    public var free: [DateInterval]?
    /// The working hours, minutes after midnight.
    public var hours: (start: Int, end: Int)
    public var minFree: Int
    public var unresolvedZones: [String]

    /// The brief of `clock`'s day, from the store in `home` (PB_HOME) and the calendars.
    /// `store` nil is a store not made yet: no tasks. `workHours` is PB_WORK_HOURS ("09:00-17:30";
    /// default 09:00-17:00).
    public static func make(store: AgentStore?, home: String, clock: AgentClock, calendarDirectory: String?, workHours: String?,
                            minFree: Int = 30) throws -> MorningBrief {
        let zone = clock.zone
        let today = clock.today
        let cal = clock.calendar
        let midnight = cal.startOfDay(for: clock.now)
        let yesterdayStart = cal.date(byAdding: .day, value: -1, to: midnight)!
        let yesterday = ISOMoment.dayString(yesterdayStart, zone: zone)
        var open: [TaskItem] = []
        var recent: [TaskItem] = []
        var doneDue: [TaskItem] = []
        if let store {
            open = try store.tasks(where: "status = 'open'")
            // Done tasks due today, whenever they were done: the "already done". Dues are dates or
            // instants with an offset, so a day each side as text, and the exact day read below.
            let around = { (days: Int) in ISOMoment.dayString(cal.date(byAdding: .day, value: days, to: midnight)!, zone: zone) }
            doneDue = try store.tasks(where: "status <> 'open' AND due >= ? AND due < ?", [.text(around(-1)), .text(around(2))])
            // Completion stamps are UTC text ("2026-12-04T09:00:00Z"): those from yesterday's start
            // on compare as text, with a day's margin for the zone; the exact day is read below.
            let from = ISOMoment.format(yesterdayStart.addingTimeInterval(-86_400), zone: TimeZone(secondsFromGMT: 0)!)
            recent = try store.tasks(where: "completed_at IS NOT NULL AND completed_at >= ?", [.text(from)])
        }
        func completedDay(_ t: TaskItem) -> String? {
            t.completedAt.flatMap { ISOMoment.parse($0, zone: zone) }?.day(in: zone)
        }
        // Each task's day once: the filters below would read it again and again.
        var dayOf: [Int64: String] = [:]
        for t in open + doneDue { dayOf[t.id] = QueryTools.day(t, clock) }
        let overdue = open.filter { (dayOf[$0.id] ?? "9999") < today }.sorted(by: QueryTools.byDue)
        let doneToday = recent.filter { completedDay($0) == today }.sorted { ($0.completedAt ?? "", $0.id) < ($1.completedAt ?? "", $1.id) }
        let doneYesterday = recent.filter { completedDay($0) == yesterday }.sorted { ($0.completedAt ?? "", $0.id) < ($1.completedAt ?? "", $1.id) }
        let dueOpen = open.filter { dayOf[$0.id] == today }.sorted(by: QueryTools.byDue)
        let dueDone = doneDue.filter { dayOf[$0.id] == today }.sorted(by: QueryTools.byDue)
        var hours = (start: 9 * 60, end: 17 * 60)
        if let workHours {
            guard let h = FreeTime.hours(workHours) else {
                throw AgentError.badArgument("PB_WORK_HOURS", "expected HH:MM-HH:MM such as 09:00-17:30, got '\(workHours)'")
            }
            hours = h
        }
        let dayWindow = DateInterval(start: midnight, end: cal.date(byAdding: .day, value: 1, to: midnight)!)
        let read = try CalendarSources.events(directory: calendarDirectory, ownCalendar: CalendarSources.ownCalendar(home: home), zone: zone,
                                              window: dayWindow, read: { try store?.fileContent($0) ?? CalendarSources.onDisk($0) })
        var events = read.events.filter { $0.start < dayWindow.end && ($0.end > dayWindow.start || $0.start >= dayWindow.start) }
            .map { Event(title: $0.title, start: $0.start, end: $0.end, allDay: $0.allDay, busy: $0.busy, location: $0.location, file: $0.file) }
        let unresolved = read.unresolved
        events.sort { ($0.allDay ? 0 : 1, $0.start, $0.title) < ($1.allDay ? 0 : 1, $1.start, $1.title) }
        let work = FreeTime(start: hours.start, end: hours.end, zone: zone)
        var free: [DateInterval]?
        if work.window(midnight) != nil {
            let busy = events.filter(\.busy).map { DateInterval(start: $0.start, end: max($0.start, $0.end)) }
            free = work.stretches(days: [midnight], busy: busy, minutes: minFree, notBefore: clock.now)
        }
        return MorningBrief(clock: clock, day: today, overdue: overdue, dueToday: dueOpen + dueDone, doneToday: doneToday,
                            doneYesterday: doneYesterday, events: events, free: free, hours: hours, minFree: minFree,
                            unresolvedZones: unresolved)
    }

    // MARK: what it says

    public var dueOpen: [TaskItem] { dueToday.filter(\.isOpen) }
    public var dueDone: [TaskItem] { dueToday.filter { !$0.isOpen } }

    /// The timed events still to come (or under way) now.
    public var upcoming: [Event] { events.filter { !$0.allDay && $0.end > clock.now } }

    /// One line: "3 due today · 1 already done · 2 overdue · 2 events · free 13:00-15:00".
    public var headline: String {
        var parts: [String] = []
        if dueToday.isEmpty {
            parts.append("nothing due today")
        } else {
            parts.append("\(dueToday.count) due today")
            if !dueDone.isEmpty { parts.append(dueDone.count == dueToday.count ? "all done" : "\(dueDone.count) already done") }
        }
        if !overdue.isEmpty { parts.append("\(overdue.count) overdue") }
        let extra = doneToday.filter { QueryTools.day($0, clock) != day }.count
        if extra > 0 { parts.append("\(extra) more done today") }
        if !events.isEmpty { parts.append("\(events.count) event\(events.count == 1 ? "" : "s")") }
        if let next = upcoming.first {
            parts.append("next \(hhmm(next.start)) \(next.title)")
        }
        if let free, let first = free.first {
            parts.append("free \(hhmm(first.start))-\(hhmm(first.end))")
        }
        return parts.joined(separator: " · ")
    }

    func hhmm(_ d: Date) -> String { CalendarTools.hhmm(d, clock.zone) }

    static func minutesText(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }

    /// The brief as one screen of text: at most `perList` lines a list, the rest counted.
    public func text(perList: Int = 6) -> String {
        var lines: [String] = []
        let longDay: String = {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_GB")
            f.timeZone = clock.zone
            f.dateFormat = "EEEE d MMMM yyyy"
            return f.string(from: clock.now)
        }()
        lines.append("\(longDay): \(headline)")
        func section(_ title: String, _ rows: [String]) {
            guard !rows.isEmpty else { return }
            lines.append("")
            lines.append(title)
            for r in rows.prefix(perList) { lines.append("  " + r) }
            if rows.count > perList { lines.append("  and \(rows.count - perList) more") }
        }
        func task(_ t: TaskItem, mark: String, due: Bool) -> String {
            var s = "\(mark) \(t.ref)  \(t.title)"
            var notes: [String] = []
            if due, let d = t.due { notes.append("due \(d.count > 10 ? String(d.prefix(16)).replacingOccurrences(of: "T", with: " ") : d)") }
            if t.priority >= 2 { notes.append(["", "low", "medium", "high"][min(t.priority, 3)]) }
            if !notes.isEmpty { s += "  (\(notes.joined(separator: ", ")))" }
            return s
        }
        section("Overdue", overdue.map { task($0, mark: "!", due: true) })
        section("Due today", dueOpen.map { task($0, mark: "○", due: false) } + dueDone.map { task($0, mark: "✓", due: false) })
        section("Events", events.map { e in
            let when = e.allDay ? "all day    " : "\(hhmm(e.start))-\(hhmm(e.end))"
            return "\(when)  \(e.title)" + (e.location.map { " (\($0))" } ?? "") + (e.busy ? "" : " [free]")
        })
        if let free {
            let hours = "\(Self.minutesText(self.hours.start))-\(Self.minutesText(self.hours.end))"
            section("Free (working hours \(hours))", free.isEmpty ? ["no stretch of \(minFree) minutes left"] : free.map { s in
                let m = Int((s.duration / 60).rounded())
                return "\(hhmm(s.start))-\(hhmm(s.end))  \(m >= 60 ? "\(m / 60) h\(m % 60 == 0 ? "" : " \(m % 60) min")" : "\(m) min")"
            })
        }
        section("Done today", doneToday.filter { QueryTools.day($0, clock) != day }.map { task($0, mark: "✓", due: false) })
        section("Done yesterday", doneYesterday.map { task($0, mark: "✓", due: false) })
        if !unresolvedZones.isEmpty {
            lines.append("")
            lines.append("times in unknown zones read as local: \(unresolvedZones.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The brief as JSON: the `brief` object of pb-brief's record and the brief tool's data.
    public var json: [String: JSONValue] {
        let zone = clock.zone
        func list(_ tasks: [TaskItem]) -> JSONValue {
            .array(tasks.map { t in
                var o = t.refFields
                if let c = t.completedAt { o["completed_at"] = .string(c) }
                return .object(o)
            })
        }
        var o: [String: JSONValue] = [
            "day": .string(day),
            "now": .string(ISOMoment.format(clock.now, zone: zone)),
            "headline": .string(headline),
            "overdue": list(overdue),
            "due_today": list(dueToday),
            "done_today": list(doneToday),
            "done_yesterday": list(doneYesterday),
            "events": .array(events.map { e in
                var x: [String: JSONValue] = ["title": .string(e.title), "all_day": .bool(e.allDay), "busy": .bool(e.busy), "file": .string(e.file),
                                              "start": .string(ISOMoment.format(e.start, zone: zone)), "end": .string(ISOMoment.format(e.end, zone: zone))]
                if let l = e.location { x["location"] = .string(l) }
                return .object(x)
            }),
            "hours": .string("\(Self.minutesText(hours.start))-\(Self.minutesText(hours.end))"),
            "counts": .object([
                "overdue": .number(Double(overdue.count)), "due_today": .number(Double(dueToday.count)),
                "due_today_done": .number(Double(dueDone.count)), "done_today": .number(Double(doneToday.count)),
                "done_yesterday": .number(Double(doneYesterday.count)), "events": .number(Double(events.count)),
            ]),
        ]
        if let free {
            o["free"] = .array(free.map { s in
                .object(["start": .string(ISOMoment.format(s.start, zone: zone)), "end": .string(ISOMoment.format(s.end, zone: zone)),
                         "minutes": .number((s.duration / 60).rounded())])
            })
        } else {
            o["free"] = .null
        }
        if !unresolvedZones.isEmpty { o["unresolved_zones"] = .array(unresolvedZones.map(JSONValue.string)) }
        return o
    }
}
