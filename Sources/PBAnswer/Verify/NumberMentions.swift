/// The numbers a text mentions, in one canonical spelling so that "1,000", "1000" and
/// "1000.00" compare equal, "12%" is 12 and "3.50" is 3.5.
///
/// Digits are read as written: a comma followed by exactly three digits groups thousands, any
/// other comma separates two numbers (so "3,5" is 3 and 5 on both sides of a comparison); a
/// period followed by a digit is a decimal point; a sign, a percent sign, a unit or an ordinal
/// suffix ("21st", "1990s") is not part of the number. Number words ("three", "twenty-five",
/// "tenth") count too, because a source that writes "three bedrooms" supports an answer that
/// writes "3 bedrooms". Scale words ("1.2 million") are not multiplied out.
public enum NumberMentions {
    /// Canonical numbers written with digits, in order of appearance (repeats kept).
    public static func digits(_ text: String) -> [String] {
        let b = Array(text.utf8)
        var out: [String] = []
        var i = 0
        while i < b.count {
            guard isDigit(b[i]) else { i += 1; continue }
            var integer: [UInt8] = []
            var fraction: [UInt8] = []
            var j = i
            while j < b.count {
                if isDigit(b[j]) {
                    integer.append(b[j]); j += 1
                } else if b[j] == UInt8(ascii: ","), j + 3 < b.count,
                          isDigit(b[j + 1]), isDigit(b[j + 2]), isDigit(b[j + 3]),
                          j + 4 == b.count || !isDigit(b[j + 4]) {
                    j += 1 // a thousands separator: the next three digits continue the number
                } else {
                    break
                }
            }
            if j + 1 < b.count, b[j] == UInt8(ascii: "."), isDigit(b[j + 1]) {
                j += 1
                while j < b.count, isDigit(b[j]) { fraction.append(b[j]); j += 1 }
            }
            out.append(canonical(integer: integer, fraction: fraction))
            i = j
        }
        return out
    }

    /// Canonical numbers written as English words, in order of appearance.
    public static func words(_ text: String) -> [String] {
        let tokens = lowercaseWords(text)
        var out: [String] = []
        var i = 0
        while i < tokens.count {
            if let tens = Self.tens[tokens[i]] {
                // "twenty-five" and "twenty five" are one number.
                if i + 1 < tokens.count, let unit = Self.units[tokens[i + 1]], unit > 0, unit < 10 {
                    out.append(String(tens + unit)); i += 2; continue
                }
                out.append(String(tens))
            } else if let v = Self.units[tokens[i]] ?? Self.ordinals[tokens[i]] {
                out.append(String(v))
            }
            i += 1
        }
        return out
    }

    /// Periods written as decades or centuries, each with the number `digits` reads in it and the
    /// years it spans: "1960s" is 1960 for 1960...1969, "1700s" 1700 for 1700...1799, "16th century"
    /// 16 for 1500...1599. A question about the 1700s is answered by a sentence about 1752 or about
    /// the 18th century.
    public static func periods(_ text: String) -> [(number: String, years: ClosedRange<Int>)] {
        var out: [(number: String, years: ClosedRange<Int>)] = []
        let words = text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        for (i, w) in words.enumerated() {
            let digits = w.prefix { $0.isASCII && $0.isNumber }
            let suffix = w.dropFirst(digits.count)
            guard let n = Int(digits) else { continue }
            if suffix == "s", digits.count == 4, n % 10 == 0 {
                out.append((String(n), n % 100 == 0 ? n...(n + 99) : n...(n + 9)))
            } else if ["st", "nd", "rd", "th"].contains(suffix), n >= 1, n <= 21, i + 1 < words.count,
                      words[i + 1] == "century" || words[i + 1] == "centuries" {
                out.append((String(n), ((n - 1) * 100)...(n * 100 - 1)))
            }
        }
        return out
    }

    /// Whether `text` speaks of a time within `years`: a year in it (three or four digits), or a
    /// decade or century that overlaps it.
    public static func mentions(_ years: ClosedRange<Int>, in text: String) -> Bool {
        if periods(text).contains(where: { $0.years.overlaps(years) }) { return true }
        return digits(text).contains { d in
            guard d.count >= 3, d.count <= 4, let y = Int(d) else { return false }
            return years.contains(y)
        }
    }

    /// Every number mentioned, in digits or words, as a set.
    public static func all(_ text: String) -> Set<String> {
        Set(digits(text)).union(words(text))
    }

    static func canonical(integer: [UInt8], fraction: [UInt8]) -> String {
        var intPart = Array(integer.drop { $0 == UInt8(ascii: "0") })
        if intPart.isEmpty { intPart = [UInt8(ascii: "0")] }
        var frac = fraction
        while frac.last == UInt8(ascii: "0") { frac.removeLast() }
        let s = String(decoding: intPart, as: UTF8.self)
        return frac.isEmpty ? s : s + "." + String(decoding: frac, as: UTF8.self)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func lowercaseWords(_ text: String) -> [String] {
        var out: [String] = []
        var word = ""
        for ch in text.lowercased() {
            if ch.isLetter { word.append(ch) } else if !word.isEmpty { out.append(word); word = "" }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }

    static let units: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "hundred": 100, "thousand": 1000, "dozen": 12,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "twentieth": 20, "hundredth": 100,
    ]
}
