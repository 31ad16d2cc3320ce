import Foundation
import PBCore

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
        ISO8601Instant.parse(text, zone: timeZone)
    }

    /// The local zone: `TZ` read as `timeZone(named:)` reads it (POSIX "UTC+2" two hours behind
    /// UTC), else the machine's; one reading for every program.
    public static func localTimeZone(environment: [String: String] = ProcessInfo.processInfo.environment) -> TimeZone {
        if let name = environment["TZ"], !name.isEmpty, let z = timeZone(named: name) { return z }
        return systemTimeZone()
    }

    /// The machine's zone, as date(1) reads it without `TZ`: the zone `/etc/localtime` links to,
    /// else Foundation's idea of it (a copied zone file), else UTC.
    public static func systemTimeZone(localtime: String = "/etc/localtime") -> TimeZone {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
           let r = target.range(of: "zoneinfo/"), let z = TimeZone(identifier: String(target[r.upperBound...])) {
            return z
        }
        return FileManager.default.fileExists(atPath: localtime) ? TimeZone.current : TimeZone(secondsFromGMT: 0)!
    }

    /// "UTC+2", "GMT-3", "<+0530>-5:30": a POSIX zone of a name and an offset.
    static let posixOffset = try! NSRegularExpression(pattern: #"(?:UTC|GMT|<[+-]?[A-Za-z0-9]+>)([+-]?)(\d{1,2})(?::(\d\d))?"#, options: [.caseInsensitive])

    /// A time zone from an IANA name ("Europe/Lisbon"), "UTC", an offset ("+02:00", "-0530"), or
    /// a POSIX "UTC+2" or "GMT-3", read as date(1) and the C library read it: the hours to add to
    /// the local time to get UTC, so "UTC+2" is two hours behind UTC (as IANA's Etc/GMT+2 is).
    public static func timeZone(named name: String) -> TimeZone? {
        let n = name.hasPrefix(":") ? String(name.dropFirst()) : name
        if n == "UTC" || n == "Z" || n == "GMT" { return TimeZone(secondsFromGMT: 0) }
        let whole = NSRange(location: 0, length: (n as NSString).length)
        if let m = posixOffset.firstMatch(in: n, range: whole), m.range == whole {
            let group = { (i: Int) -> String in m.range(at: i).location == NSNotFound ? "" : (n as NSString).substring(with: m.range(at: i)) }
            guard let h = Int(group(2)), h <= 24 else { return nil }
            let minutes = Int(group(3)) ?? 0
            guard minutes < 60 else { return nil }
            return TimeZone(secondsFromGMT: (group(1) == "-" ? 1 : -1) * (h * 3600 + minutes * 60))
        }
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
