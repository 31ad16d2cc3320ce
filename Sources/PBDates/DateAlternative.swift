import Foundation

/// Another reading of the same phrase, and why someone might mean it.
public struct DateAlternative: Sendable, Equatable {
    public var value: Date
    /// Exclusive end, for ranges.
    public var end: Date?
    public var grain: DateGrain
    /// A short lowercase reason: "the coming friday", "12-hour clock: pm".
    public var reason: String

    public init(value: Date, end: Date? = nil, grain: DateGrain, reason: String) {
        self.value = value
        self.end = end
        self.grain = grain
        self.reason = reason
    }
}
