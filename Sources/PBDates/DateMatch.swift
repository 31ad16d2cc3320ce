import Foundation

/// One date phrase found in a text, with where it is and what it means.
public struct DateMatch: Sendable, Equatable {
    /// The phrase exactly as written (so a caller can cut it out of a title).
    public var phrase: String
    /// UTF-8 byte offsets of the phrase in the text: `text.utf8[start..<end]`.
    public var start: Int
    public var end: Int
    /// The start instant (start of the day for day and coarser grains); nil when `error` is set.
    public var value: Date?
    /// Exclusive end instant, for ranges (part of day, week, weekend, month, year).
    public var valueEnd: Date?
    public var grain: DateGrain
    /// Other readings, each with a short reason.
    public var alternatives: [DateAlternative]
    /// Set for "every friday" and "every other friday".
    public var recurrence: DateRecurrence?
    /// Why the phrase is not a date ("february has at most 29 days"); never rolled over.
    public var error: String?
    /// The zone the text named for its time ("3pm PST"); the value is still in the user's zone.
    public var zone: TimeZone?

    public init(phrase: String, start: Int, end: Int, value: Date?, valueEnd: Date? = nil, grain: DateGrain,
                alternatives: [DateAlternative] = [], recurrence: DateRecurrence? = nil, error: String? = nil) {
        self.phrase = phrase
        self.start = start
        self.end = end
        self.value = value
        self.valueEnd = valueEnd
        self.grain = grain
        self.alternatives = alternatives
        self.recurrence = recurrence
        self.error = error
    }
}
