import Foundation

/// Any JSON value. Records keep the fields they do not understand as JSONValues so that every
/// stage passes them through untouched.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    /// A whole number too large for a Double to hold exactly (beyond 2^53), kept as written so an
    /// id of 12345678901234567 passes through every stage unchanged. Smaller whole numbers are
    /// `.number`, exactly.
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        // Most values are strings, then numbers: each failed try costs a thrown DecodingError, so
        // the likeliest kinds go first.
        if c.decodeNil() { self = .null }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let d = try? c.decode(Double.self) {
            // Past 2^53 the Double may have rounded: read the digits again as an Int64 if they are one.
            if d.rounded() == d, d.magnitude >= Double(Self.exactInDouble), let i = try? c.decode(Int64.self),
               i.magnitude > Self.exactInDouble {
                self = .integer(i)
            } else {
                self = .number(d)
            }
        }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d):
            // Integral values print without a fraction so ids and counts round-trip as written.
            if d.rounded() == d, abs(d) < 9.007e15 { try c.encode(Int64(d)) } else { try c.encode(d) }
        case .integer(let i): try c.encode(i)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public var stringValue: String? {
        switch self {
        case .string(let s): return s
        case .number(let d): return d.rounded() == d && abs(d) < 9.2e18 ? String(Int64(d)) : String(d)
        case .integer(let i): return String(i)
        default: return nil
        }
    }

    /// 2^53: every whole number up to it is exact as a Double.
    static let exactInDouble: UInt64 = 1 << 53

    /// A whole number that fits an Int, from either numeric case; nil for anything else.
    public var wholeNumber: Int64? {
        switch self {
        case .number(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        case .integer(let i): return i
        default: return nil
        }
    }
}
