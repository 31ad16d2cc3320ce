import Foundation
import PBCore

/// Reads an iCalendar file (RFC 5545: an .ics export of Thunderbird, GNOME Evolution, Google or
/// Outlook, an invitation, an .ifb free/busy file) into a text layer a person can read and a
/// citation can quote.
///
/// Each event is a section headed by its SUMMARY, its fields written out in words, one line each:
///
///     Dentist check-up
///
///     When: Tuesday 12 January 2027, 09:30–10:00 (Europe/London)
///     Where: Smile Dental, 4 High Street, Abingdon
///     With: Dr Patel
///
///     Notes: Bring the referral letter.
///
/// Times are shown in the zone the file writes them in (its TZID, or UTC), never converted; an
/// all-day event is its dates. A repeating event (RRULE with FREQ DAILY, WEEKLY, MONTHLY or
/// YEARLY, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT, UNTIL; see `EventRecurrence`) gets a
/// line saying how it repeats and one listing its next occurrences from `now` (at most 12, within
/// a year, else the first one within ten), less its EXDATEs and the occurrences another
/// component of the same UID replaces (RECURRENCE-ID). To-dos (VTODO) are listed with their due
/// date and status, journal entries (VJOURNAL) with their date, free/busy components with their
/// periods. VTIMEZONE and alarms are not text.
///
/// A file that is cut off is read up to its end, with a warning; one with no BEGIN:VCALENDAR
/// and no component is refused.
public enum ICSDocument {
    /// Occurrences of a repeating event listed, at most.
    static let maximumListed = 12
    /// How far ahead of now occurrences are listed; past it, the first one within ten years.
    static let horizon: TimeInterval = 366 * 86_400
    static let farHorizon: TimeInterval = 3653 * 86_400
    /// Periods (days, weeks, months or years) of repeat rules one document may walk through. A
    /// daily or weekly rule without COUNT is walked from a year before now whenever it began, so
    /// this bounds the others: a monthly rule begun in 1900 is 1,600, a daily one with a COUNT of
    /// a million (hostile) a million. A rule that would take more is described, its next
    /// occurrences not listed (with a warning).
    static let expansionBudget = 400_000
    /// BEGIN lines nested deeper than this are not followed (real files nest three deep).
    static let maximumNesting = 32
    /// Attendees named on the "With:" line, at most; the rest are counted.
    static let maximumPeople = 20
    static let readable: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"]

    /// One component (VEVENT, VTODO, VJOURNAL, VFREEBUSY) with its own properties.
    struct Component {
        var name: String
        var properties: [ContentLine] = []
        var line: Int
        func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
        func all(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }
    }

    /// A date or time as written: its wall-clock reading and the zone it is written in.
    struct Moment: Equatable {
        var wall: Date
        var isDate: Bool
        /// "Europe/London", "UTC"; nil for a date or a floating time.
        var label: String?
        /// The zone, when this reader knows it (to place now in it); nil for floating times.
        var zone: TimeZone?
    }

    public static func textLayer(_ bytes: [UInt8], path: String, now: Date) throws -> TextLayer {
        let lines = ContentLine.read(ContentLine.utf8(bytes))
        let (components, calendar, sawCalendar) = self.components(lines, path: path)
        guard sawCalendar || !components.isEmpty else {
            throw DocumentError.malformed(path: path, reason: "no BEGIN:VCALENDAR line: not an iCalendar file")
        }
        var writer = Writer(now: now, path: path)
        writer.replaced = replacedOccurrences(components)
        for c in components { writer.write(c) }
        let name = calendar.first { $0.name == "X-WR-CALNAME" }.map(\.text).flatMap(TextLayer.cleanTitle)
        let single = components.count == 1 ? components[0].first("SUMMARY").map(\.text).flatMap(TextLayer.cleanTitle) : nil
        var layer = TextLayer(format: .calendar, title: name ?? single, markup: writer.drafts)
        if layer.blocks.isEmpty { layer.emptyReason = "a calendar with no events, to-dos or journal entries" }
        if !writer.listed.isEmpty { layer.timeDependent = writer.listed.joined(separator: "\n") }
        if writer.unexpanded > 0 {
            let n = writer.unexpanded
            Diagnostics.shared.warning("\(path): \(n) repeating \(n == 1 ? "event has" : "events have") more occurrences before now than are expanded for one document; \(n == 1 ? "its rule is" : "their rules are") described, \(n == 1 ? "its" : "their") next dates not listed")
        }
        return layer
    }

    /// The readable components in file order, the calendar's own properties, and whether a
    /// BEGIN:VCALENDAR was seen. Components inside a component (VALARM) and VTIMEZONE are not
    /// read; a component never closed is kept as far as it goes, with a warning.
    static func components(_ lines: [ContentLine], path: String) -> ([Component], [ContentLine], Bool) {
        var out: [Component] = []
        var calendar: [ContentLine] = []
        var stack: [(name: String, line: Int)] = []
        var current: Component?
        var currentDepth = 0
        var sawCalendar = false
        var unbalanced: [String] = []
        for p in lines {
            switch p.name {
            case "BEGIN":
                let name = p.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard stack.count < maximumNesting else { continue }
                stack.append((name, p.line))
                if name == "VCALENDAR" { sawCalendar = true }
                if current == nil, readable.contains(name) {
                    current = Component(name: name, line: p.line)
                    currentDepth = stack.count
                }
            case "END":
                let name = p.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard let at = stack.lastIndex(where: { $0.name == name }) else {
                    if stack.count < maximumNesting { unbalanced.append("line \(p.line): END:\(name) without its BEGIN") }
                    continue
                }
                for open in stack[(at + 1)...] { unbalanced.append("line \(open.line): BEGIN:\(open.name) without its END") }
                stack.removeSubrange(at...)
                if let c = current, stack.count < currentDepth {
                    out.append(c)
                    current = nil
                }
            default:
                if current != nil, stack.count == currentDepth {
                    current!.properties.append(p)
                } else if current == nil, stack.count == 1, stack[0].name == "VCALENDAR" {
                    calendar.append(p)
                }
            }
        }
        if let c = current { out.append(c) }
        if let open = stack.last {
            unbalanced.append("the file ends inside BEGIN:\(open.name) (line \(open.line)), which may be cut off; what it holds was read")
        }
        if !unbalanced.isEmpty {
            Diagnostics.shared.warning("\(path): " + unbalanced.prefix(3).joined(separator: "; ") + (unbalanced.count > 3 ? " (and \(unbalanced.count - 3) more)" : ""))
        }
        return (out, calendar, sawCalendar)
    }

    /// UID -> the wall-clock starts that a component with a RECURRENCE-ID replaces.
    static func replacedOccurrences(_ components: [Component]) -> [String: [ContentLine]] {
        var out: [String: [ContentLine]] = [:]
        for c in components {
            if let uid = c.first("UID")?.value, let rid = c.first("RECURRENCE-ID") { out[uid, default: []].append(rid) }
        }
        return out
    }

    // MARK: - Zones

    /// The label and zone of a TZID: an IANA name as written, or the IANA name at the end of a
    /// vendor's path ("/mozilla.org/20050126_1/Europe/London" is "Europe/London"); any other
    /// name (Outlook's "GMT Standard Time") is shown as written, its zone unknown.
    static func zone(_ raw: String) -> (label: String, zone: TimeZone?) {
        let tzid = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        if tzid.uppercased() == "UTC" || tzid.uppercased() == "GMT" || tzid == "Etc/UTC" { return ("UTC", CalendarText.utc) }
        if tzid.contains("/"), let z = TimeZone(identifier: tzid) { return (tzid, z) }
        let parts = tzid.split(separator: "/").map(String.init)
        for k in [3, 2] where parts.count > k {
            let tail = parts.suffix(k).joined(separator: "/")
            if let z = TimeZone(identifier: tail) { return (tail, z) }
        }
        return (tzid, nil)
    }

    static func moment(_ p: ContentLine) -> Moment? {
        guard let (wall, isDate, utc) = CalendarText.parse(p.value, dateOnly: p.parameter("VALUE")?.uppercased() == "DATE") else { return nil }
        if isDate { return Moment(wall: wall, isDate: true, label: nil, zone: nil) }
        if utc { return Moment(wall: wall, isDate: false, label: "UTC", zone: CalendarText.utc) }
        if let tzid = p.parameter("TZID") {
            let (label, zone) = zone(tzid)
            return Moment(wall: wall, isDate: false, label: label, zone: zone)
        }
        return Moment(wall: wall, isDate: false, label: nil, zone: nil)
    }

    /// A moment's wall-clock reading in the zone `to` is written in: a UTC time moved into a
    /// known zone (an EXDATE or UNTIL in UTC against a start in Europe/London); else as written.
    static func wall(_ m: Moment, in to: Moment) -> Date {
        guard m.label == "UTC", to.label != "UTC", !to.isDate, let zone = to.zone else { return m.wall }
        return m.wall.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: m.wall)))
    }

    // MARK: - Writing

    struct Writer {
        let now: Date
        let path: String
        var drafts: [TextLayer.MarkupDraft] = []
        var replaced: [String: [ContentLine]] = [:]
        /// The occurrences listed as next, for the document's hash.
        var listed: [String] = []
        var budget = ICSDocument.expansionBudget
        var unexpanded = 0

        init(now: Date, path: String) {
            self.now = now
            self.path = path
        }

        mutating func write(_ c: Component) {
            var fields: [String] = []
            let summary = c.first("SUMMARY").map { TextLayer.oneLine($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
            let start = c.first("DTSTART").flatMap(ICSDocument.moment)
            switch c.name {
            case "VEVENT":
                drafts.append(.heading(level: 1, text: summary ?? "Untitled event"))
                if let start {
                    fields.append("When: " + ICSDocument.span(start, end(c, start: start)))
                } else {
                    fields.append("When: " + (c.first("DTSTART").map { "\($0.value) (not a date this reader knows)" } ?? "not given"))
                }
                fields += occurrenceLines(c, anchor: start)
            case "VTODO":
                drafts.append(.heading(level: 1, text: summary ?? "Untitled to-do"))
                let due = c.first("DUE").flatMap(ICSDocument.moment)
                if let due { fields.append("Due: " + ICSDocument.span(due, nil, allDay: false)) }
                if let start { fields.append("Starts: " + ICSDocument.span(start, nil, allDay: false)) }
                fields += occurrenceLines(c, anchor: start ?? due)
                fields.append("Status: " + todoStatus(c))
                if let done = c.first("COMPLETED").flatMap(ICSDocument.moment) { fields.append("Completed: " + ICSDocument.span(done, nil, allDay: false)) }
                if let p = c.first("PRIORITY").flatMap({ Int($0.value.trimmingCharacters(in: .whitespaces)) }), (1...9).contains(p) {
                    fields.append("Priority: " + (p <= 4 ? "high" : p == 5 ? "medium" : "low"))
                }
            case "VJOURNAL":
                drafts.append(.heading(level: 1, text: summary ?? "Journal entry"))
                fields.append("Date: " + (start.map { ICSDocument.span($0, nil, allDay: false) } ?? "not given"))
            default:  // VFREEBUSY
                let who = (c.first("ATTENDEE") ?? c.first("ORGANIZER")).flatMap(ICSDocument.person)
                drafts.append(.heading(level: 1, text: "Free/busy" + (who.map { ": " + $0 } ?? "")))
                if let start, let end = c.first("DTEND").flatMap(ICSDocument.moment) {
                    fields.append("Period: " + ICSDocument.span(start, end))
                }
                fields += freeBusy(c)
            }
            if let rid = c.first("RECURRENCE-ID").flatMap(ICSDocument.moment) {
                fields.append("Instead of: " + ICSDocument.span(rid, nil, allDay: false))
            }
            if let location = c.first("LOCATION").map(\.text).map(ICSDocument.commaLines), !location.isEmpty {
                fields.append("Where: " + location)
            }
            let organiser = c.first("ORGANIZER").flatMap(ICSDocument.person)
            if let organiser { fields.append("Organiser: " + organiser) }
            if c.name != "VFREEBUSY" {
                let people = c.all("ATTENDEE").compactMap(ICSDocument.person).filter { $0 != organiser }
                if !people.isEmpty {
                    let named = people.prefix(ICSDocument.maximumPeople).joined(separator: ", ")
                    fields.append("With: " + named + (people.count > ICSDocument.maximumPeople ? " and \(people.count - ICSDocument.maximumPeople) others" : ""))
                }
            }
            if c.name == "VEVENT", let status = c.first("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased(),
               status == "CANCELLED" || status == "TENTATIVE" {
                fields.append("Status: " + status.lowercased())
            }
            let categories = c.all("CATEGORIES").flatMap { $0.list() }.map(TextLayer.oneLine).filter { !$0.isEmpty }
            if !categories.isEmpty { fields.append("Categories: " + categories.joined(separator: ", ")) }
            if let url = c.first("URL")?.text, !url.isEmpty { fields.append("Link: " + url) }
            drafts.append(.list(items: fields))
            let notes = c.all("DESCRIPTION").map(\.text).filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            if !notes.isEmpty { drafts.append(.paragraph("Notes: " + notes.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))) }
        }

        /// DTEND, else DTSTART plus DURATION; nil when neither is given.
        func end(_ c: Component, start: Moment) -> Moment? {
            if let e = c.first("DTEND").flatMap(ICSDocument.moment) { return e }
            if let d = c.first("DURATION").flatMap({ CalendarText.duration($0.value) }) {
                var e = start
                e.wall = start.wall.addingTimeInterval(d)
                return e
            }
            return nil
        }

        func todoStatus(_ c: Component) -> String {
            switch c.first("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased() {
            case "COMPLETED"?: return "done"
            case "IN-PROCESS"?: return "in progress"
            case "CANCELLED"?: return "cancelled"
            default: return c.first("COMPLETED") != nil ? "done" : "to do"
            }
        }

        /// FREEBUSY periods, `start/end` or `start/duration`, each on a line of its own.
        func freeBusy(_ c: Component) -> [String] {
            var out: [String] = []
            for p in c.all("FREEBUSY") {
                let kind: String
                switch p.parameter("FBTYPE")?.uppercased() {
                case "FREE"?: kind = "Free"
                case "BUSY-TENTATIVE"?: kind = "Busy (tentative)"
                case "BUSY-UNAVAILABLE"?: kind = "Unavailable"
                default: kind = "Busy"
                }
                for period in p.value.split(separator: ",") {
                    let ends = period.split(separator: "/", maxSplits: 1).map(String.init)
                    guard ends.count == 2, let s = CalendarText.parse(ends[0]) else { continue }
                    let start = Moment(wall: s.wall, isDate: s.isDate, label: s.utc ? "UTC" : nil, zone: s.utc ? CalendarText.utc : nil)
                    var end = start
                    if let e = CalendarText.parse(ends[1]) {
                        end.wall = e.wall
                    } else if let d = CalendarText.duration(ends[1]) {
                        end.wall = start.wall.addingTimeInterval(d)
                    } else {
                        continue
                    }
                    out.append("\(kind): " + ICSDocument.span(start, end))
                }
            }
            return out
        }

        /// "Repeats: ..." and "Next from DAY: ..." (or "Last: ..."), for a component with an RRULE.
        mutating func occurrenceLines(_ c: Component, anchor: Moment?) -> [String] {
            guard let ruleLine = c.first("RRULE"), c.first("RECURRENCE-ID") == nil else { return [] }
            guard let anchor, var rule = EventRecurrence(ruleLine.value, zone: CalendarText.utc) else {
                return ["Repeats: by the rule \(TextLayer.oneLine(ruleLine.value)) (its dates are not listed here)"]
            }
            // A UNTIL in UTC against a start in a known zone: the same instant on that zone's clock.
            if let until = rule.until, ruleLine.value.uppercased().contains("Z"), !anchor.isDate, let zone = anchor.zone, anchor.label != "UTC" {
                rule.until = until.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: until)))
            }
            // Left out: EXDATEs, and occurrences another component of the same UID replaces.
            var skip = Set<Date>()
            var exceptions: [Date] = []
            for ex in c.all("EXDATE") {
                let dateOnly = ex.parameter("VALUE")?.uppercased() == "DATE"
                for item in ex.value.split(separator: ",") {
                    var one = ex
                    one.value = String(item)
                    guard var m = ICSDocument.moment(one) else { continue }
                    if dateOnly { m.isDate = true }
                    var wall = ICSDocument.wall(m, in: anchor)
                    // A date-only EXDATE on a timed event removes that day's occurrence.
                    if m.isDate, !anchor.isDate {
                        wall = CalendarText.startOfDay(wall).addingTimeInterval(anchor.wall.timeIntervalSince(CalendarText.startOfDay(anchor.wall)))
                    }
                    skip.insert(wall)
                    exceptions.append(wall)
                }
            }
            if let uid = c.first("UID")?.value {
                for rid in replaced[uid] ?? [] {
                    if let m = ICSDocument.moment(rid) { skip.insert(ICSDocument.wall(m, in: anchor)) }
                }
            }
            var lines = ["Repeats: " + ICSDocument.describe(rule, anchor: anchor, exceptions: exceptions)]
            let length = max(0, end(c, start: anchor).map { $0.wall.timeIntervalSince(anchor.wall) } ?? (anchor.isDate ? 86_400 : 0))
            // Now on the clock the event is written in (a floating time's clock is unknown: UTC).
            let nowWall = now.addingTimeInterval(TimeInterval(anchor.zone?.secondsFromGMT(for: now) ?? 0))
            let from = "Next from " + CalendarText.shortDay(nowWall) + ": "
            func upcoming(_ starts: [Date]) -> [Date] {
                starts.filter { !skip.contains($0) && ($0.addingTimeInterval(length) > nowWall || $0 >= nowWall) }
            }
            // Occurrences that end before this one cannot be listed, as next or as last.
            let after = min(nowWall, rule.until ?? nowWall).addingTimeInterval(-length)
            guard let near = expand(rule, from: anchor.wall, to: nowWall.addingTimeInterval(ICSDocument.horizon), after: after) else {
                unexpanded += 1
                return lines
            }
            var next = Array(upcoming(near).prefix(ICSDocument.maximumListed))
            if next.isEmpty, !ended(rule, near, nowWall),
               let far = expand(rule, from: anchor.wall, to: nowWall.addingTimeInterval(ICSDocument.farHorizon), after: after) {
                next = Array(upcoming(far).prefix(1))
            }
            if !next.isEmpty {
                let days = next.map(CalendarText.day)
                lines.append(from + days.joined(separator: ", "))
                listed.append(days.joined(separator: ","))
            } else if let last = near.last(where: { !skip.contains($0) }), last < nowWall {
                lines.append("Last: " + CalendarText.day(last))
            }
            return lines
        }

        /// Whether the rule has no occurrences after those found: its COUNT used, or its UNTIL passed.
        func ended(_ rule: EventRecurrence, _ found: [Date], _ nowWall: Date) -> Bool {
            if let count = rule.count, found.count >= count { return true }
            if let until = rule.until, until < nowWall { return true }
            return false
        }

        /// The rule's starts up to `end` (those before `after` may be left out), or nil when that
        /// would pass the document's budget.
        ///
        /// A daily or weekly rule without COUNT is the same from any start a whole number of its
        /// periods later (wall-clock days are all 24 hours long): it is walked from the last such
        /// start a period before `after`, that start itself left out, since DTSTART always counts
        /// and a moved one might not be an occurrence. A stand-up begun in 2012 then costs a year
        /// of days, not fifteen.
        mutating func expand(_ rule: EventRecurrence, from start: Date, to end: Date, after: Date) -> [Date]? {
            var anchor = start
            var shifted = false
            if rule.count == nil, rule.frequency == .daily || rule.frequency == .weekly {
                let step = Double(rule.interval) * (rule.frequency == .daily ? 86_400 : 7 * 86_400)
                let k = (after.timeIntervalSince(start) / step).rounded(.down) - 1
                if k >= 1, k < 1e9 {
                    anchor = start.addingTimeInterval(k * step)
                    shifted = true
                }
            }
            let period: Double
            switch rule.frequency {
            case .daily: period = 86_400
            case .weekly: period = 7 * 86_400
            case .monthly: period = 28 * 86_400
            case .yearly: period = 365 * 86_400
            }
            let periods = max(0, Int(min(end.timeIntervalSince(anchor) / (period * Double(rule.interval)), 1e9))) + 2
            guard periods <= budget else { return nil }
            budget -= periods
            var starts = rule.starts(from: anchor, before: end, zone: CalendarText.utc, limit: periods + 2)
            if shifted, !starts.isEmpty { starts.removeFirst() }
            return starts
        }
    }

    // MARK: - Words

    /// "Tuesday 12 January 2027, 09:30–10:00 (Europe/London)", "Tuesday 12 January 2027 (all
    /// day)", "Monday 4 January 2027 – Friday 8 January 2027"; the end of an all-day event is
    /// exclusive, as RFC 5545 has it.
    static func span(_ start: Moment, _ end: Moment?, allDay: Bool = true) -> String {
        if start.isDate {
            var last = end.map { $0.isDate ? $0.wall.addingTimeInterval(-86_400) : CalendarText.startOfDay($0.wall) }
            if let l = last, l <= start.wall { last = nil }
            guard let last else { return CalendarText.day(start.wall) + (allDay ? " (all day)" : "") }
            return CalendarText.day(start.wall) + " – " + CalendarText.day(last)
        }
        let zone = start.label.map { " (\($0))" } ?? ""
        let first = CalendarText.day(start.wall) + ", " + CalendarText.time(start.wall)
        guard let end, end.wall > start.wall || end.label != start.label else { return first + zone }
        if end.isDate { return first + zone + " – " + CalendarText.day(end.wall) }
        if end.label != start.label {
            return first + zone + " – " + CalendarText.day(end.wall) + ", " + CalendarText.time(end.wall) + (end.label.map { " (\($0))" } ?? "")
        }
        if CalendarText.startOfDay(end.wall) == CalendarText.startOfDay(start.wall) {
            return first + "\u{2013}" + CalendarText.time(end.wall) + zone
        }
        return first + " – " + CalendarText.day(end.wall) + ", " + CalendarText.time(end.wall) + zone
    }

    /// "every 2 weeks on Monday until 30 June 2027", "every month on the last Friday, 10 times",
    /// "every year on 14 March".
    static func describe(_ rule: EventRecurrence, anchor: Moment, exceptions: [Date]) -> String {
        let c = CalendarText.calendar.dateComponents([.month, .day, .weekday], from: anchor.wall)
        let unit: (String, String)
        switch rule.frequency {
        case .daily: unit = ("day", "days")
        case .weekly: unit = ("week", "weeks")
        case .monthly: unit = ("month", "months")
        case .yearly: unit = ("year", "years")
        }
        var s = rule.interval == 1 ? "every " + unit.0 : "every \(rule.interval) " + unit.1
        let weekdays = rule.byDay.filter { $0.ordinal == nil }.map { CalendarText.weekdays[$0.weekday - 1] }
        let ordinals = rule.byDay.filter { $0.ordinal != nil }.map { "the " + ordinal($0.ordinal!) + " " + CalendarText.weekdays[$0.weekday - 1] }
        let monthDays = rule.byMonthDay.map { $0 > 0 ? "the " + nth($0) : $0 == -1 ? "the last day" : "the " + ordinal($0) + " day" }
        let months = rule.byMonth.map { CalendarText.months[$0 - 1] }
        switch rule.frequency {
        case .daily:
            if Set(rule.byDay.map(\.weekday)) == Set(2...6), rule.byDay.count == 5, rule.interval == 1 { s = "every weekday" } else if !weekdays.isEmpty { s += " on " + words(weekdays) }
        case .weekly:
            s += " on " + words(weekdays.isEmpty ? [CalendarText.weekdays[c.weekday! - 1]] : weekdays)
        case .monthly:
            let days = ordinals + monthDays + (weekdays.isEmpty ? [] : ["every " + words(weekdays)])
            s += " on " + (days.isEmpty ? "the " + nth(c.day!) : words(days))
        case .yearly:
            let days = ordinals + monthDays + (weekdays.isEmpty ? [] : ["every " + words(weekdays)])
            if days.isEmpty {
                let ms = months.isEmpty ? [CalendarText.months[c.month! - 1]] : months
                s += " on " + words(ms.map { "\(c.day!) \($0)" })
            } else {
                s += " on " + words(days) + (months.isEmpty ? "" : " in " + words(months))
            }
        }
        if rule.frequency != .yearly, !months.isEmpty { s += " in " + words(months) }
        if let count = rule.count { s += count == 1 ? ", once" : ", \(count) times" }
        if let until = rule.until { s += " until " + CalendarText.shortDay(until) }
        if !exceptions.isEmpty {
            let shown = exceptions.sorted().prefix(3).map(CalendarText.shortDay)
            s += ", except " + words(Array(shown)) + (exceptions.count > 3 ? " and \(exceptions.count - 3) other dates" : "")
        }
        return s
    }

    static func words(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// "first", "second", "last", "second to last".
    static func ordinal(_ n: Int) -> String {
        let names = ["first", "second", "third", "fourth", "fifth"]
        if n == -1 { return "last" }
        if n < 0 { return (n >= -5 ? names[-n - 1] : "\(-n)th") + " to last" }
        return n <= 5 ? names[n - 1] : "\(n)th"
    }

    /// "1st", "2nd", "23rd", "11th".
    static func nth(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// An ORGANIZER or ATTENDEE as a name: its CN, else its address without "mailto:".
    static func person(_ p: ContentLine) -> String? {
        if let cn = p.parameter("CN").map(TextLayer.oneLine), !cn.isEmpty { return cn }
        var v = p.text.trimmingCharacters(in: .whitespaces)
        if v.lowercased().hasPrefix("mailto:") { v = String(v.dropFirst(7)) }
        return v.isEmpty ? nil : TextLayer.oneLine(v)
    }

    /// A value written over several lines (an address) as one line, its lines joined by commas.
    static func commaLines(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { TextLayer.oneLine(String($0)).trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }
            .filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
