import Foundation
import PBDates

/// The instant a plan runs at and the zone its "today" is counted in: the offset of the plan's
/// `now` (a plan made for 19:00+01:00 means days in UTC+1), else the process's time zone.
public struct AgentClock: Sendable {
    public var now: Date
    public var zone: TimeZone

    public init(now: Date, zone: TimeZone) {
        self.now = now
        self.zone = zone
    }

    /// The clock of a plan's `now` text; nil text means the current time in the local zone. A
    /// time written without an offset is a wall time in the local zone, as pb-plan and pb-date
    /// read one.
    public init(text: String?, local: TimeZone = DateValueFormat.localTimeZone()) throws {
        guard let text else {
            self.init(now: Date(), zone: local)
            return
        }
        guard let m = ISOMoment.parse(text, zone: local), !m.dateOnly else {
            throw AgentError.badArgument("now", "expected an ISO 8601 date and time such as 2026-11-29T18:00:00Z, got '\(text)'")
        }
        self.init(now: m.date, zone: m.offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? local)
    }

    public var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        c.firstWeekday = 2
        return c
    }

    /// Today as `YYYY-MM-DD` in the clock's zone.
    public var today: String { ISOMoment.dayString(now, zone: zone) }

    /// Timestamps written to the store: UTC, whole seconds.
    public var stamp: String { ISOMoment.format(now, zone: TimeZone(secondsFromGMT: 0)!) }
}

/// A date (`2026-11-28`) or an instant (`2026-11-29T19:00:00Z`, with an offset or floating) as
/// tasks carry them. Impossible dates are rejected, never rolled over.
public struct ISOMoment: Sendable, Equatable {
    public var date: Date
    public var dateOnly: Bool
    /// The offset written in the text, in seconds; nil for floating times and dates.
    public var offset: Int?
    /// The canonical text: the date, or the instant with seconds and its offset (`Z` for UTC).
    public var text: String

    public static func parse(_ raw: String, zone: TimeZone) -> ISOMoment? {
        let s = Array(raw.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var n = 0
            for b in s[from..<(from + count)] {
                guard b >= 48, b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard s.count >= 10, let y = number(0, 4), s[4] == 45, let mo = number(5, 2), s[7] == 45, let d = number(8, 2) else { return nil }
        var hour = 0, minute = 0, second = 0
        var offset: Int?
        var i = 10
        let dateOnly = s.count == 10
        if !dateOnly {
            guard s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: " "), let h = number(11, 2), s.count > 13, s[13] == 58, let mi = number(14, 2) else { return nil }
            hour = h; minute = mi
            i = 16
            if i < s.count, s[i] == 58 {
                guard let sec = number(i + 1, 2) else { return nil }
                second = sec
                i += 3
                if i < s.count, s[i] == UInt8(ascii: ".") {
                    i += 1
                    while i < s.count, s[i] >= 48, s[i] <= 57 { i += 1 }
                }
            }
            if i < s.count {
                if s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z") {
                    offset = 0; i += 1
                } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                    let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                    guard let oh = number(i + 1, 2) else { return nil }
                    var om = 0
                    if i + 3 < s.count, s[i + 3] == 58 {
                        guard let m = number(i + 4, 2) else { return nil }
                        om = m; i += 6
                    } else if let m = number(i + 3, 2) {
                        om = m; i += 5
                    } else {
                        i += 3
                    }
                    guard oh < 24, om < 60 else { return nil }
                    offset = sign * (oh * 3600 + om * 60)
                } else { return nil }
            }
            guard i == s.count, hour < 24, minute < 60, second < 61 else { return nil }
        }
        guard (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? zone
        let comps = DateComponents(year: y, month: mo, day: d, hour: hour, minute: minute, second: min(second, 59))
        guard let date = cal.date(from: comps) else { return nil }
        // Round trip: "Feb 30" would come back as March 2nd.
        let back = cal.dateComponents([.year, .month, .day], from: date)
        guard back.year == y, back.month == mo, back.day == d else { return nil }
        if dateOnly {
            return ISOMoment(date: date, dateOnly: true, offset: nil, text: String(format: "%04d-%02d-%02d", y, mo, d))
        }
        let textZone = cal.timeZone
        return ISOMoment(date: date, dateOnly: false, offset: offset, text: format(date, zone: textZone))
    }

    /// `YYYY-MM-DDTHH:MM:SS` and the zone's offset (`Z` when zero).
    public static func format(_ date: Date, zone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let off = zone.secondsFromGMT(for: date)
        let z = off == 0 ? "Z" : String(format: "%@%02d:%02d", off < 0 ? "-" : "+", abs(off) / 3600, abs(off) % 3600 / 60)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!) + z
    }

    public static func dayString(_ date: Date, zone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// The day this moment falls on in `zone` (a date is its own day).
    public func day(in zone: TimeZone) -> String {
        dateOnly ? text : Self.dayString(date, zone: zone)
    }

    /// The moment moved by calendar units in `zone`, keeping its form (a date stays a date).
    public func adding(_ component: Calendar.Component, _ value: Int, zone: TimeZone) -> ISOMoment {
        var cal = Calendar(identifier: .gregorian)
        let textZone = dateOnly ? zone : (offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? zone)
        cal.timeZone = textZone
        let moved = cal.date(byAdding: component, value: value, to: date) ?? date
        if dateOnly {
            return ISOMoment(date: moved, dateOnly: true, offset: nil, text: Self.dayString(moved, zone: textZone))
        }
        return ISOMoment(date: moved, dateOnly: false, offset: offset, text: Self.format(moved, zone: textZone))
    }
}
