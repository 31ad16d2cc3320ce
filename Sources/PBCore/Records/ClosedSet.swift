/// A record field whose values are a closed set (mode, verdict status, answer route, evidence
/// role): an enum, decoded in one place, so a value outside the set is a bad-input error naming
/// the field and the values it takes, never a string compared in eight places.
public protocol ClosedSet: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {}

extension ClosedSet {
    /// "a, b or c": the values, for messages.
    public static var expected: String {
        let names = allCases.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            // RecordCodec turns this into "bad field PATH: expected ..., got '...'" (status 65).
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.expected), got '\(text)'")
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
