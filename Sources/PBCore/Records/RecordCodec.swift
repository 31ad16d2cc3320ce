import Foundation

/// Turns lines into records and records into lines, keeping unknown fields.
///
/// Output keys are sorted so that the same record always prints the same bytes (golden tests,
/// `diff`, content hashes); the fields a stage does not know follow, also sorted.
public struct RecordCodec: Sendable {
    public init() {}

    public func decodeObject(_ line: Data) throws -> [String: JSONValue] {
        try Self.checkShape(line)
        return try parseObject(line)
    }

    /// JSONShape's check, its problems as record errors; the range of the literal at `path`.
    @discardableResult
    static func checkShape(_ line: Data, locating path: [String] = []) throws -> Range<Data.Index>? {
        do {
            return try JSONShape.check(line, locating: path)
        } catch JSONShape.Problem.tooDeep(let limit) {
            throw RecordError.tooDeep(limit)
        } catch JSONShape.Problem.duplicateKey(let key) {
            throw RecordError.duplicateKey(key)
        } catch JSONShape.Problem.invalid(let why) {
            throw RecordError.notJSON(why)
        }
    }

    private func parseObject(_ line: Data) throws -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: line)
        } catch {
            throw RecordError.notJSON(Self.describe(error))
        }
        guard case .object(let object) = value else { throw RecordError.notObject }
        return object
    }

    public func decode<R: PBRecord>(_ type: R.Type, from line: Data) throws -> R {
        guard !R.literalPath.isEmpty else { return try decode(type, from: line, raw: try decodeObject(line)) }
        // The literal at R.literalPath is checked here and then read as "" by both decoders; the
        // record keeps its bytes, and encode puts them back where they were.
        guard let range = try Self.checkShape(line, locating: R.literalPath) else {
            return try decode(type, from: line, raw: try parseObject(line))
        }
        var blanked = line
        blanked.replaceSubrange(range, with: Self.emptyString)
        var record = try decode(type, from: blanked, raw: try parseObject(blanked))
        record.keepLiteral(line[range])
        return record
    }

    private static let emptyString = Data("\"\"".utf8)

    /// Set in the encoder's userInfo when RecordCodec will splice kept literals back in itself.
    public static let splicesLiterals = CodingUserInfoKey(rawValue: "pb.splicesLiterals")!

    /// The same, for a caller that already has the line's object from `decodeObject` (so the
    /// line is checked and parsed as JSON once, not once per look at it).
    public func decode<R: PBRecord>(_ type: R.Type, from line: Data, raw: [String: JSONValue]) throws -> R {
        try R.checkKind(raw)
        var record: R
        var line = line
        if raw["kind"] == nil {
            // A hand-written record may leave out its kind; it is the one this stage reads.
            let body = raw.isEmpty ? Data("}".utf8) : Data(",".utf8) + line.drop(while: { $0 != UInt8(ascii: "{") }).dropFirst()
            line = Data("{\"kind\":\"\(R.kindName)\"".utf8) + body
        }
        do {
            record = try JSONDecoder().decode(R.self, from: line)
        } catch {
            let failure = Self.recordError(error)
            // The line parsed above, so a "not valid JSON" here is Foundation's word for a number
            // that does not fit its field (2.5 or 1e20 where a whole number belongs): name it.
            if case .notJSON = failure, let (name, value) = Self.unfitNumber(in: raw, known: R.knownKeys) {
                throw RecordError.badField(name: name, reason: "expected a whole number, got \(value)")
            }
            throw failure
        }
        record.extra = raw.filter { !R.knownKeys.contains($0.key) }
        return record
    }

    /// The first number among the record's known fields (one level of nesting included) that is
    /// not a whole number an Int holds, as its path and value.
    static func unfitNumber(in raw: [String: JSONValue], known: Set<String>) -> (String, String)? {
        func unfit(_ d: Double) -> Bool { d.rounded() != d || abs(d) >= 9.2e18 }
        for key in raw.keys.sorted() where known.contains(key) {
            switch raw[key]! {
            case .number(let d) where unfit(d): return (key, "\(d)")
            case .object(let o):
                for inner in o.keys.sorted() { if case .number(let d)? = o[inner], unfit(d) { return ("\(key).\(inner)", "\(d)") } }
            case .array(let a):
                for (i, v) in a.enumerated() { if case .number(let d) = v, unfit(d) { return ("\(key)[\(i)]", "\(d)") } }
            default: break
            }
        }
        return nil
    }

    public func encode<R: PBRecord>(_ record: R) throws -> Data {
        let encoder = Self.encoder()
        let literal = record.keptLiteral
        if literal != nil { encoder.userInfo[Self.splicesLiterals] = true }
        var data = try encoder.encode(record)
        if let literal {
            guard let range = try JSONShape.check(data, locating: R.literalPath) else {
                throw EncodingError.invalidValue(literal, .init(codingPath: [], debugDescription: "no \(R.literalPath.joined(separator: ".")) to put the kept literal back into"))
            }
            data.replaceSubrange(range, with: literal)
        }
        let extra = record.extra.filter { !R.knownKeys.contains($0.key) }
        if !extra.isEmpty {
            let more = try encoder.encode(extra)
            // Splice two objects: "{a}" + "{b}" -> "{a,b}". Keys are disjoint by construction.
            data.removeLast()
            data.append(UInt8(ascii: ","))
            data.append(more.dropFirst())
        }
        return data
    }

    public func encodeValue<T: Encodable>(_ value: T) throws -> Data {
        try Self.encoder().encode(value)
    }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// A one-line, lowercase account of a decoding failure, naming the field path.
    /// A field's path as messages name it: `steps[0].tool`.
    public static func fieldPath(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    static func recordError(_ error: Error) -> RecordError {
        // A type that reads itself may say exactly what is wrong, in the input's own words.
        if let error = error as? RecordError { return error }
        guard let error = error as? DecodingError else { return .notJSON(String(describing: error)) }
        func path(_ keys: [CodingKey], _ last: CodingKey? = nil) -> String {
            fieldPath(keys + (last.map { [$0] } ?? []))
        }
        switch error {
        case .keyNotFound(let key, let ctx):
            return .missingField(path(ctx.codingPath, key))
        case .typeMismatch(let type, let ctx):
            return .badField(name: path(ctx.codingPath), reason: "expected \(typeName(type))")
        case .valueNotFound(let type, let ctx):
            return .badField(name: path(ctx.codingPath), reason: "expected \(typeName(type)), got null")
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty { return .notJSON(describe(error)) }
            return .badField(name: path(ctx.codingPath), reason: ctx.debugDescription.lowercased())
        @unknown default:
            return .notJSON("\(error)")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }

    static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let ctx)? = error as? DecodingError {
            let underlying = (ctx.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let text = (underlying ?? ctx.debugDescription).lowercased()
            return text.hasPrefix("the given data was not valid json") ? "" : text
        }
        return String(describing: error).lowercased()
    }
}
