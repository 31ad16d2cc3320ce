import Foundation

/// Free stretches of working time around busy events: the arithmetic of `find_slot`, kept apart
/// so it can be tested without files.
public struct FreeTime: Sendable {
    /// Working hours as minutes after midnight, `[start, end)`.
    public var start: Int
    public var end: Int
    /// Whether Saturday and Sunday are working days.
    public var weekends: Bool
    public var zone: TimeZone

    public init(start: Int = 9 * 60, end: Int = 17 * 60, weekends: Bool = false, zone: TimeZone) {
        self.start = start
        self.end = end
        self.weekends = weekends
        self.zone = zone
    }

    /// "09:00-17:30" (as in `PB_WORK_HOURS`) as minutes after midnight, or nil.
    public static func hours(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let a = minutes(parts[0]), let b = minutes(parts[1]), a < b else { return nil }
        return (a, b)
    }

    static func minutes(_ hhmm: String) -> Int? {
        let p = hhmm.split(separator: ":")
        guard p.count == 2, let h = Int(p[0]), let m = Int(p[1]), (0...24).contains(h), (0..<60).contains(m), h * 60 + m <= 1440 else { return nil }
        return h * 60 + m
    }

    var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        return c
    }

    /// The working window of the day that starts at `day` (midnight in `zone`), nil on a day off.
    /// Built from the wall clock, so a daylight-saving change keeps 09:00 at 09:00.
    public func window(_ day: Date) -> DateInterval? {
        let cal = calendar
        let weekday = cal.component(.weekday, from: day)
        if !weekends, weekday == 1 || weekday == 7 { return nil }
        func at(_ minutes: Int) -> Date {
            if minutes >= 1440 { return cal.date(byAdding: .day, value: 1, to: cal.startOfDay(for: day))! }
            return cal.date(bySettingHour: minutes / 60, minute: minutes % 60, second: 0, of: day)!
        }
        return DateInterval(start: at(start), end: at(end))
    }

    /// Every free stretch of at least `minutes` in the working windows of `days` (midnights),
    /// none before `notBefore`, around the `busy` intervals, in time order.
    public func stretches(days: [Date], busy: [DateInterval], minutes: Int, notBefore: Date) -> [DateInterval] {
        let taken = busy.sorted { $0.start < $1.start }
        var out: [DateInterval] = []
        for day in days {
            guard let w = window(day), w.end > notBefore else { continue }
            // From now, the next quarter hour: a slot at 10:07 is of no use to anyone.
            let q = 900.0
            let from = Date(timeIntervalSinceReferenceDate: (notBefore.timeIntervalSinceReferenceDate / q).rounded(.up) * q)
            var cursor = max(w.start, from)
            for b in taken where b.end > cursor && b.start < w.end {
                if b.start > cursor, b.start.timeIntervalSince(cursor) >= Double(minutes * 60) {
                    out.append(DateInterval(start: cursor, end: b.start))
                }
                cursor = max(cursor, b.end)
            }
            if w.end.timeIntervalSince(cursor) >= Double(minutes * 60) { out.append(DateInterval(start: cursor, end: w.end)) }
        }
        return out
    }
}
