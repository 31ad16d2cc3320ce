/// How precise a resolved date is: the unit a person meant, not the precision of the instant.
public enum DateGrain: String, CaseIterable, Sendable, Codable {
    case minute
    case hour
    /// A stretch of one day: morning, afternoon, evening, night (a range).
    case partOfDay = "part-of-day"
    case day
    /// A calendar week per the week start (a range).
    case week
    /// Saturday and Sunday (a range).
    case weekend
    /// A run of whole days that is not a calendar week: "the next 3 days" (a range).
    case days
    case month
    /// Three months from January, April, July or October (a range).
    case quarter
    case year

    /// Grains whose value is a calendar date rather than an instant.
    public var isCalendarDate: Bool {
        switch self {
        case .minute, .hour, .partOfDay: return false
        default: return true
        }
    }
}
