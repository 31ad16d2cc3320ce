import Foundation
import PBCore

/// `date`: one date phrase found by pb-date in a text, or, with `match: null`, a text that has none.
/// Fields of the input record pass through in `extra`.
public struct DateRecord: PBRecord, Equatable {
    public static let kindName = "date"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "date"
    /// The whole input text.
    public var text: String
    /// The phrase as written; nil (written as `null`) when the text holds no date.
    public var match: String?
    /// UTF-8 byte offsets of the phrase in `text`.
    public var start: Int?
    public var end: Int?
    /// A date (`2026-11-30`) for day and coarser grains, else an instant with its offset.
    public var value: String?
    /// The end of a range: the last day it includes, or the exclusive end instant of a part of a day.
    public var valueEnd: String?
    public var grain: String?
    public var alternatives: [Alternative]?
    public var recurrence: Recurrence?
    /// Why the phrase is not a date (an impossible date such as "Feb 30").
    public var error: String?
    /// The offset of a zone the text named for its time ("3pm PST": "-08:00"), at that instant.
    /// `value` is converted into the user's zone; this says what the text itself meant.
    public var zone: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, text, match, start, end, value, grain, alternatives, recurrence, error, zone
        case valueEnd = "value_end"
    }

    /// Another reading of the phrase.
    public struct Alternative: Codable, Equatable, Sendable {
        public var value: String
        public var valueEnd: String?
        public var grain: String
        public var reason: String

        enum CodingKeys: String, CodingKey {
            case value, grain, reason
            case valueEnd = "value_end"
        }
    }

    /// Repeats every `interval` weeks on `weekday`.
    public struct Recurrence: Codable, Equatable, Sendable {
        public var interval: Int
        public var unit: String
        public var weekday: String
    }

    public init(text: String) {
        self.text = text
    }

    /// The record for one match, values written in `format`'s time zone.
    public init(text: String, match m: DateMatch, format: DateValueFormat) {
        self.text = text
        match = m.phrase
        start = m.start
        end = m.end
        if let e = m.error {
            error = e
            return
        }
        grain = m.grain.rawValue
        if let v = m.value { value = format.value(v, grain: m.grain) }
        if let e = m.valueEnd { valueEnd = format.end(e, grain: m.grain) }
        alternatives = m.alternatives.map { a in
            Alternative(value: format.value(a.value, grain: a.grain), valueEnd: a.end.map { format.end($0, grain: a.grain) },
                        grain: a.grain.rawValue, reason: a.reason)
        }
        if let z = m.zone, let v = m.value {
            let seconds = z.secondsFromGMT(for: v)
            let a = abs(seconds) / 60
            zone = String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", a / 60, a % 60)
        }
        recurrence = m.recurrence.map { Recurrence(interval: $0.interval, unit: "week", weekday: $0.weekday.name) }
    }

    // Written by hand so that `match` is always present, as null when there is no date.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(text, forKey: .text)
        try c.encode(match, forKey: .match)
        try c.encodeIfPresent(start, forKey: .start)
        try c.encodeIfPresent(end, forKey: .end)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(valueEnd, forKey: .valueEnd)
        try c.encodeIfPresent(grain, forKey: .grain)
        try c.encodeIfPresent(alternatives, forKey: .alternatives)
        try c.encodeIfPresent(recurrence, forKey: .recurrence)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(zone, forKey: .zone)
    }
}
