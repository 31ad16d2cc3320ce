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
    }

    private struct Frame {
        var isObject: Bool
        var expectKey: Bool
        var keys: Set<[UInt8]>
    }

    public static func check<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
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
                    if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true; hasEscape = true } else if c == UInt8(ascii: "\"") { break }
                    j = bytes.index(after: j)
                }
                if let top = stack.last, top.isObject, top.expectKey {
                    let raw = Array(bytes[bytes.index(after: i)..<j])
                    let key = hasEscape ? unescaped(raw) : raw
                    if !stack[stack.count - 1].keys.insert(key).inserted {
                        throw Problem.duplicateKey(String(decoding: key, as: UTF8.self))
                    }
                    stack[stack.count - 1].expectKey = false
                }
                i = j == bytes.endIndex ? j : bytes.index(after: j)
                continue
            default:
                break
            }
            i = bytes.index(after: i)
        }
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
