import Foundation

enum XMLEvent: Equatable {
    case start(name: String, attributes: [String: String], selfClosing: Bool)
    case end(name: String)
    case text(String)
}

/// A small pull tokenizer for the XML that office suites write (OOXML and OpenDocument):
/// elements, attributes, character data, CDATA and entity references. It never rejects input;
/// a damaged part just yields less text.
///
/// It is bounded by construction: entities declared in a DTD are never expanded (only the five
/// XML entities and numeric references are), so an entity bomb ("billion laughs") yields its
/// references as written, and the output is never larger than the input.
///
/// Prefixes are arbitrary in XML, so names in the namespaces we read are rewritten to fixed
/// prefixes (`w:`, `x:`, `p:`, `a:`, `text:`, `table:` ...) from the `xmlns` declarations seen
/// so far; office suites declare them all on the root element, so scoping is not modelled.
struct XMLScanner {
    private let bytes: [UInt8]
    private var at = 0
    private var canonical: [String: String] = [:]
    private var pendingEnd: String?

    private static let known: [String: String] = [
        "http://schemas.openxmlformats.org/wordprocessingml/2006/main": "w",
        "http://purl.oclc.org/ooxml/wordprocessingml/main": "w",
        "http://schemas.openxmlformats.org/markup-compatibility/2006": "mc",
        "http://purl.org/dc/elements/1.1/": "dc",
        // OOXML spreadsheets, presentations, their drawing text and relationship ids (transitional and strict).
        "http://schemas.openxmlformats.org/spreadsheetml/2006/main": "x",
        "http://purl.oclc.org/ooxml/spreadsheetml/main": "x",
        "http://schemas.openxmlformats.org/presentationml/2006/main": "p",
        "http://purl.oclc.org/ooxml/presentationml/main": "p",
        "http://schemas.openxmlformats.org/drawingml/2006/main": "a",
        "http://purl.oclc.org/ooxml/drawingml/main": "a",
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships": "r",
        "http://purl.oclc.org/ooxml/officeDocument/relationships": "r",
        // OpenDocument (ODT, ODS).
        "urn:oasis:names:tc:opendocument:xmlns:office:1.0": "office",
        "urn:oasis:names:tc:opendocument:xmlns:text:1.0": "text",
        "urn:oasis:names:tc:opendocument:xmlns:table:1.0": "table",
        "urn:oasis:names:tc:opendocument:xmlns:style:1.0": "style",
        "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0": "draw",
        "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0": "presentation",
        "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0": "manifest",
    ]

    init(_ data: [UInt8]) {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = Array(data.dropFirst(3))
        } else if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            bytes = HTMLDocument.decode(data)
        } else {
            bytes = data
        }
    }

    mutating func next() -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name: name)
        }
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") {
                let end = bytes[at...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                let text = decode(bytes[at ..< end])
                at = end
                return .text(text)
            }
            if starts("<!--") {
                at = after("-->", from: at + 4)
            } else if starts("<![CDATA[") {
                let start = at + 9
                let end = find("]]>", from: start) ?? bytes.count
                at = min(end + 3, bytes.count)
                return .text(String(decoding: bytes[start ..< end], as: UTF8.self))
            } else if starts("<?") {
                at = after("?>", from: at + 2)
            } else if starts("<!") {
                skipDeclaration()
            } else if starts("</") {
                let (name, end) = readName(from: at + 2)
                at = after(">", from: end)
                return .end(name: qualified(name))
            } else {
                return startTag()
            }
        }
        return nil
    }

    private mutating func startTag() -> XMLEvent {
        let (rawName, nameEnd) = readName(from: at + 1)
        let tag = MarkupAttributes(bytes, from: nameEnd, unquotedValues: false)
        let raw = tag.pairs.map { (String(decoding: $0.name, as: UTF8.self), $0.value.map(decode) ?? "") }
        let selfClosing = tag.selfClosing
        at = tag.end
        for (name, value) in raw {
            if name == "xmlns" || name.hasPrefix("xmlns:"), let prefix = Self.known[value] {
                canonical[name == "xmlns" ? "" : String(name.dropFirst(6))] = prefix
            }
        }
        var attributes: [String: String] = [:]
        for (name, value) in raw where !name.hasPrefix("xmlns") {
            // Unprefixed attributes belong to no namespace, whatever the default namespace is.
            attributes[name.contains(":") ? qualified(name) : name] = value
        }
        let name = qualified(rawName)
        if selfClosing { pendingEnd = name }
        return .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private func qualified(_ name: String) -> String {
        if let colon = name.firstIndex(of: ":") {
            guard let prefix = canonical[String(name[..<colon])] else { return name }
            return prefix + name[colon...]
        }
        guard let prefix = canonical[""] else { return name }
        return prefix + ":" + name
    }

    /// A DOCTYPE may carry an internal subset in brackets, whose declarations contain ">".
    private mutating func skipDeclaration() {
        var depth = 0
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == UInt8(ascii: "[") { depth += 1 }
            else if byte == UInt8(ascii: "]") { depth -= 1 }
            else if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
    }

    private func readName(from start: Int) -> (String, Int) {
        var end = start
        while end < bytes.count, !isSpace(bytes[end]), ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(bytes[end]) {
            end += 1
        }
        return (String(decoding: bytes[start ..< end], as: UTF8.self), end)
    }

    private func starts(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { bytes[at ..< at + count].elementsEqual($0) }
    }

    private func after(_ needle: StaticString, from start: Int) -> Int {
        find(needle, from: start).map { $0 + needle.utf8CodeUnitCount } ?? bytes.count
    }

    private func find(_ needle: StaticString, from start: Int) -> Int? {
        let pattern = needle.withUTF8Buffer { Array($0) }
        var i = start
        while i + pattern.count <= bytes.count {
            if bytes[i] == pattern[0], bytes[i ..< i + pattern.count].elementsEqual(pattern) { return i }
            i += 1
        }
        return nil
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// XML has five named entities and numeric references; anything else is left as written.
    private func decode(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
        let text = String(decoding: slice, as: UTF8.self)
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let tail = rest[rest.index(after: amp)...]
            guard let semi = tail.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = tail
                continue
            }
            let name = tail[..<semi]
            var replacement: String?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let replacement {
                out += replacement
                rest = tail[tail.index(after: semi)...]
            } else {
                out += "&"
                rest = tail
            }
        }
        out += rest
        return out
    }
}
