import Foundation
import PBText

/// An event read from an .ics file: its span, and whether it is an all-day event.
public struct CalendarEvent: Equatable, Sendable {
    public var title: String
    public var start: Date
    public var end: Date
    public var allDay: Bool
    public var location: String?
    public var file: String
    /// Whether the event takes the time (RFC 5545 TRANSP): OPAQUE or TRANSPARENT when written;
    /// when not, a timed event is busy and an all-day one is not (a birthday or a holiday does
    /// not fill the working day; calendar programs write all-day events so).
    public var busy: Bool = true

    /// The events of one file, and the TZIDs in it that named no known zone.
    public struct Reading: Sendable {
        public var events: [CalendarEvent]
        public var unresolvedZones: [String]
    }

    /// Reads the VEVENTs of one file (see `reading`).
    public static func read(_ text: String, file: String, zone: TimeZone, window: DateInterval? = nil) -> [CalendarEvent] {
        reading(text, file: file, zone: zone, window: window).events
    }

    /// Reads the VEVENTs of one file. A date with a `TZID` is taken in that zone (see
    /// `CalendarZones`), one ending in `Z` in UTC, a floating one in `zone`; a missing end is a
    /// zero-length event, or one day for a date. Cancelled events (STATUS:CANCELLED) are left out.
    ///
    /// With `window`, repeating events (RRULE, see `EventRecurrence`) come back as each of their
    /// occurrences that overlaps the window, less the EXDATE ones and those a RECURRENCE-ID
    /// instance of the same UID replaces (the moved or cancelled meeting). Occurrences keep their
    /// wall-clock time in the event's own zone across daylight-saving changes. Without a window,
    /// or when the rule cannot be read, a repeating event is its first occurrence only.
    public static func reading(_ text: String, file: String, zone: TimeZone, window: DateInterval? = nil) -> Reading {
        let properties = ICalendarFile.unfold(text)
        var zones = CalendarZones(fallback: zone, properties: properties)
        var components: [[ICalendarFile.Property]] = []
        var current: [ICalendarFile.Property]?
        var nested = 0
        for p in properties {
            guard current != nil else {
                if p.name == "BEGIN", p.value.uppercased() == "VEVENT" { current = []; nested = 0 }
                continue
            }
            // Properties of a component inside the event (VALARM) are not the event's own.
            if p.name == "BEGIN" { nested += 1; continue }
            if p.name == "END" {
                if nested > 0 { nested -= 1 } else { components.append(current!); current = nil }
                continue
            }
            if nested == 0 { current!.append(p) }
        }
        func value(_ props: [ICalendarFile.Property], _ name: String) -> ICalendarFile.Property? { props.first { $0.name == name } }

        // Instances that replace one occurrence of a repeating event: UID -> the starts replaced.
        var replaced: [String: Set<Date>] = [:]
        for props in components {
            if let uid = value(props, "UID")?.value, let rid = value(props, "RECURRENCE-ID"), let (date, _) = parse(rid, zone: zones.zone(of: rid)) {
                replaced[uid, default: []].insert(date)
            }
        }
        var events: [CalendarEvent] = []
        for props in components {
            let cancelled = value(props, "STATUS")?.value.uppercased() == "CANCELLED"
            guard !cancelled, let e = make(props, file: file, zones: &zones) else { continue }
            // Repeats keep the wall-clock time of the zone the event is written in.
            let eventZone = value(props, "DTSTART").map { zones.zone(of: $0) } ?? zone
            guard let window, value(props, "RECURRENCE-ID") == nil, let ruleText = value(props, "RRULE")?.value,
                  let rule = EventRecurrence(ruleText, zone: eventZone) else {
                events.append(e)
                continue
            }
            var skip = replaced[value(props, "UID")?.value ?? ""] ?? []
            for ex in props where ex.name == "EXDATE" {
                for item in ex.value.split(separator: ",") {
                    let one = ICalendarFile.Property(name: "EXDATE", params: ex.params, value: String(item))
                    if let (date, allDay) = parse(one, zone: zones.zone(of: ex)) {
                        // A date-only EXDATE on a timed event removes that day's occurrence.
                        skip.insert(allDay && !e.allDay ? combine(day: date, timeOf: e.start, zone: eventZone) : date)
                    }
                }
            }
            let length = e.end.timeIntervalSince(e.start)
            for start in rule.starts(from: e.start, before: window.end, zone: eventZone) where !skip.contains(start) {
                let end = start.addingTimeInterval(length)
                guard end > window.start || (length == 0 && start >= window.start) else { continue }
                var occurrence = e
                occurrence.start = start
                occurrence.end = end
                events.append(occurrence)
            }
        }
        return Reading(events: events, unresolvedZones: zones.unresolved)
    }

    /// The day of `day` at the wall-clock time of `time`, in `zone`.
    static func combine(day: Date, timeOf time: Date, zone: TimeZone) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        var c = cal.dateComponents([.year, .month, .day], from: day)
        let t = cal.dateComponents([.hour, .minute, .second], from: time)
        (c.hour, c.minute, c.second) = (t.hour, t.minute, t.second)
        return cal.date(from: c) ?? day
    }

    static func make(_ props: [ICalendarFile.Property], file: String, zones: inout CalendarZones) -> CalendarEvent? {
        guard let startProp = props.first(where: { $0.name == "DTSTART" }), let (start, allDay) = parse(startProp, zone: zones.zone(of: startProp)) else { return nil }
        var end: Date
        if let endProp = props.first(where: { $0.name == "DTEND" }), let (e, _) = parse(endProp, zone: zones.zone(of: endProp)) {
            end = e
        } else if let d = props.first(where: { $0.name == "DURATION" }), let seconds = duration(d.value) {
            end = start.addingTimeInterval(seconds)
        } else {
            end = allDay ? start.addingTimeInterval(86_400) : start
        }
        if end < start { end = start }
        let title = props.first(where: { $0.name == "SUMMARY" }).map { ICalendarFile.unescape($0.value) } ?? "(untitled)"
        let location = props.first(where: { $0.name == "LOCATION" }).map { ICalendarFile.unescape($0.value) }
        let transp = props.first(where: { $0.name == "TRANSP" })?.value.uppercased()
        let busy = transp == "OPAQUE" ? true : transp == "TRANSPARENT" ? false : !allDay
        return CalendarEvent(title: title, start: start, end: end, allDay: allDay, location: location, file: file, busy: busy)
    }

    /// `20261129`, `20261129T190000`, `20261129T190000Z`.
    static func parse(_ p: ICalendarFile.Property, zone: TimeZone) -> (Date, Bool)? {
        let v = p.value.trimmingCharacters(in: .whitespaces)
        let digits = v.filter(\.isNumber)
        guard digits.count >= 8, let y = Int(digits.prefix(4)), let m = Int(digits.dropFirst(4).prefix(2)), let d = Int(digits.dropFirst(6).prefix(2)) else { return nil }
        var cal = Calendar(identifier: .gregorian)
        let allDay = p.params["VALUE"] == "DATE" || !v.contains("T")
        cal.timeZone = v.hasSuffix("Z") ? TimeZone(secondsFromGMT: 0)! : zone
        var comps = DateComponents(year: y, month: m, day: d)
        if !allDay, digits.count >= 12 {
            comps.hour = Int(digits.dropFirst(8).prefix(2))
            comps.minute = Int(digits.dropFirst(10).prefix(2))
            comps.second = digits.count >= 14 ? Int(digits.dropFirst(12).prefix(2)) : 0
        }
        guard let date = cal.date(from: comps) else { return nil }
        return (date, allDay)
    }

    /// `PT1H30M`, `P1D`, `P1W` in seconds.
    static func duration(_ text: String) -> TimeInterval? {
        var sign: Double = 1
        var s = Substring(text.uppercased())
        if s.hasPrefix("-") { sign = -1; s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        guard s.hasPrefix("P") else { return nil }
        s = s.dropFirst()
        var total: Double = 0
        var number = ""
        var inTime = false
        for ch in s {
            if ch == "T" { inTime = true; continue }
            if ch.isNumber { number.append(ch); continue }
            guard let n = Double(number) else { return nil }
            number = ""
            switch (ch, inTime) {
            case ("W", false): total += n * 604_800
            case ("D", false): total += n * 86_400
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
        }
        return number.isEmpty ? sign * total : nil
    }
}
