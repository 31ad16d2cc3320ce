import Foundation

/// An iCalendar repeat rule (RFC 5545 section 3.3.10) as calendars write it for meetings and
/// birthdays: FREQ DAILY, WEEKLY, MONTHLY or YEARLY with INTERVAL, COUNT or UNTIL, BYDAY (weekdays;
/// with an ordinal such as 2TU or -1FR in a monthly rule), BYMONTHDAY (negative counts from the
/// month's end), BYMONTH and WKST. Occurrences keep the first one's wall-clock time in the
/// calendar's zone, across daylight-saving changes. Dates a month lacks (31 June, 29 February in
/// most years) are skipped, never rolled over, as the RFC says. Parts it does not know
/// (BYSETPOS, BYHOUR, BYWEEKNO, ...) make the rule unreadable: the event then stands alone
/// rather than repeat wrongly.
///
/// In PBText, not PBAgent, because two readers expand it: the agent's calendar tools (free slots,
/// the brief) and the calendar document reader (`ICSDocument`, the next occurrences it lists).
public struct EventRecurrence: Equatable, Sendable {
    public enum Frequency: String, Sendable { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    /// A weekday (1 Sunday ... 7 Saturday, as Calendar counts) with an optional ordinal in the month.
    public struct Day: Equatable, Sendable {
        public var weekday: Int
        public var ordinal: Int?
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: Date?
    public var byDay: [Day] = []
    public var byMonthDay: [Int] = []
    public var byMonth: [Int] = []
    public var weekStart = 2

    static let weekdays = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]

    /// Reads `FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`; nil for anything it cannot follow exactly.
    public init?(_ text: String, zone: TimeZone) {
        var frequency: Frequency?
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            guard kv.count == 2 else { return nil }
            let (key, value) = (kv[0], kv[1])
            switch key {
            case "FREQ": frequency = Frequency(rawValue: value)
            // Bounded, so that a period's number times the interval cannot overflow (a rule with
            // INTERVAL=9223372036854775807 trapped at its second period).
            case "INTERVAL": guard let n = Int(value), (1...10_000).contains(n) else { return nil }; interval = n
            case "COUNT": guard let n = Int(value), n >= 1 else { return nil }; count = n
            case "UNTIL":
                guard let date = Self.untilDate(value, zone: zone) else { return nil }
                // A date-only UNTIL includes that whole day.
                until = value.contains("T") ? date : date.addingTimeInterval(86_399)
            case "BYDAY":
                for item in value.split(separator: ",") {
                    let code = String(item.suffix(2))
                    let number = item.dropLast(2)
                    guard let weekday = Self.weekdays[code] else { return nil }
                    if number.isEmpty {
                        byDay.append(Day(weekday: weekday, ordinal: nil))
                    } else {
                        guard let n = Int(number), n != 0, abs(n) <= 5 else { return nil }
                        byDay.append(Day(weekday: weekday, ordinal: n))
                    }
                }
            case "BYMONTHDAY":
                for item in value.split(separator: ",") {
                    guard let n = Int(item), n != 0, abs(n) <= 31 else { return nil }
                    byMonthDay.append(n)
                }
            case "BYMONTH":
                for item in value.split(separator: ",") {
                    guard let n = Int(item), (1...12).contains(n) else { return nil }
                    byMonth.append(n)
                }
            case "WKST": guard let d = Self.weekdays[value] else { return nil }; weekStart = d
            default: return nil
            }
        }
        guard let frequency else { return nil }
        self.frequency = frequency
        // Ordinals belong to monthly (and yearly-by-month) rules only.
        if byDay.contains(where: { $0.ordinal != nil }) && !(frequency == .monthly || (frequency == .yearly && !byMonth.isEmpty)) { return nil }
        if frequency == .weekly && !byMonthDay.isEmpty { return nil }
    }

    /// UNTIL's value: `20261204`, `20261204T073000`, or `20261204T073000Z` (in UTC, else in `zone`).
    static func untilDate(_ value: String, zone: TimeZone) -> Date? {
        let digits = value.filter(\.isNumber)
        guard digits.count >= 8, let y = Int(digits.prefix(4)), let m = Int(digits.dropFirst(4).prefix(2)), let d = Int(digits.dropFirst(6).prefix(2)) else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = value.hasSuffix("Z") ? TimeZone(secondsFromGMT: 0)! : zone
        var comps = DateComponents(year: y, month: m, day: d)
        if value.contains("T"), digits.count >= 12 {
            comps.hour = Int(digits.dropFirst(8).prefix(2))
            comps.minute = Int(digits.dropFirst(10).prefix(2))
            comps.second = digits.count >= 14 ? Int(digits.dropFirst(12).prefix(2)) : 0
        }
        return cal.date(from: comps)
    }

    /// The start of every occurrence that begins before `end`, in order, the first being `start`
    /// itself (DTSTART always counts, as RFC 5545 says). COUNT counts from the first occurrence,
    /// not from the window; `limit` bounds the work for an endless rule.
    public func starts(from start: Date, before end: Date, zone: TimeZone, limit: Int = 100_000) -> [Date] {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let time = cal.dateComponents([.hour, .minute, .second], from: start)
        let first = cal.dateComponents([.year, .month, .day, .weekday], from: start)
        var out: [Date] = [start]
        var emitted = 1
        func done(_ d: Date) -> Bool {
            if let count, emitted >= count { return true }
            if let until, d > until { return true }
            return d >= end
        }
        func at(_ y: Int, _ m: Int, _ d: Int) -> Date? {
            // Invalid dates are skipped: Calendar would roll 31 June over to 1 July.
            var c = DateComponents(year: y, month: m, day: d, hour: time.hour, minute: time.minute, second: time.second)
            c.timeZone = zone
            guard let date = cal.date(from: c) else { return nil }
            let back = cal.dateComponents([.year, .month, .day], from: date)
            return back.year == y && back.month == m && back.day == d ? date : nil
        }
        var period = 0
        var periodsWithout = 0
        while period < limit {
            var candidates: [Date] = []
            switch frequency {
            case .daily:
                guard let day = cal.date(byAdding: .day, value: period * interval, to: start) else { return out }
                let c = cal.dateComponents([.year, .month, .day, .weekday], from: day)
                if (byMonth.isEmpty || byMonth.contains(c.month!)) && (byDay.isEmpty || byDay.contains { $0.weekday == c.weekday! }),
                   let d = at(c.year!, c.month!, c.day!) { candidates = [d] }
            case .weekly:
                // The week holding DTSTART, counted from WKST, then every `interval` weeks.
                let back = (first.weekday! - weekStart + 7) % 7
                guard let weekOne = cal.date(byAdding: .day, value: -back + period * interval * 7, to: start) else { return out }
                let days = byDay.isEmpty ? [first.weekday!] : byDay.map(\.weekday)
                for offset in 0..<7 {
                    guard let day = cal.date(byAdding: .day, value: offset, to: weekOne) else { continue }
                    let c = cal.dateComponents([.year, .month, .day, .weekday], from: day)
                    if days.contains(c.weekday!), byMonth.isEmpty || byMonth.contains(c.month!), let d = at(c.year!, c.month!, c.day!) {
                        candidates.append(d)
                    }
                }
            case .monthly:
                let index = first.month! - 1 + period * interval
                let (y, m) = (first.year! + index / 12, index % 12 + 1)
                if byMonth.isEmpty || byMonth.contains(m) { candidates = monthDays(y, m, cal: cal, first: first).compactMap { at(y, m, $0) } }
            case .yearly:
                let y = first.year! + period * interval
                let months = byMonth.isEmpty ? [first.month!] : byMonth
                for m in months.sorted() {
                    if byMonth.isEmpty && byDay.isEmpty && byMonthDay.isEmpty {
                        if let d = at(y, m, first.day!) { candidates.append(d) }
                    } else {
                        candidates += monthDays(y, m, cal: cal, first: first).compactMap { at(y, m, $0) }
                    }
                }
            }
            var any = false
            for d in candidates.sorted() where d > start {
                if done(d) { return out }
                out.append(d)
                emitted += 1
                any = true
            }
            // A rule whose parts can never meet (BYMONTHDAY=31 with BYMONTH=2) must not spin.
            periodsWithout = any ? 0 : periodsWithout + 1
            if periodsWithout > 400 { return out }
            period += 1
            if let first = candidates.first, first >= end { return out }
        }
        return out
    }

    /// The days of month `m` of year `y` a monthly (or yearly-by-month) rule picks, in order.
    private func monthDays(_ y: Int, _ m: Int, cal: Calendar, first: DateComponents) -> [Int] {
        guard let monthStart = cal.date(from: DateComponents(year: y, month: m, day: 1)),
              let length = cal.range(of: .day, in: .month, for: monthStart)?.count else { return [] }
        var days: Set<Int> = []
        for n in byMonthDay {
            let d = n > 0 ? n : length + 1 + n
            if (1...length).contains(d) { days.insert(d) }
        }
        if !byDay.isEmpty {
            let firstWeekday = cal.component(.weekday, from: monthStart)
            var matching: Set<Int> = []
            for item in byDay {
                let all = (1...length).filter { (firstWeekday - 1 + $0 - 1) % 7 + 1 == item.weekday }
                if let n = item.ordinal {
                    let pick = n > 0 ? (n <= all.count ? all[n - 1] : nil) : (-n <= all.count ? all[all.count + n] : nil)
                    if let pick { matching.insert(pick) }
                } else {
                    matching.formUnion(all)
                }
            }
            // Both given: a day must satisfy both (RFC 5545's BYxxx parts narrow each other).
            days = byMonthDay.isEmpty ? matching : days.intersection(matching)
        } else if byMonthDay.isEmpty {
            days.insert(first.day!)
        }
        return days.sorted()
    }
}
