import Foundation

/// Dates and times of calendar and contact files, read from their basic ISO 8601 form
/// (`20270112`, `20270112T093000`, `20270112T093000Z`) and written out in words
/// ("Tuesday 12 January 2027", "09:30").
///
/// A value is kept as its wall-clock reading: a `Date` whose UTC calendar fields are the fields as
/// written, whatever zone the file names. Times are shown as written, in the zone the file gives
/// (TZID, or UTC for a trailing Z), never converted; arithmetic on them (an end from a DURATION,
/// the occurrences of a repeat rule) is wall-clock arithmetic, which keeps a 09:00 meeting at
/// 09:00 across a daylight-saving change, as calendar programs do. English names, whatever the
/// locale, so that no setting changes a byte of the text layer.
enum CalendarText {
    static let utc = TimeZone(secondsFromGMT: 0)!
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = utc
        return c
    }()
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// A date or date-time value: its wall-clock reading and whether it is a date only. Nil when
    /// it is neither, or names a day that does not exist (31 June).
    static func parse(_ raw: String, dateOnly: Bool = false) -> (wall: Date, isDate: Bool, utc: Bool)? {
        let v = raw.trimmingCharacters(in: .whitespaces)
        let u = Array(v.utf8)
        func digits(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= u.count else { return nil }
            var n = 0
            for k in r {
                guard u[k] >= 0x30, u[k] <= 0x39 else { return nil }
                n = n * 10 + Int(u[k] - 0x30)
            }
            return n
        }
        guard let y = digits(0..<4), let m = digits(4..<6), let d = digits(6..<8), y >= 1 else { return nil }
        var hour = 0, minute = 0, second = 0
        let isDate = dateOnly || u.count == 8
        if !isDate {
            guard u.count >= 15, u[8] == UInt8(ascii: "T"), let h = digits(9..<11), let mi = digits(11..<13), let s = digits(13..<15),
                  u.count == 15 || (u.count == 16 && (u[15] == UInt8(ascii: "Z") || u[15] == UInt8(ascii: "z"))),
                  h < 24, mi < 60, s <= 60 else { return nil }
            (hour, minute, second) = (h, mi, min(s, 59))
        } else if u.count != 8, !(u.count > 8 && u[8] == UInt8(ascii: "T")) {
            return nil
        }
        guard let wall = date(y, m, d, hour, minute, second) else { return nil }
        return (wall, isDate, !isDate && u.count == 16)
    }

    /// The wall-clock date of these fields; nil for a day that does not exist.
    static func date(_ y: Int, _ m: Int, _ d: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date? {
        guard (1...12).contains(m), (1...31).contains(d), (1...9999).contains(y) else { return nil }
        guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: hour, minute: minute, second: second)) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        return back.year == y && back.month == m && back.day == d ? date : nil
    }

    /// "Tuesday 12 January 2027".
    static func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        return "\(weekdays[c.weekday! - 1]) \(c.day!) \(months[c.month! - 1]) \(c.year!)"
    }

    /// "12 January 2027".
    static func shortDay(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return "\(c.day!) \(months[c.month! - 1]) \(c.year!)"
    }

    /// "09:30".
    static func time(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour!, c.minute!)
    }

    /// The start of the wall-clock day.
    static func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// `PT1H30M`, `P1D`, `P2W`, `-PT15M` in seconds (RFC 5545 3.3.6); nil for anything else.
    static func duration(_ text: String) -> TimeInterval? {
        var sign: Double = 1
        var s = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        if s.hasPrefix("-") { sign = -1; s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        guard s.hasPrefix("P"), s.count < 64 else { return nil }
        s = s.dropFirst()
        var total: Double = 0
        var number = ""
        var inTime = false
        var any = false
        for ch in s {
            if ch == "T", !inTime, number.isEmpty { inTime = true; continue }
            if ch.isASCII, ch.isNumber { number.append(ch); continue }
            guard let n = Double(number) else { return nil }
            number = ""
            any = true
            switch (ch, inTime) {
            case ("W", false): total += n * 604_800
            case ("D", false): total += n * 86_400
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
        }
        return number.isEmpty && any ? sign * total : nil
    }

    /// A vCard date (BDAY, ANNIVERSARY) in words: 3.0's `1980-03-14` or `19800314` (perhaps with
    /// a time after "T"), 4.0's `--0314` or `--03-14` for a day without its year ("14 March").
    /// Anything else (4.0 allows text: "circa 1800") is kept as written.
    static func contactDate(_ raw: String) -> String {
        let v = raw.trimmingCharacters(in: .whitespaces)
        let day = v.split(separator: "T", maxSplits: 1).first.map(String.init) ?? v
        let digits = day.filter { $0.isASCII && $0.isNumber }
        let shape = day.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "-" }
        if shape, day.hasPrefix("--"), digits.count == 4, let m = Int(digits.prefix(2)), let d = Int(digits.suffix(2)),
           (1...12).contains(m), (1...31).contains(d), date(2000, m, d) != nil {
            return "\(d) \(months[m - 1])"
        }
        if shape, !day.hasPrefix("-"), digits.count == 8, let y = Int(digits.prefix(4)), let m = Int(digits.dropFirst(4).prefix(2)),
           let d = Int(digits.suffix(2)), let date = date(y, m, d) {
            return shortDay(date)
        }
        return v
    }
}
