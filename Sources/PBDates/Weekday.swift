/// A day of the week, numbered as Foundation's `Calendar` numbers them (Sunday = 1).
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    public var name: String {
        ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][rawValue - 1]
    }

    /// Full names and the usual abbreviations ("tue", "tues", "thurs").
    public init?(word: String) {
        let w = word.lowercased()
        let table: [String: Weekday] = [
            "sunday": .sunday, "sun": .sunday, "sundays": .sunday,
            "monday": .monday, "mon": .monday, "mondays": .monday,
            "tuesday": .tuesday, "tue": .tuesday, "tues": .tuesday, "tuesdays": .tuesday,
            "wednesday": .wednesday, "wed": .wednesday, "weds": .wednesday, "wednesdays": .wednesday,
            "thursday": .thursday, "thu": .thursday, "thur": .thursday, "thurs": .thursday, "thursdays": .thursday,
            "friday": .friday, "fri": .friday, "fridays": .friday,
            "saturday": .saturday, "sat": .saturday, "saturdays": .saturday,
        ]
        guard let day = table[w] else { return nil }
        self = day
    }
}
