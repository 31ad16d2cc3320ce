/// A repeating reading ("every friday", "every other friday"): the match's value is the first
/// occurrence; this says how often it comes back.
public struct DateRecurrence: Sendable, Equatable {
    /// Every `interval` weeks (2 for "every other").
    public var interval: Int
    public var weekday: Weekday

    public init(interval: Int, weekday: Weekday) {
        self.interval = interval
        self.weekday = weekday
    }
}
