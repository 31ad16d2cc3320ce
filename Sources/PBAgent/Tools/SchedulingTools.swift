import Foundation
import PBCore

/// Scheduling into free time: `find_slot` reads the calendars for free stretches of working time,
/// `schedule` writes an event into PocketBrains' own calendar file, which calendar programs can
/// subscribe to. The file is rewritten whole and atomically when the plan commits, and undo takes
/// out exactly the events the turn added (by UID).
enum SchedulingTools {
    /// PocketBrains' own calendar: `calendar/pocketbrains.ics` beside the store.
    static func ownCalendar(_ store: AgentStore) -> String {
        CalendarSources.ownCalendar(home: (store.path as NSString).deletingLastPathComponent)
    }

    /// The events of the calendar folder and of PocketBrains' own calendar in `window`.
    static func events(_ ctx: ToolContext, window: DateInterval) throws -> (events: [CalendarEvent], unresolved: [String]) {
        try CalendarSources.events(store: ctx.store, directory: try ctx.args.text("dir") ?? ctx.calendarDirectory, zone: ctx.clock.zone, window: window)
    }

    static func workTime(_ ctx: ToolContext) throws -> FreeTime {
        var free = FreeTime(zone: ctx.clock.zone)
        if let hours = ctx.workHours {
            guard let (a, b) = FreeTime.hours(hours) else {
                throw AgentError.badArgument("PB_WORK_HOURS", "expected HH:MM-HH:MM such as 09:00-17:30, got '\(hours)'")
            }
            (free.start, free.end) = (a, b)
        }
        if let s = try ctx.args.text("start") { free.start = try minutes(s, "start") }
        if let e = try ctx.args.text("end") { free.end = try minutes(e, "end") }
        guard free.start < free.end else { throw AgentError.badArgument("end", "the working day ends before it starts") }
        free.weekends = try ctx.args.bool("weekends") ?? false
        return free
    }

    static func minutes(_ text: String, _ argument: String) throws -> Int {
        let (h, m) = try CalendarTools.clockTime(text, argument: argument)
        return h * 60 + m
    }

    static func hhmm(_ d: Date, _ zone: TimeZone) -> String { CalendarTools.hhmm(d, zone) }

    static let findSlot = AgentTool(.findSlot, "free stretches of working time of a given length across days, around the events of the calendar folder and of PocketBrains' own calendar (their repeats and time zones included)", mutates: false, arguments: [
        .init("minutes", "how long the slot must be, in minutes (5-1440)", required: true),
        .init("from", "the first day to look at, ISO 8601 (default today)"),
        .init("to", "the last day to look at, ISO 8601 (default 6 days after from)"),
        .init("start", "the working day's start, HH:MM (default PB_WORK_HOURS, else 09:00)"),
        .init("end", "the working day's end, HH:MM (default PB_WORK_HOURS, else 17:00)"),
        .init("weekends", "also look at Saturdays and Sundays (default false)"),
        .init("count", "how many slots to list (default 3, at most 50)"),
        .init("dir", "the folder of .ics files (default: PB_CALENDAR_DIR)"),
    ], run: { ctx in
        let clock = ctx.clock
        let zone = clock.zone
        let minutes = try ctx.args.int("minutes", in: 5...1440)!
        let count = try ctx.args.int("count", in: 1...50) ?? 3
        let fromDay = try ctx.args.moment("from", clock: clock)?.day(in: zone) ?? clock.today
        let from = ISOMoment.parse(fromDay, zone: zone)!
        let toDay = try ctx.args.moment("to", clock: clock)?.day(in: zone) ?? from.adding(.day, 6, zone: zone).text
        let to = ISOMoment.parse(toDay, zone: zone)!
        guard to.date >= from.date else { throw AgentError.badArgument("to", "the last day \(toDay) comes before the first, \(fromDay)") }
        var days: [Date] = []
        var d = from
        while d.date <= to.date, days.count < 366 { days.append(d.date); d = d.adding(.day, 1, zone: zone) }
        let free = try workTime(ctx)
        let window = DateInterval(start: from.date, end: d.date)
        let (events, unresolved) = try events(ctx, window: window)
        let busy = events.filter(\.busy).map { DateInterval(start: $0.start, end: max($0.start, $0.end)) }
        let stretches = free.stretches(days: days, busy: busy, minutes: minutes, notBefore: clock.now)
        let hours = "\(String(format: "%02d:%02d", free.start / 60, free.start % 60))-\(String(format: "%02d:%02d", free.end / 60, free.end % 60))"
        guard let first = stretches.first else {
            throw AgentError.notFound("no free stretch of \(minutes) minutes from \(fromDay) to \(toDay) within \(hours)\(free.weekends ? "" : " on weekdays")")
        }
        func slot(_ s: DateInterval) -> JSONValue {
            .object(["day": .string(ISOMoment.dayString(s.start, zone: zone)),
                     "start": .string(ISOMoment.format(s.start, zone: zone)),
                     "end": .string(ISOMoment.format(s.start.addingTimeInterval(Double(minutes * 60)), zone: zone)),
                     "free_until": .string(ISOMoment.format(s.end, zone: zone)),
                     "free_minutes": .number((s.duration / 60).rounded())])
        }
        let listed = Array(stretches.prefix(count))
        var data: [String: JSONValue] = ["minutes": .number(Double(minutes)), "from": .string(fromDay), "to": .string(toDay),
                                         "hours": .string(hours), "slots": .array(listed.map(slot))]
        if !unresolved.isEmpty { data["unresolved_zones"] = .array(unresolved.map { .string($0) }) }
        let end = first.start.addingTimeInterval(Double(minutes * 60))
        let ref: [String: JSONValue] = ["start": .string(ISOMoment.format(first.start, zone: zone)), "end": .string(ISOMoment.format(end, zone: zone)),
                                        "minutes": .number(Double(minutes))]
        let words = listed.map { "\(ISOMoment.dayString($0.start, zone: zone)) \(hhmm($0.start, zone))-\(hhmm($0.end, zone))" }
        return ToolOutcome(ref: ref, summary: "free for \(minutes) minutes: " + words.joined(separator: ", "), data: .object(data))
    })

    /// "Name <name@example.org>", "name@example.org" or "Name" as a name and an address.
    static func person(_ who: String) -> (name: String, address: String?) {
        if let lt = who.firstIndex(of: "<"), let gt = who.lastIndex(of: ">"), lt < gt {
            return (String(who[..<lt]).trimmingCharacters(in: .whitespaces),
                    String(who[who.index(after: lt)..<gt]).trimmingCharacters(in: .whitespaces))
        }
        if who.contains("@"), !who.contains(" ") { return ("", who) }
        return (who, nil)
    }

    /// Refuses an attendee that could end its ATTENDEE line or add one: a control character in
    /// the name or the address (a quoted parameter value allows not even a TAB), or an address
    /// that is not one address. `contact` names the card the value came from, if it did.
    static func checkAttendee(_ who: String, contact: String? = nil) throws {
        let (name, address) = person(who)
        let field = "attendees"
        try MailHeader.checkText(name, field: field, what: contact == nil ? "a name" : "the name of a contact", allowingTab: false)
        if let address {
            try MailHeader.checkAddress(address, field: field, what: contact.map { "the email address of \($0) in the contacts" } ?? "an address")
        }
    }

    /// "Name <name@example.org>", "name@example.org" or "Name": a VEVENT ATTENDEE line. A name with
    /// no address is written as the person's name with an address of PocketBrains' own
    /// (`urn:x-pocketbrains:person:...`), since RFC 5545 wants a URI there.
    static func attendee(_ who: String) -> String {
        let (name, address) = person(who)
        let cn = name.isEmpty ? "" : ";CN=\"\(name.replacingOccurrences(of: "\"", with: "'"))\""
        let uri = address.map { "mailto:\($0)" }
            ?? "urn:x-pocketbrains:person:" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "someone")
        return "ATTENDEE\(cn);ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:\(uri)"
    }

    /// An attendee named by a name alone, as the contacts know them: "Myra Jones <myra@example.net>"
    /// for "Mira", so the invitation reaches the right person. A name the contacts do not hold
    /// stays as given (not everyone is a contact); one that fits several fails the step with the
    /// candidates (never guessed). Addresses, and every name when there are no contacts, stay.
    static func attendee(_ ctx: ToolContext, _ who: String, book: ContactBook?) throws -> (value: String, note: String?) {
        // Refused before anything is looked up, as a draft's "to" is: a CR or LF would end the
        // ATTENDEE line and start another one (an attendee, an alarm) in the calendar.
        try MailHeader.checkText(who, field: "attendees", what: DraftTools.kind(who), allowingTab: false)
        guard let book, !who.contains("@"), !who.contains("<") else {
            try checkAttendee(who)
            return (who, nil)
        }
        switch book.lookup(who) {
        case let .found(c, how):
            try MailHeader.checkText(c.fullName, field: "attendees", what: "the name of a contact", allowingTab: false)
            let value = c.email.map { "\(c.fullName) <\($0)>" } ?? c.fullName
            try checkAttendee(value, contact: c.fullName)
            let note = ContactBook.fold(c.fullName) == ContactBook.fold(who) || how == "by name" ? nil : "'\(who)' is \(c.fullName), \(how)"
            return (value, note)
        case let .ambiguous(list, how):
            throw AgentError.ambiguous(kind: "contact (\(how))", query: who, candidates: list.map { "\"\($0.fullName)\"" })
        case .none:
            try checkAttendee(who)
            return (who, nil)
        }
    }

    static let schedule = AgentTool(.schedule, "write an event into PocketBrains' own calendar (calendar/pocketbrains.ics beside the store), for calendar programs to subscribe to; undo takes out exactly that event", mutates: true, arguments: [
        .init("title", "what the event is", required: true),
        .init("start", "when it starts: an ISO 8601 date and time, or a date for an all-day event", required: true),
        .init("minutes", "how long it lasts (default 60; an all-day event lasts its day)"),
        .init("end", "when it ends, instead of minutes"),
        .init("attendees", "who else comes: names (looked up in the contacts, PB_CONTACTS) or addresses, an array or comma-separated"),
        .init("location", "where"),
        .init("notes", "a description"),
    ], run: { ctx in
        let clock = ctx.clock
        let title = try ctx.args.required("title")
        // Escaped, a line break would still be one in the title a calendar shows, and the step's
        // summary would carry it raw: refused, with the plan, as an e-mail draft's subject is.
        try MailHeader.checkText(title, field: "title", what: "a title")
        let location = try ctx.args.text("location")
        if let location { try MailHeader.checkText(location, field: "location", what: "a location") }
        guard let start = try ctx.args.moment("start", clock: clock) else { throw AgentError.missingArgument("start") }
        let path = ownCalendar(ctx.store)
        var end: ISOMoment
        if let e = try ctx.args.moment("end", clock: clock) {
            guard e.date > start.date || (start.dateOnly && e.date >= start.date) else {
                throw AgentError.badArgument("end", "the event ends (\(e.text)) before it starts (\(start.text))")
            }
            end = e.dateOnly && start.dateOnly ? e.adding(.day, 1, zone: clock.zone) : e
        } else if start.dateOnly {
            end = start.adding(.day, 1, zone: clock.zone)
        } else {
            end = start.adding(.minute, try ctx.args.int("minutes", in: 1...10_080) ?? 60, zone: clock.zone)
        }
        let given = try ctx.args.strings("attendees") ?? []
        let book = given.isEmpty ? nil : try DraftTools.contactsIfAny(ctx)
        let people = try given.map { try attendee(ctx, $0, book: book) }
        let attendees = people.map(\.value)
        // The UID is the event's own: the same title at the same start is the same event, so
        // scheduling it twice writes it once.
        var hasher = FNV1a()
        hasher.add(title.lowercased())
        hasher.add(start.text)
        let uid = "pb-event-\(String(hasher.value, radix: 16))@pocketbrains"
        let existing = try ctx.store.fileContent(path).map { String(decoding: $0, as: UTF8.self) }
        if let existing, ICalendarFile.unfold(existing).contains(where: { $0.name == "UID" && $0.value == uid }) {
            throw AgentError.conflict("\"\(title)\" at \(start.text) is already in \(path)")
        }
        var props = ["UID:\(uid)", "DTSTAMP:\(ICalendarFile.utcStamp(clock.now))", "SUMMARY:\(ICalendarFile.escape(title))"]
        if start.dateOnly {
            props += ["DTSTART;VALUE=DATE:\(ICalendarFile.dateValue(start.text))", "DTEND;VALUE=DATE:\(ICalendarFile.dateValue(end.day(in: clock.zone)))"]
        } else {
            props += ["DTSTART:\(ICalendarFile.utcStamp(start.date))", "DTEND:\(ICalendarFile.utcStamp(end.date))"]
        }
        if let location { props.append("LOCATION:\(ICalendarFile.escape(location))") }
        if let n = try ctx.args.text("notes") { props.append("DESCRIPTION:\(ICalendarFile.escape(n))") }
        props += attendees.map(attendee)
        props.append("STATUS:CONFIRMED")
        props.append("TRANSP:OPAQUE")
        // What else is on then: said, not refused (the user named the time).
        let window = DateInterval(start: start.date, end: max(end.date, start.date.addingTimeInterval(1)))
        let overlapping = try events(ctx, window: window).events.filter { $0.busy && $0.start < window.end && $0.end > window.start }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = try ICalendarFile.appending(ICalendarFile.component("VEVENT", props), to: existing)
        ctx.store.scheduleFile(path, Data(text.utf8))
        try ctx.store.journalInverse(.unexport(path: path, uids: [uid], createdFile: existing == nil))
        let zone = clock.zone
        let when = start.dateOnly ? start.text : "\(ISOMoment.dayString(start.date, zone: zone)) \(hhmm(start.date, zone))-\(hhmm(end.date, zone))"
        var summary = "scheduled \"\(title)\" \(when)"
        if !attendees.isEmpty { summary += " with \(attendees.joined(separator: ", "))" }
        let notes = people.compactMap(\.note)
        if !notes.isEmpty { summary += " (\(notes.joined(separator: "; ")))" }
        if !overlapping.isEmpty { summary += "; it overlaps \(overlapping.map { "\"\($0.title)\"" }.joined(separator: ", "))" }
        let ref: [String: JSONValue] = ["uid": .string(uid), "path": .string(path), "start": .string(start.text), "end": .string(end.text)]
        var data: [String: JSONValue] = ["uid": .string(uid), "title": .string(title), "start": .string(start.text), "end": .string(end.text),
                                         "attendees": .array(attendees.map(JSONValue.string)), "path": .string(path)]
        if !overlapping.isEmpty { data["overlaps"] = .array(overlapping.map { .string($0.title) }) }
        return ToolOutcome(ref: ref, summary: summary, data: .object(data))
    }, check: { ctx, o in
        guard let path = o.ref?["path"]?.stringValue, let uid = o.ref?["uid"]?.stringValue else { return "no reference" }
        guard let data = try ctx.store.fileContent(path) else { return "\(path) was not written" }
        let text = String(decoding: data, as: UTF8.self)
        guard ICalendarFile.unfold(text).contains(where: { $0.name == "UID" && $0.value == uid }) else { return "\(uid) is not in \(path)" }
        return nil
    })

    static let all = [findSlot, schedule]
}

/// A small stable hash (FNV-1a, 64 bits) for identifiers that must not change between runs.
struct FNV1a {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ s: String) {
        for b in s.utf8 {
            value ^= UInt64(b)
            value = value &* 0x100_0000_01b3
        }
        value ^= 0x1f
        value = value &* 0x100_0000_01b3
    }
}
