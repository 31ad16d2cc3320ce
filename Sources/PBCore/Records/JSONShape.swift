import Foundation

/// A pass over a record's bytes before it is decoded, for what JSONDecoder lets through or
/// handles differently from other readers:
///
/// - nesting deeper than `maximumDepth` objects and arrays. Foundation's decoder accepts 512
///   levels but its encoder cannot write them back, so a stage could commit a change and then fail
///   to print the record that made it; no record of PocketBrains nests more than a few levels.
/// - a key twice in one object. Foundation keeps the first, jq and Python the last, so the plan a
///   user reviewed with jq would not be the plan pb-exec ran.
///
/// Strings are skipped byte by byte (escapes included); everything else is left to the decoder,
/// which still rejects whatever is not JSON.
public enum JSONShape {
    /// The deepest nesting of objects and arrays a record may have (pb-records(5)).
    public static let maximumDepth = 64

    public enum Problem: Error, Equatable {
        case tooDeep(Int)
        case duplicateKey(String)
        /// What else the decoder would only call "not valid JSON" (or worse, name a Swift type).
        case invalid(String)
    }

    private struct Frame {
        var isObject: Bool
        var expectKey: Bool
        var keys: Set<[UInt8]>
        /// The key whose value is being read (objects only): the path to a value, for `locating`.
        var currentKey: [UInt8] = []
    }

    /// Checks the line and, given a key path (["context", "prompt"]), returns the byte range of the
    /// string literal at that path, quotes included, if there is one: RecordCodec carries such a
    /// string through as bytes instead of decoding and re-encoding it.
    @discardableResult
    public static func check<C: Collection>(_ bytes: C, locating path: [String] = []) throws -> Range<C.Index>? where C.Element == UInt8 {
        let target = path.map { Array($0.utf8) }
        var found: Range<C.Index>?
        if String(validating: bytes, as: UTF8.self) == nil {
            throw Problem.invalid("the line is not valid UTF-8")
        }
        var stack: [Frame] = []
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < maximumDepth else { throw Problem.tooDeep(maximumDepth) }
                if !stack.isEmpty { stack[stack.count - 1].expectKey = false }
                stack.append(Frame(isObject: b == UInt8(ascii: "{"), expectKey: b == UInt8(ascii: "{"), keys: []))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if let top = stack.last, top.isObject { stack[stack.count - 1].expectKey = true }
            case UInt8(ascii: "\""):
                // The string, to its closing quote.
                var j = bytes.index(after: i)
                var escaped = false
                var hasEscape = false
                while j != bytes.endIndex {
                    let c = bytes[j]
                    if c < 0x20 {
                        throw Problem.invalid("a raw control character (U+\(String(format: "%04X", c))) inside a string; write it escaped, as \\n or \\u00XX")
                    }
                    if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true; hasEscape = true } else if c == UInt8(ascii: "\"") { break }
                    j = bytes.index(after: j)
                }
                if hasEscape { try checkSurrogates(bytes[bytes.index(after: i)..<j]) }
                if let top = stack.last, top.isObject, top.expectKey {
                    let raw = Array(bytes[bytes.index(after: i)..<j])
                    let key = hasEscape ? unescaped(raw) : raw
                    if !stack[stack.count - 1].keys.insert(key).inserted {
                        throw Problem.duplicateKey(String(decoding: key, as: UTF8.self))
                    }
                    stack[stack.count - 1].expectKey = false
                    if !target.isEmpty { stack[stack.count - 1].currentKey = key }
                } else if !target.isEmpty, stack.count == target.count, j != bytes.endIndex,
                          stack.indices.allSatisfy({ stack[$0].isObject && stack[$0].currentKey == target[$0] }) {
                    found = i..<bytes.index(after: j)
                }
                i = j == bytes.endIndex ? j : bytes.index(after: j)
                continue
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A number: JSON allows any size, but one past Double's range cannot be kept.
                var j = i
                while j != bytes.endIndex, Self.numberBytes.contains(bytes[j]) { j = bytes.index(after: j) }
                let text = String(decoding: bytes[i..<j], as: UTF8.self)
                if let d = Double(text), !d.isFinite {
                    throw Problem.invalid("the number \(text.prefix(40)) is too large to represent")
                }
                i = j
                continue
            default:
                break
            }
            i = bytes.index(after: i)
        }
        return found
    }

    private static let numberBytes: Set<UInt8> = Set("0123456789+-.eE".utf8)

    /// A \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF one, and the second never
    /// stands alone: a lone surrogate is no character at all.
    private static func checkSurrogates<C: Collection>(_ raw: C) throws where C.Element == UInt8 {
        let a = Array(raw)
        var k = 0
        var expectLow = false
        while k < a.count {
            if a[k] == UInt8(ascii: "\\"), k + 1 < a.count {
                if a[k + 1] == UInt8(ascii: "u"), k + 5 < a.count,
                   let v = UInt16(String(decoding: a[(k + 2)...(k + 5)], as: UTF8.self), radix: 16) {
                    let high = (0xD800...0xDBFF).contains(v), low = (0xDC00...0xDFFF).contains(v)
                    if expectLow != low || (expectLow && high) {
                        throw Problem.invalid("a lone surrogate (\\u\(String(format: "%04x", v))) in a string is not a character")
                    }
                    expectLow = high
                    k += 6
                    continue
                }
                if expectLow { throw Problem.invalid("a lone surrogate in a string is not a character") }
                k += 2
                continue
            }
            if expectLow { throw Problem.invalid("a lone surrogate in a string is not a character") }
            k += 1
        }
        if expectLow { throw Problem.invalid("a lone surrogate in a string is not a character") }
    }

    /// A key's bytes with its escapes resolved ("\u0061" and "a" are one key), as UTF-8.
    private static func unescaped(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var units: [UInt16] = []
        func flushUnits() {
            guard !units.isEmpty else { return }
            out += Array(String(decoding: units, as: UTF16.self).utf8)
            units.removeAll()
        }
        var k = 0
        while k < raw.count {
            if raw[k] == UInt8(ascii: "\\"), k + 1 < raw.count {
                let e = raw[k + 1]
                if e == UInt8(ascii: "u"), k + 5 < raw.count,
                   let v = UInt16(String(decoding: raw[(k + 2)...(k + 5)], as: UTF8.self), radix: 16) {
                    units.append(v)
                    k += 6
                    continue
                }
                flushUnits()
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                default: out.append(e)
                }
                k += 2
                continue
            }
            flushUnits()
            out.append(raw[k])
            k += 1
        }
        flushUnits()
        return out
    }
}
