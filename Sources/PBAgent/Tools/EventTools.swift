import Foundation
import PBCore

/// Taking events out of PocketBrains' own calendar, the file `schedule` writes. The other
/// calendars of the calendar folder belong to the programs that wrote them and are only read: an
/// event found there is named, never removed. Undo puts a removed event back byte for byte.
enum EventTools {

    /// One event of the own calendar: what a request can name it by, and its text in the file.
    struct OwnEvent {
        var uid: String
        var title: String
        var start: Date
        var allDay: Bool
        var text: String
        /// A series (RRULE, RDATE) or one moved occurrence of one (RECURRENCE-ID): taking it out
        /// would take more, or less, than the day asked for.
        var repeats: Bool

        func day(_ zone: TimeZone) -> String { ISOMoment.dayString(start, zone: zone) }

        func when(_ zone: TimeZone) -> String {
            allDay ? day(zone) : "\(day(zone)) \(CalendarTools.hhmm(start, zone))"
        }
    }

    static func ownEvents(_ text: String, zone: TimeZone) -> [OwnEvent] {
        ICalendarFile.events(in: text).compactMap { block in
            guard let uid = block.uid, let e = CalendarEvent.read(block.text, file: "", zone: zone).first else { return nil }
            let repeats = ICalendarFile.unfold(block.text).contains { ["RRULE", "RDATE", "RECURRENCE-ID"].contains($0.name) }
            return OwnEvent(uid: uid, title: e.title, start: e.start, allDay: e.allDay, text: block.text, repeats: repeats)
        }
    }

    /// The days asked for, as ISO dates: `on` alone is one day, `on` and `until` a span.
    static func days(_ ctx: ToolContext) throws -> ClosedRange<String>? {
        let zone = ctx.clock.zone
        guard let on = try ctx.args.moment("on", clock: ctx.clock)?.day(in: zone) else {
            if ctx.args.has("until") { throw AgentError.missingArgument("on (the first day of the span)") }
            return nil
        }
        let until = try ctx.args.moment("until", clock: ctx.clock)?.day(in: zone) ?? on
        guard until >= on else { throw AgentError.badArgument("until", "the span ends (\(until)) before it starts (\(on))") }
        return on...until
    }

    static let cancelEvent = AgentTool(.cancelEvent, "take events out of PocketBrains' own calendar (calendar/pocketbrains.ics): the one named by title, with next the first still to come (of that title, when one is given), or with all every one that matches, every one of the day or span when no title is given; other calendars are only read; undo puts them back", mutates: true, arguments: [
        .init("title", "the event, by its title"),
        .init("on", "the day it is on: an ISO 8601 date (with until, the first day of a span)"),
        .init("until", "the last day of the span, inclusive"),
        .init("all", "true: every event that matches, not one"),
        .init("next", "true: the first event still to come that matches, not one by its title alone"),
        .init("uid", "the event, by its UID (pb-plan pins the next event it named to it)"),
    ], run: { ctx in
        let zone = ctx.clock.zone
        let title = try ctx.args.text("title")
        let all = try ctx.args.bool("all") ?? false
        let next = try ctx.args.bool("next") ?? false
        let span = try days(ctx)
        if all && next { throw AgentError.badArgument("next", "next takes out one event, all every one: give one of them") }
        guard title != nil || all || next || ctx.args.has("uid") else { throw AgentError.missingArgument("title, next (the first event to come), or all (every event of the day or span)") }
        let path = SchedulingTools.ownCalendar(ctx.store)
        let existing = try ctx.store.fileContent(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // A file cut short could not take an event back on undo: refused, as `schedule` refuses it.
        if !existing.isEmpty, existing.range(of: "END:VCALENDAR") == nil {
            throw AgentError.conflict("\(path) is not an iCalendar file (no END:VCALENDAR); nothing was taken out")
        }
        let events = ownEvents(existing, zone: zone)
        let series = events.filter(\.repeats)
        let inSpan = events.filter { !$0.repeats && (span?.contains($0.day(zone)) ?? true) }
        // A repeating event is left alone: its occurrences are not its first day, and taking out
        // the series would take out days nobody named.
        let seriesNote = series.isEmpty ? "" : "; left alone, as they repeat: " + series.map { "\"\($0.title)\"" }.joined(separator: ", ")
        let when = span.map { $0.lowerBound == $0.upperBound ? " on \($0.lowerBound)" : " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
        let chosen: [OwnEvent]
        if let uid = try ctx.args.text("uid") {
            chosen = [try byUID(uid, in: events, next: next, clock: ctx.clock)]
        } else if next {
            guard let first = try nextToCome(ctx, title: title, in: inSpan, when: when, own: path) else {
                return ToolOutcome(ref: ["path": .string(path)], summary: "PocketBrains' calendar has no single event still to come\(when); nothing was taken out\(seriesNote)",
                                   data: .object(["removed": .array([]), "path": .string(path)]))
            }
            chosen = [first]
        } else if let title {
            chosen = try byTitle(ctx, title, all: all, in: inSpan, series: series, when: when, own: path)
        } else {
            chosen = inSpan
        }
        guard !chosen.isEmpty else {
            return ToolOutcome(ref: ["path": .string(path)], summary: "PocketBrains' calendar has no single event\(when); nothing was taken out\(seriesNote)",
                               data: .object(["removed": .array([]), "path": .string(path)]))
        }
        let uids = chosen.map(\.uid)
        // Where each stood: before the next event that stays, so undo puts the file back as it was.
        let order = ICalendarFile.events(in: existing).compactMap(\.uid)
        let going = Set(uids)
        let before: [String?] = uids.map { uid in
            guard let at = order.firstIndex(of: uid) else { return nil }
            return order[(at + 1)...].first { !going.contains($0) }
        }
        ctx.store.scheduleFile(path, Data(ICalendarFile.removing(uids: going, from: existing).utf8))
        try ctx.store.journalInverse(.reinsert(path: path, components: chosen.map(\.text), uids: uids, before: before))
        let named = chosen.map { "\"\($0.title)\" \($0.when(zone))" }
        let removed: [JSONValue] = chosen.map { .object(["uid": .string($0.uid), "title": .string($0.title), "start": .string($0.when(zone))]) }
        return ToolOutcome(ref: ["path": .string(path), "uids": .array(uids.map(JSONValue.string))],
                           summary: "took out of \(path): \(named.joined(separator: ", "))\(title == nil ? seriesNote : "")",
                           data: .object(["removed": .array(removed), "path": .string(path)]))
    }, check: { ctx, o in
        guard let path = o.ref?["path"]?.stringValue else { return "no reference" }
        guard case .array(let uids)? = o.ref?["uids"] else { return nil }
        let text = try ctx.store.fileContent(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let left = Set(ICalendarFile.events(in: text).compactMap(\.uid))
        let still = uids.compactMap(\.stringValue).filter(left.contains)
        return still.isEmpty ? nil : "\(still.joined(separator: ", ")) still in \(path)"
    })

    /// The event a confirmed plan named by its UID, and no other that came first since.
    static func byUID(_ uid: String, in events: [OwnEvent], next: Bool, clock: AgentClock) throws -> OwnEvent {
        guard let e = events.first(where: { $0.uid == uid }) else {
            throw AgentError.notFound("no event \(uid) in PocketBrains' calendar (taken out or changed since the plan was made); nothing was taken out")
        }
        if e.repeats { throw AgentError.conflict("\"\(e.title)\" repeats; PocketBrains takes out single events only: change the series in a calendar program") }
        if next, e.start < clock.now { throw AgentError.conflict("\"\(e.title)\" \(e.when(clock.zone)) has begun, so it is no longer the next event; nothing was taken out") }
        return e
    }

    /// The first event still to come (one that has not started: an all-day event of today is
    /// under way), of `title` when one is given; nil when there is none and no title was given.
    static func nextToCome(_ ctx: ToolContext, title: String?, in events: [OwnEvent], when: String, own path: String) throws -> OwnEvent? {
        let ahead = events.filter { $0.start >= ctx.clock.now }.sorted { $0.start < $1.start }
        let fits = title.map { t in ahead.filter { matches($0, t) } } ?? ahead
        if fits.isEmpty, let title { throw AgentError.notFound(try missing(ctx, title: title, when: when, own: path) + " still to come") }
        return fits.first
    }

    /// The event `title` names (with `all`, every one it matches); a loose or ambiguous match is
    /// asked about, a repeating one refused, none said plainly.
    static func byTitle(_ ctx: ToolContext, _ title: String, all: Bool, in events: [OwnEvent], series: [OwnEvent],
                        when: String, own path: String) throws -> [OwnEvent] {
        let zone = ctx.clock.zone
        var chosen: [OwnEvent] = []
        if all {
            chosen = events.filter { matches($0, title) }
        } else {
            let byUID = Dictionary(events.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
            let candidates = events.map { TitleMatcher.Candidate(ref: $0.uid, title: $0.title, open: true) }
            func event(_ c: TitleMatcher.Candidate) -> String { byUID[c.ref].map { "\"\($0.title)\" \($0.when(zone))" } ?? "\"\(c.title)\"" }
            switch TitleMatcher(preferOpen: true).match(title, in: candidates) {
            case .found(let c): chosen = byUID[c.ref].map { [$0] } ?? []
            case let .loose(c, missing):
                throw AgentError.unsure(kind: "event", query: title, candidate: event(c), missing: missing)
            case .ambiguous(let list):
                throw AgentError.ambiguous(kind: "event", query: title, candidates: list.map(event))
            case .none:
                break
            }
        }
        if chosen.isEmpty {
            if let r = series.first(where: { matches($0, title) }) {
                throw AgentError.conflict("\"\(r.title)\" repeats; PocketBrains takes out single events only: change the series in a calendar program")
            }
            throw AgentError.notFound(try missing(ctx, title: title, when: when, own: path))
        }
        return chosen
    }

    /// Whether `title` names the event, as a title match that needs no asking.
    static func matches(_ e: OwnEvent, _ title: String) -> Bool {
        if case .found = TitleMatcher(preferOpen: true).match(title, in: [TitleMatcher.Candidate(ref: e.uid, title: e.title, open: true)]) { return true }
        return false
    }

    /// Why nothing matched: the own calendar has no such event; when another calendar of the
    /// folder has one, where it is, since PocketBrains cannot take it out of there.
    static func missing(_ ctx: ToolContext, title: String, when: String, own: String) throws -> String {
        let none = "no event in PocketBrains' calendar matches '\(title)'\(when)"
        guard let dir = ctx.calendarDirectory else { return none }
        let others = try CalendarSources.files(directory: dir, ownCalendar: own).filter { CalendarTools.absolute($0.path) != CalendarTools.absolute(own) }
        for f in others {
            guard let data = try CalendarSources.onDisk(f.path) else { continue }
            let events = CalendarEvent.read(String(decoding: data, as: UTF8.self), file: f.name, zone: ctx.clock.zone)
            let candidates = events.enumerated().map { TitleMatcher.Candidate(ref: String($0.offset), title: $0.element.title, open: true) }
            switch TitleMatcher(preferOpen: true).match(title, in: candidates) {
            case .found(let c), .loose(let c, _):
                return none + "; \"\(c.title)\" is in \(f.name), which PocketBrains only reads: take it out in the program that keeps that calendar"
            case .ambiguous(let list):
                return none + "; \(list.count) events in \(f.name) match, which PocketBrains only reads"
            case .none:
                continue
            }
        }
        return none
    }

    static let all = [cancelEvent]
}
