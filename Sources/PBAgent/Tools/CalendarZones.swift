import CICU
import Foundation

/// The time zones an .ics file's dates are written in.
///
/// `DTSTART;TZID=Europe/Berlin:20240312T190000` is 19:00 in Berlin whatever zone the reader is
/// in; taking it in the reader's zone would put a meeting an hour or more off for anyone
/// travelling, or for a calendar shared across zones. A TZID is resolved, in order:
/// - as an IANA name ("Europe/Berlin"), also under a vendor prefix
///   ("/mozilla.org/20050126_1/Europe/Berlin", "/citadel.org/20190914_1/Europe/London");
/// - through the file's VTIMEZONE of that TZID, when it names its location
///   (`X-LIC-LOCATION`, as Thunderbird writes it);
/// - as a Windows zone name ("W. Europe Standard Time", as Outlook and Exchange write it), with
///   ICU's table;
/// - else the reader's zone, and the TZID is listed in `unresolved` (a VTIMEZONE's own rules
///   are not evaluated).
public struct CalendarZones {
    public let fallback: TimeZone
    /// TZID -> location named by the file's VTIMEZONE.
    var locations: [String: String] = [:]
    var cache: [String: TimeZone] = [:]
    /// TZIDs that named no zone this reader knows, in order of first use.
    public private(set) var unresolved: [String] = []

    /// Zones for the file `properties` come from (its VTIMEZONE components are read here).
    public init(fallback: TimeZone, properties: [ICalendarFile.Property]) {
        self.fallback = fallback
        var inZone = false
        var tzid: String?
        for p in properties {
            if p.name == "BEGIN", p.value.uppercased() == "VTIMEZONE" { inZone = true; tzid = nil; continue }
            if p.name == "END", p.value.uppercased() == "VTIMEZONE" { inZone = false; continue }
            guard inZone else { continue }
            if p.name == "TZID" { tzid = Self.unquoted(p.value) }
            if p.name == "X-LIC-LOCATION", let tzid { locations[tzid] = p.value.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The zone a date property is written in: its TZID's, or the fallback.
    public mutating func zone(of p: ICalendarFile.Property) -> TimeZone {
        guard let raw = p.params["TZID"] else { return fallback }
        let tzid = Self.unquoted(raw)
        if let z = cache[tzid] { return z }
        let z = resolve(tzid)
        if z == nil, !unresolved.contains(tzid) { unresolved.append(tzid) }
        cache[tzid] = z ?? fallback
        return z ?? fallback
    }

    func resolve(_ tzid: String) -> TimeZone? {
        if let z = Self.iana(tzid) { return z }
        if let location = locations[tzid], let z = Self.iana(location) { return z }
        return Self.windows(tzid)
    }

    /// An IANA name, whole or as the last one or two parts of a prefixed path.
    static func iana(_ name: String) -> TimeZone? {
        if let z = TimeZone(identifier: name) { return z }
        let parts = name.split(separator: "/").map(String.init)
        for k in [3, 2, 1] where parts.count > k || (parts.count == k && name.hasPrefix("/")) {
            let tail = parts.suffix(k).joined(separator: "/")
            // A bare "GMT" or "UTC" is fine; other single words are not zone names on their own.
            if k == 1, !["UTC", "GMT"].contains(tail) { continue }
            if let z = TimeZone(identifier: tail) { return z }
        }
        return nil
    }

    static func windows(_ name: String) -> TimeZone? {
        var out = [CChar](repeating: 0, count: 128)
        let n = name.withCString { pb_icu_zone_for_windows_name($0, &out, Int32(out.count)) }
        guard n > 0 else { return nil }
        let id = out.prefix(Int(n)).map { String(UnicodeScalar(UInt8(bitPattern: $0))) }.joined()
        return TimeZone(identifier: id)
    }

    static func unquoted(_ s: String) -> String {
        var t = s.trimmingCharacters(in: .whitespaces)
        if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") { t = String(t.dropFirst().dropLast()) }
        return t
    }
}
