import Foundation

/// A record of the NDJSON contract: one JSON object per line with a `kind`.
///
/// Each kind has one Codable type with the fields its stages read and write; every other field of
/// the line is kept in `extra` and written back out, so a stage never loses what a later stage or
/// the user added.
public protocol PBRecord: Codable, Sendable {
    /// The `kind` this type reads and writes ("chunk", "query", ...).
    static var kindName: String { get }
    /// The JSON keys the Codable type itself handles; all others go to `extra`.
    static var knownKeys: Set<String> { get }
    var extra: [String: JSONValue] { get set }

    /// A string field this kind carries through as its JSON literal, never decoded unless a stage
    /// reads it (a query's `context.prompt`, which repeats all the evidence): its key path.
    static var literalPath: [String] { get }
    /// The literal kept from the line the record was read from, quotes included.
    var keptLiteral: Data? { get }
    /// Takes the literal found at `literalPath`; the decoded field itself was read as "".
    mutating func keepLiteral(_ literal: Data)
}

extension PBRecord {
    public static var literalPath: [String] { [] }
    public var keptLiteral: Data? { nil }
    public mutating func keepLiteral(_ literal: Data) {}
}

extension PBRecord {
    /// Checks `kind` against the type: a missing kind is taken to be this one, another is an error.
    static func checkKind(_ raw: [String: JSONValue]) throws {
        switch raw["kind"] {
        case nil, .null?: return
        case .string(let k)? where k == kindName: return
        case .string(let k)?: throw RecordError.wrongKind(expected: kindName, found: k)
        default: throw RecordError.badField(name: "kind", reason: "expected a string")
        }
    }
}

/// Why a line is not a valid record; messages are lowercase and say what was expected.
public enum RecordError: Error, CustomStringConvertible, Equatable {
    /// The line is not JSON at all.
    case notJSON(String)
    /// The line is JSON but not an object.
    case notObject
    /// The record is of another kind than this stage reads.
    case wrongKind(expected: String, found: String)
    /// A required field is absent.
    case missingField(String)
    /// A field has the wrong type or an impossible value.
    case badField(name: String, reason: String)
    /// Objects and arrays nest deeper than the limit (JSONShape.maximumDepth).
    case tooDeep(Int)
    /// A key appears twice in one object (readers disagree on which one counts).
    case duplicateKey(String)

    public var description: String {
        switch self {
        case .notJSON(let why): return why.isEmpty ? "not valid JSON" : "not valid JSON: \(why)"
        case .notObject: return "expected a JSON object"
        case let .wrongKind(expected, found): return "expected a '\(expected)' record, got kind '\(found)'"
        case .missingField(let name): return "missing field '\(name)'"
        case let .badField(name, reason): return "field '\(name)': \(reason)"
        case .tooDeep(let limit): return "objects and arrays nest deeper than \(limit) levels"
        case .duplicateKey(let key): return "the key '\(key)' appears twice in one object"
        }
    }
}
