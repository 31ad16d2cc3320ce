import Foundation

/// What the grammar has read of one phrase before it is resolved: a day (or longer span), a part of
/// the day, a clock time, or a complete instant, over tokens `first...last`. Adjacent pieces merge
/// ("next monday" + "morning", "tomorrow" + "at 9") when they say different things.
struct DatePiece {
    var first: Int
    var last: Int
    var day: DaySpan?
    var part: DayPart?
    var time: ClockTime?
    /// An instant that needs nothing more ("in 2 hours", an ISO time with an offset, "now").
    var instant: (value: Date, grain: DateGrain)?
    var recurrence: DateRecurrence?
    /// The zone a time was given in ("3pm PST"); nil for the user's own.
    var zone: TimeZone?
    var error: String?
    /// An explicit calendar date ("27 Jan"), which wins over a weekday in front of it.
    var isExplicitDate = false
    /// A weekday on its own ("friday"), which may stand in front of an explicit date.
    var isBareWeekday = false

    init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    static func day(_ span: DaySpan, _ first: Int, _ last: Int) -> DatePiece {
        var p = DatePiece(first: first, last: last)
        p.day = span
        return p
    }

    static func failure(_ message: String, _ first: Int, _ last: Int) -> DatePiece {
        var p = DatePiece(first: first, last: last)
        p.error = message
        return p
    }

    /// The two pieces as one, or nil when they cannot be one phrase.
    func merged(with q: DatePiece) -> DatePiece? {
        if error != nil || q.error != nil || instant != nil || q.instant != nil { return nil }
        var m = self
        m.last = q.last
        if let qd = q.day {
            if let d = day {
                // "Tuesday, January 27": the explicit date decides.
                guard isBareWeekday, q.isExplicitDate, d.grain == .day else { return nil }
                m.isExplicitDate = true
                m.isBareWeekday = false
            } else {
                // "7:30 PM on Fri, Sep 20": a time before a weekday still lets the date decide.
                m.isBareWeekday = q.isBareWeekday
                m.isExplicitDate = q.isExplicitDate
            }
            m.day = qd
        }
        if let qp = q.part {
            guard part == nil else { return nil }
            m.part = qp
        }
        if let qt = q.time {
            guard time == nil else { return nil }
            m.time = qt
            m.zone = q.zone
        }
        if m.recurrence == nil { m.recurrence = q.recurrence }
        // A time or a part of day only sits on a single day.
        if let d = m.day, d.grain != .day, m.part != nil || m.time != nil { return nil }
        return m
    }
}

/// A day-level reading: the half-open span `[start, end)` with its grain, plus other readings of
/// the same words and why.
struct DaySpan {
    var start: Date
    var end: Date
    var grain: DateGrain
    var alternatives: [DaySpanAlternative] = []
}

/// A clock time as written: "5pm", "17:30", "at 9", "noon".
struct ClockTime {
    enum Meridiem { case am, pm }

    var hour: Int
    var minute: Int
    var meridiem: Meridiem?
    var hasMinutes: Bool
    /// Written on the 24-hour clock (a leading zero, an hour of 0 or above 12), or noon/midnight:
    /// no am/pm question.
    var isFixed: Bool
}

/// Another day-level reading and why someone might mean it.
struct DaySpanAlternative {
    var span: DaySpan
    var reason: String

    init(_ span: DaySpan, _ reason: String) {
        self.span = span
        self.reason = reason
    }
}
