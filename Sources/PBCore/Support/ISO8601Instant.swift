import Foundation

/// ISO 8601 instants as the programs take them from options and the environment (`--now`,
/// `PB_NOW`). Read by hand, so no locale or formatter setting can change what is accepted.
public enum ISO8601Instant {
    /// Reads `2026-11-29`, `2026-11-29T10:00`, `2026-11-29T10:00:00.5Z`, `2026-11-29 10:00:00+01:00`
    /// (a space may stand for the T). Without an offset the wall time is in `zone`; nil for
    /// anything else, and for a date that does not exist (2027-02-29).
    public static func parse(_ text: String, zone defaultZone: TimeZone) -> Date? {
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
        var zone = defaultZone
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
}
