import Foundation

/// The citation markers of an answer's text: "[1]", "[2, 3]", "[1][4]".
public enum CitationMarkers {
    public struct Scan: Equatable, Sendable {
        /// Every cited number, in order of appearance (repeats kept).
        public var numbers: [Int] = []
        /// The text with the markers (and the space before each) removed.
        public var stripped: String = ""
        /// Bracketed texts that start like a marker but are not one ("[1", "[0]", "[1 and 2]").
        public var malformed: [String] = []
    }

    public static func scan(_ text: String) -> Scan {
        var out = Scan()
        let chars = Array(text)
        var kept: [Character] = []
        var i = 0
        while i < chars.count {
            guard chars[i] == "[" else { kept.append(chars[i]); i += 1; continue }
            var j = i + 1
            while j < chars.count, chars[j] != "]", chars[j] != "[", chars[j] != "\n", j - i < 40 { j += 1 }
            let inner = String(chars[(i + 1)..<min(j, chars.count)])
            let closed = j < chars.count && chars[j] == "]"
            let looksNumeric = inner.first.map { $0.isNumber } ?? false
            if closed, let numbers = parse(inner) {
                out.numbers += numbers
                while kept.last == " " { kept.removeLast() }
                i = j + 1
                continue
            }
            if looksNumeric { out.malformed.append("[" + inner + (closed ? "]" : "")) }
            kept.append(chars[i])
            i += 1
        }
        out.stripped = String(kept)
        return out
    }

    /// "1", "1, 2", "1;3", "2-4" as numbers (each at least 1); nil when it is not a marker.
    static func parse(_ inner: String) -> [Int]? {
        var numbers: [Int] = []
        for part in inner.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let p = part.trimmingCharacters(in: .whitespaces)
            let range = p.split(whereSeparator: { $0 == "-" || $0 == "–" }).map { $0.trimmingCharacters(in: .whitespaces) }
            if range.count == 2, let a = Int(range[0]), let b = Int(range[1]), a >= 1, b >= a, b - a < 50 {
                numbers += Array(a...b)
            } else if let n = Int(p), n >= 1 {
                numbers.append(n)
            } else {
                return nil
            }
        }
        return numbers.isEmpty ? nil : numbers
    }
}
