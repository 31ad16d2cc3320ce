import Foundation

/// One property of an iCalendar (RFC 5545 3.1) or vCard (RFC 6350 3.3, RFC 2426, vCard 2.1) file
/// after unfolding: `[group.]NAME[;PARAM=value[,value]]...:value`.
///
/// Both formats fold a long line by breaking it and starting the next line with a space or a tab;
/// values escape `\,` `\;` `\n` and `\\`. vCard 2.1 also writes bare parameters (`TEL;CELL;HOME:`,
/// read as TYPE values) and QUOTED-PRINTABLE values, whose soft line break is an `=` at the end of
/// a line, in the CHARSET the parameter names.
struct ContentLine: Equatable {
    /// vCard's property group ("item1" of `item1.TEL`), lowercased; nil without one.
    var group: String?
    /// Uppercased.
    var name: String
    /// Parameter names uppercased, in order; each with its values (comma-separated, quotes removed).
    var parameters: [(name: String, values: [String])]
    /// The value as written (still escaped), quoted-printable decoded.
    var value: String
    /// The physical line the property starts on, from 1.
    var line: Int

    static func == (a: ContentLine, b: ContentLine) -> Bool {
        a.group == b.group && a.name == b.name && a.value == b.value && a.line == b.line
            && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.values) == b.parameters.map(\.values)
    }

    /// The first value of a parameter.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// TYPE values, lowercased: `TYPE=CELL,VOICE`, `TYPE="work,voice"` (4.0 quotes the list),
    /// `TYPE=cell;TYPE=home`, 2.1's bare `;CELL`.
    var types: [String] {
        parameters.filter { $0.name == "TYPE" }.flatMap(\.values)
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The value unescaped: `\,` `\;` `\\` and `\n` (or `\N`, a line break); a backslash before
    /// anything else stands for itself and the character.
    var text: String { Self.unescape(value) }

    /// The value split at commas (or `separator`) that are not escaped, each part unescaped.
    func list(_ separator: Character = ",") -> [String] {
        Self.split(value, separator).map(Self.unescape)
    }

    static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        var escaped = false
        for ch in value {
            if escaped {
                switch ch {
                case "n", "N": out.append("\n")
                case ",", ";", "\\", ":", "\"": out.append(ch)
                default: out.append("\\"); out.append(ch)
                }
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.append(ch)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// Splits at `separator` where it is not escaped; the parts keep their escapes.
    static func split(_ value: String, _ separator: Character) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for ch in value {
            if escaped { current.append(ch); escaped = false; continue }
            if ch == "\\" { current.append(ch); escaped = true; continue }
            if ch == separator { out.append(current); current = ""; continue }
            current.append(ch)
        }
        out.append(current)
        return out
    }

    // MARK: - Reading

    /// The file's bytes with UTF-16 or UTF-32 (Outlook and Windows write vCards so) converted to
    /// UTF-8 and a UTF-8 byte-order mark dropped. Whether the rest is UTF-8 is judged line by line
    /// once lines are unfolded, since a fold may fall inside a character (folding counts octets).
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        let encoding = TextEncoding.detect(bytes)
        if encoding != .utf8, let converted = encoding.utf8Bytes(bytes) { return converted }
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// Every content line of `bytes`, unfolded. Lines end at CRLF, LF or a lone CR; a line
    /// without a colon, or with nothing before it, is not a property and is skipped. A line that
    /// is not UTF-8 is taken as Windows-1252, as old exports wrote them. Linear in the input,
    /// whatever its lines' lengths.
    static func read(_ bytes: [UInt8]) -> [ContentLine] {
        var out: [ContentLine] = []
        var logical: [UInt8] = []
        var startLine = 0
        var physical = 0
        var quotedPrintable = false
        var softBreak = false
        var i = 0
        let n = bytes.count
        func finish() {
            if !logical.isEmpty, let p = parse(logical, line: startLine, quotedPrintable: quotedPrintable) { out.append(p) }
            logical.removeAll(keepingCapacity: true)
        }
        while i < n {
            // One physical line: bytes[i..<end], then its line break.
            var end = i
            while end < n, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            physical += 1
            let line = bytes[i..<end]
            if softBreak {
                // A quoted-printable value goes on, whatever this line starts with.
                logical += line
            } else if let first = line.first, first == 0x20 || first == 0x09, !logical.isEmpty {
                logical += line.dropFirst()
            } else {
                finish()
                startLine = physical
                logical += line
                quotedPrintable = isQuotedPrintable(logical)
            }
            softBreak = false
            if quotedPrintable, logical.last == UInt8(ascii: "=") {
                logical.removeLast()
                softBreak = true
            }
            i = end
            if i < n, bytes[i] == 0x0D { i += 1 }
            if i < n, bytes[i] == 0x0A { i += 1 }
        }
        finish()
        return out
    }

    /// Whether a line's parameters (before its value's colon) say ENCODING=QUOTED-PRINTABLE.
    static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
        guard let colon = valueColon(line) else { return false }
        let head = String(decoding: line[..<colon], as: UTF8.self).uppercased()
        return head.contains("QUOTED-PRINTABLE")
    }

    /// The colon that ends the name and parameters: the first outside a quoted parameter value.
    static func valueColon(_ line: [UInt8]) -> Int? {
        var quoted = false
        for (k, b) in line.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle() } else if b == UInt8(ascii: ":"), !quoted { return k }
        }
        return nil
    }

    static func parse(_ raw: [UInt8], line number: Int, quotedPrintable: Bool) -> ContentLine? {
        let line = String(validating: raw, as: UTF8.self) != nil ? raw : HTMLDocument.decode(raw)
        guard let colon = valueColon(line), colon > 0 else { return nil }
        // Name and parameters: `;` separates parameters, outside quotes.
        var pieces: [String] = []
        var current: [UInt8] = []
        var quoted = false
        for b in line[..<colon] {
            if b == UInt8(ascii: "\"") { quoted.toggle(); current.append(b); continue }
            if b == UInt8(ascii: ";"), !quoted { pieces.append(String(decoding: current, as: UTF8.self)); current = []; continue }
            current.append(b)
        }
        pieces.append(String(decoding: current, as: UTF8.self))
        var name = pieces.removeFirst().trimmingCharacters(in: .whitespaces).uppercased()
        var group: String?
        if let dot = name.lastIndex(of: ".") {
            group = String(name[..<dot]).lowercased()
            name = String(name[name.index(after: dot)...])
        }
        guard !name.isEmpty else { return nil }
        var parameters: [(name: String, values: [String])] = []
        for piece in pieces {
            let kv = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = kv.count == 2 ? kv[0].trimmingCharacters(in: .whitespaces).uppercased() : "TYPE"
            let raw = kv.count == 2 ? String(kv[1]) : piece
            // An empty parameter (";;", ";=") says nothing.
            guard !key.isEmpty, !raw.isEmpty else { continue }
            let values = splitParameterValues(raw)
            if kv.count == 1, ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT"].contains(raw.uppercased()) {
                parameters.append((name: "ENCODING", values: values))
            } else {
                parameters.append((name: key, values: values))
            }
        }
        var valueBytes = Array(line[(colon + 1)...])
        if quotedPrintable {
            valueBytes = decodeQuotedPrintable(valueBytes)
            let charset = parameters.first { $0.name == "CHARSET" }?.values.first
            valueBytes = MailDocument.decodeCharset(valueBytes, charset)
        }
        return ContentLine(group: group, name: name, parameters: parameters, value: String(decoding: valueBytes, as: UTF8.self), line: number)
    }

    /// `a,"b,c",d` as three values, quotes removed.
    static func splitParameterValues(_ raw: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for ch in raw {
            if ch == "\"" { quoted.toggle(); continue }
            if ch == ",", !quoted { out.append(current); current = ""; continue }
            current.append(ch)
        }
        out.append(current)
        return out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `=E9`-style bytes decoded; an `=` not followed by two hex digits is kept as written.
    static func decodeQuotedPrintable(_ u: [UInt8]) -> [UInt8] {
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "="), i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return out
    }
}
