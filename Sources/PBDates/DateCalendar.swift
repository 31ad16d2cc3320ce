import Foundation

/// Calendar arithmetic in one time zone with one week start: the only place that builds dates.
struct DateCalendar {
    let calendar: Calendar
    let now: Date
    let weekStart: Weekday
    /// Midnight at the start of `now`'s day.
    let today: Date

    init(now: Date, timeZone: TimeZone, weekStart: Weekday) {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        c.firstWeekday = weekStart.rawValue
        c.minimumDaysInFirstWeek = 1
        calendar = c
        self.now = now
        self.weekStart = weekStart
        today = c.startOfDay(for: now)
    }

    func startOfDay(_ d: Date) -> Date { calendar.startOfDay(for: d) }

    func adding(_ n: Int, _ unit: Calendar.Component, to d: Date) -> Date {
        calendar.date(byAdding: unit, value: n, to: d) ?? d
    }

    func day(_ d: Date, plus n: Int) -> Date { adding(n, .day, to: d) }

    func weekday(_ d: Date) -> Weekday { Weekday(rawValue: calendar.component(.weekday, from: d))! }

    /// Days from `d` forward to the next `target` (0 when `d` is one).
    func daysUntil(_ target: Weekday, from d: Date) -> Int {
        (target.rawValue - weekday(d).rawValue + 7) % 7
    }

    /// The first day of the week holding `d`, per the week start.
    func startOfWeek(_ d: Date) -> Date {
        let back = (weekday(d).rawValue - weekStart.rawValue + 7) % 7
        return day(startOfDay(d), plus: -back)
    }

    func startOfMonth(_ d: Date) -> Date {
        calendar.date(from: calendar.dateComponents([.year, .month], from: d))!
    }

    /// The first day of the quarter (January, April, July or October) that holds `d`.
    func startOfQuarter(_ d: Date) -> Date {
        let month = calendar.component(.month, from: d)
        return date(year: year(d), month: (month - 1) / 3 * 3 + 1, day: 1)!
    }

    func startOfYear(_ d: Date) -> Date {
        calendar.date(from: calendar.dateComponents([.year], from: d))!
    }

    func components(_ d: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
    }

    func year(_ d: Date) -> Int { calendar.component(.year, from: d) }

    func daysInMonth(year: Int, month: Int) -> Int {
        let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
        return calendar.range(of: .day, in: .month, for: first)!.count
    }

    /// Midnight of a calendar date, or nil if the date does not exist (never rolled over).
    func date(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// A wall-clock time on a day, read in `zone` when one is named ("3pm PST" on the user's
    /// Thursday is 3pm in Pacific time that Thursday); hour 24 is midnight at the end of that day.
    func at(_ d: Date, hour: Int, minute: Int, in zone: TimeZone?) -> Date {
        guard let zone else { return at(d, hour: hour, minute: minute) }
        var other = Calendar(identifier: .gregorian)
        other.timeZone = zone
        let ymd = calendar.dateComponents([.year, .month, .day], from: startOfDay(d))
        let base = other.date(from: ymd) ?? d
        if hour >= 24 { return other.date(byAdding: .minute, value: minute, to: other.date(byAdding: .day, value: 1, to: base)!) ?? base }
        return other.date(bySettingHour: hour, minute: minute, second: 0, of: base) ?? base
    }

    /// A wall-clock time on a day; hour 24 is midnight at the end of that day.
    func at(_ d: Date, hour: Int, minute: Int) -> Date {
        let base = startOfDay(d)
        if hour >= 24 { return adding(minute, .minute, to: day(base, plus: 1)) }
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: base) ?? base
    }
}
