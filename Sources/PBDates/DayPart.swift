/// A named stretch of a day, as a half-open window of hours. These windows are the documented
/// defaults (pb-date(1)): morning 06:00-12:00, afternoon 12:00-18:00, evening 18:00-22:00,
/// night ("tonight") 18:00-24:00.
enum DayPart: String {
    case morning, afternoon, evening, night

    var hours: (start: Int, end: Int) {
        switch self {
        case .morning: return (6, 12)
        case .afternoon: return (12, 18)
        case .evening: return (18, 22)
        case .night: return (18, 24)
        }
    }

    /// Whether a bare hour ("at 8") in this part is after noon.
    var isAfterNoon: Bool { self != .morning }

    init?(word: String) {
        switch word {
        case "morning", "mornings": self = .morning
        case "afternoon", "afternoons", "arvo": self = .afternoon
        case "evening", "evenings", "eve": self = .evening
        case "night", "nights", "tonight": self = .night
        default: return nil
        }
    }
}
