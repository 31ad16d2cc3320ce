import Foundation

/// One person of a vCard file (RFC 2426 for version 3.0, RFC 6350 for 4.0; 2.1 as phones and
/// older exports write it): the names, nicknames, phones, email and postal addresses, birthday,
/// organisation and job title PocketBrains uses.
public struct VCard: Equatable, Sendable {
    public struct Value: Equatable, Sendable {
        public var value: String
        /// Lowercased TYPE values ("cell", "work", "home", "pref").
        public var types: [String]
        /// PREF=1 in 4.0, TYPE=pref in 3.0.
        public var preferred: Bool
    }

    public var fullName: String
    public var given: String
    public var family: String
    public var nicknames: [String]
    public var phones: [Value]
    public var emails: [Value]
    public var organization: String?
    public var uid: String?
    /// ADR, each as one line ("22 Rua de São Miguel, Lisbon, 1100-001, Portugal"), with its TYPE.
    public var addresses: [Value] = []
    /// BDAY as ISO 8601: "1985-04-12", or "--04-12" when the year is not given (4.0).
    public var birthday: String?
    /// TITLE: the job title.
    public var title: String?

    /// The address to use for a channel: the preferred one, else a mobile for messages, else the first.
    public var email: String? { (emails.first(where: \.preferred) ?? emails.first)?.value }
    public var mobile: String? {
        (phones.first(where: { $0.types.contains("cell") || $0.types.contains("mobile") }) ?? phones.first(where: \.preferred) ?? phones.first)?.value
    }

    /// Every vCard in `text`. Lines are unfolded (a line that starts with a space or a tab goes on
    /// the one before, as RFC 6350 3.2 says), property groups ("item1.EMAIL") are dropped, and
    /// values are unescaped ("\,", "\;", "\n"); 2.1's QUOTED-PRINTABLE values are decoded.
    public static func parse(_ text: String) -> [VCard] {
        var cards: [VCard] = []
        var current: VCard?
        for line in unfold(text) {
            guard let colon = valueColon(line) else { continue }
            let head = line[..<colon]
            var value = String(line[line.index(after: colon)...])
            var parts = head.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            var name = parts.removeFirst().uppercased()
            if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
            var types: [String] = []
            var preferred = false
            var quotedPrintable = false
            for p in parts {
                let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
                // An empty parameter (";;", "=") says nothing (found by make fuzz).
                guard !kv.isEmpty else { continue }
                let key = kv.count == 2 ? kv[0].uppercased() : "TYPE"
                let v = (kv.count == 2 ? kv[1] : kv[0]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                switch key {
                case "TYPE":
                    for t in v.split(separator: ",") { types.append(t.lowercased()) }
                case "PREF": preferred = true
                case "ENCODING" where v.uppercased() == "QUOTED-PRINTABLE": quotedPrintable = true
                default: break
                }
            }
            if types.contains("pref") { preferred = true }
            if quotedPrintable { value = decodeQuotedPrintable(value) }
            switch name {
            case "BEGIN" where value.uppercased() == "VCARD":
                current = VCard(fullName: "", given: "", family: "", nicknames: [], phones: [], emails: [], organization: nil, uid: nil)
            case "END" where value.uppercased() == "VCARD":
                if var c = current {
                    if c.fullName.isEmpty { c.fullName = [c.given, c.family].filter { !$0.isEmpty }.joined(separator: " ") }
                    if c.given.isEmpty, c.family.isEmpty, !c.fullName.isEmpty {
                        let words = c.fullName.split(separator: " ").map(String.init)
                        c.given = words.first ?? ""
                        c.family = words.count > 1 ? words.last! : ""
                    }
                    if !c.fullName.isEmpty || !c.emails.isEmpty || !c.phones.isEmpty { cards.append(c) }
                }
                current = nil
            case "FN": current?.fullName = unescape(value)
            case "N":
                let fields = splitEscaped(value, ";")
                current?.family = fields.first.map(unescape) ?? ""
                current?.given = fields.count > 1 ? unescape(fields[1]) : ""
            case "NICKNAME":
                current?.nicknames += splitEscaped(value, ",").map(unescape).filter { !$0.isEmpty }
            case "TEL":
                var v = unescape(value)
                if v.lowercased().hasPrefix("tel:") { v = String(v.dropFirst(4)) }
                if !v.isEmpty { current?.phones.append(Value(value: v, types: types, preferred: preferred)) }
            case "EMAIL":
                var v = unescape(value)
                if v.lowercased().hasPrefix("mailto:") { v = String(v.dropFirst(7)) }
                if !v.isEmpty { current?.emails.append(Value(value: v, types: types, preferred: preferred)) }
            case "ORG": current?.organization = splitEscaped(value, ";").first.map(unescape)
            case "UID": current?.uid = unescape(value)
            case "ADR":
                // Post office box; extended address; street; locality; region; postal code; country.
                let line = splitEscaped(value, ";").map { unescape($0).trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }.joined(separator: ", ")
                if !line.isEmpty { current?.addresses.append(Value(value: line, types: types, preferred: preferred)) }
            case "BDAY": current?.birthday = Self.isoDate(unescape(value))
            case "TITLE": current?.title = unescape(value)
            default: break
            }
        }
        return cards
    }

    /// The colon that ends a property's name and parameters (one inside a quoted parameter
    /// value, as in `TYPE="a:b"`, does not count).
    static func valueColon(_ line: Substring) -> Substring.Index? {
        var quoted = false
        for i in line.indices {
            if line[i] == "\"" { quoted.toggle() }
            if line[i] == ":", !quoted { return i }
        }
        return nil
    }

    /// A vCard date as ISO 8601: 3.0 writes "1985-04-12" or "19850412" (perhaps with a time after
    /// "T"), 4.0 also "--0412" or "--04-12" for a day without its year. Anything else is kept as
    /// written (4.0 allows text: VALUE=text "circa 1800").
    static func isoDate(_ raw: String) -> String? {
        let v = raw.trimmingCharacters(in: .whitespaces)
        guard !v.isEmpty else { return nil }
        let day = v.split(separator: "T", maxSplits: 1).first.map(String.init) ?? v
        let digits = day.filter(\.isNumber)
        if day.hasPrefix("--"), digits.count == 4 {
            return "--" + digits.prefix(2) + "-" + digits.suffix(2)
        }
        if digits.count == 8, day.allSatisfy({ $0.isNumber || $0 == "-" }) {
            let d = Array(digits)
            return String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
        }
        return v
    }

    static func unfold(_ text: String) -> [Substring] {
        var out: [Substring] = []
        var current = ""
        var any = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if let first = line.first, first == " " || first == "\t", any {
                current += line.dropFirst()
            } else {
                if any { out.append(Substring(current)) }
                current = String(line)
                any = true
            }
            // 2.1's quoted-printable soft line break: "=" at the end joins the next line.
            if current.hasSuffix("="), current.uppercased().contains("QUOTED-PRINTABLE") { current.removeLast(); any = true; continue }
        }
        if any { out.append(Substring(current)) }
        return out.filter { !$0.isEmpty }
    }

    static func splitEscaped(_ value: String, _ separator: Character) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for ch in value {
            if escaped { current.append("\\"); current.append(ch); escaped = false; continue }
            if ch == "\\" { escaped = true; continue }
            if ch == separator { out.append(current); current = ""; continue }
            current.append(ch)
        }
        out.append(current)
        return out
    }

    static func unescape(_ value: String) -> String {
        var out = ""
        var escaped = false
        for ch in value {
            if escaped {
                out.append(ch == "n" || ch == "N" ? "\n" : ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.append(ch)
            }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    static func decodeQuotedPrintable(_ s: String) -> String {
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "="), i + 2 < u.count, let b = UInt8(String(decoding: u[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(b)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
