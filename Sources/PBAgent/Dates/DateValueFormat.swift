import Foundation

/// How pb-date writes and reads instants: ISO 8601 with the offset of the time zone
/// (`2026-11-30T09:00:00+00:00`), or a calendar date (`2026-11-30`) for day and coarser grains.
/// Written by hand from calendar components so no locale or formatter setting can change a byte.
public struct DateValueFormat: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        calendar = c
    }

    public func date(_ d: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    public func instant(_ d: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
        let offset = timeZone.secondsFromGMT(for: d)
        let sign = offset < 0 ? "-" : "+"
        let a = abs(offset) / 60
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!,
                      sign, a / 60, a % 60)
    }

    /// A value as pb-date writes it for a grain: a date for day and coarser grains, else an instant.
    public func value(_ d: Date, grain: DateGrain) -> String {
        grain.isCalendarDate ? date(d) : instant(d)
    }

    /// The written end of a range: for calendar grains the last day it includes (so "next week" is
    /// Monday to Sunday), for parts of the day the exclusive end instant.
    public func end(_ end: Date, grain: DateGrain) -> String {
        grain.isCalendarDate ? date(calendar.date(byAdding: .day, value: -1, to: end)!) : instant(end)
    }

    /// Reads `2026-11-29`, `2026-11-29T10:00`, `2026-11-29T10:00:00.5Z`, `2026-11-29 10:00:00+01:00`
    /// (a space may stand for the T). Without an offset the wall time is in this time zone.
    public func parseInstant(_ text: String) -> Date? {
        let s = Array(text.utf8)
        var i = 0
        func num(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in 0..<n {
                let b = s[i + k]
                guard b >= 48, b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            i += n
            return v
        }
        func take(_ ch: Character) -> Bool {
            guard i < s.count, s[i] == ch.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let y = num(4), take("-"), let mo = num(2), take("-"), let d = num(2) else { return nil }
        var c = DateComponents(year: y, month: mo, day: d, hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        if i < s.count {
            guard take("T") || take("t") || take(" "), let h = num(2), take(":"), let mi = num(2) else { return nil }
            c.hour = h
            c.minute = mi
            if take(":") {
                guard let sec = num(2) else { return nil }
                c.second = sec
                if take(".") {
                    var digits = ""
                    while i < s.count, s[i] >= 48, s[i] <= 57 { digits.append(Character(UnicodeScalar(s[i]))); i += 1 }
                    guard !digits.isEmpty else { return nil }
                    fraction = Double("0." + digits) ?? 0
                }
            }
            guard h < 24, mi < 60, (c.second ?? 0) < 60 else { return nil }
        }
        var zone = timeZone
        if i < s.count {
            if take("Z") || take("z") {
                zone = TimeZone(secondsFromGMT: 0)!
            } else {
                let negative = take("-")
                guard negative || take("+"), let oh = num(2) else { return nil }
                _ = take(":")
                let om = num(2) ?? 0
                guard oh < 24, om < 60, let z = TimeZone(secondsFromGMT: (negative ? -1 : 1) * (oh * 3600 + om * 60)) else { return nil }
                zone = z
            }
        }
        guard i == s.count else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        // Reject dates that do not exist rather than letting the calendar roll them over.
        guard let date = cal.date(from: c), cal.dateComponents([.year, .month, .day], from: date) == DateComponents(year: y, month: mo, day: d) else { return nil }
        return date.addingTimeInterval(fraction)
    }

    /// A time zone from an IANA name ("Europe/Lisbon"), "UTC", or an offset ("+02:00", "-0530").
    public static func timeZone(named name: String) -> TimeZone? {
        let n = name.hasPrefix(":") ? String(name.dropFirst()) : name
        if n == "UTC" || n == "Z" || n == "GMT" { return TimeZone(secondsFromGMT: 0) }
        if let first = n.first, first == "+" || first == "-" {
            let digits = n.dropFirst().filter { $0 != ":" }
            guard digits.count == 2 || digits.count == 4, let v = Int(digits) else { return nil }
            let (h, m) = digits.count == 2 ? (v, 0) : (v / 100, v % 100)
            guard h < 24, m < 60 else { return nil }
            return TimeZone(secondsFromGMT: (first == "-" ? -1 : 1) * (h * 3600 + m * 60))
        }
        return TimeZone(identifier: n)
    }
}
