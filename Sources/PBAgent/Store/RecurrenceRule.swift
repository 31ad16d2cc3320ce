import Foundation

/// A repeat rule, kept simple: `FREQ=DAILY|WEEKLY|MONTHLY|YEARLY` with an optional `INTERVAL=N`
/// (the words daily, weekly, monthly, yearly are read too). `schedule` repeats from the due date,
/// `completion` from the day the task is completed.
public struct RecurrenceRule: Equatable, Sendable {
    public enum Frequency: String, Sendable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"

        var component: Calendar.Component {
            switch self {
            case .daily: return .day
            case .weekly: return .weekOfYear
            case .monthly: return .month
            case .yearly: return .year
            }
        }
    }

    public enum Mode: String, Sendable, CaseIterable {
        case schedule, completion
    }

    public var frequency: Frequency
    public var interval: Int

    public init(frequency: Frequency, interval: Int = 1) {
        self.frequency = frequency
        self.interval = interval
    }

    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        if let f = Frequency.allCases.first(where: { $0.rawValue == t }) {
            self.init(frequency: f)
            return
        }
        var freq: Frequency?
        var interval = 1
        for part in t.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2 else { return nil }
            switch kv[0] {
            case "FREQ": freq = Frequency(rawValue: kv[1])
                if freq == nil { return nil }
            case "INTERVAL":
                guard let n = Int(kv[1]), (1...366).contains(n) else { return nil }
                interval = n
            default: return nil
            }
        }
        guard let freq else { return nil }
        self.init(frequency: freq, interval: interval)
    }

    public var text: String { interval == 1 ? "FREQ=\(frequency.rawValue)" : "FREQ=\(frequency.rawValue);INTERVAL=\(interval)" }

    /// The next occurrence's due: on a schedule, the first step after `due` that is not before
    /// today; after completion, one step after today (keeping the due's time of day).
    public func next(after due: ISOMoment?, mode: Mode, clock: AgentClock) -> ISOMoment {
        let today = ISOMoment.parse(clock.today, zone: clock.zone)!
        switch mode {
        case .completion:
            var base = today
            if let due, !due.dateOnly {
                var cal = clock.calendar
                let tz = due.offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? clock.zone
                cal.timeZone = tz
                let t = cal.dateComponents([.hour, .minute, .second], from: due.date)
                var d = clock.calendar.dateComponents([.year, .month, .day], from: clock.now)
                d.hour = t.hour; d.minute = t.minute; d.second = t.second
                cal.timeZone = tz
                if let date = cal.date(from: d) {
                    base = ISOMoment(date: date, dateOnly: false, offset: due.offset, text: ISOMoment.format(date, zone: tz))
                }
            }
            return base.adding(frequency.component, interval, zone: clock.zone)
        case .schedule:
            guard let due else { return today.adding(frequency.component, interval, zone: clock.zone) }
            var k = 1
            var next = due.adding(frequency.component, interval, zone: clock.zone)
            while next.day(in: clock.zone) < clock.today, k < 10_000 {
                k += 1
                next = due.adding(frequency.component, interval * k, zone: clock.zone)
            }
            return next
        }
    }
}
