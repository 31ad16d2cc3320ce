import Foundation
import PBCore

/// The values of each kind a text holds, located: amounts of money, numbers with units, dates,
/// times, telephone numbers, e-mail and postal addresses, codes.
///
/// A lookup is answered by a value of the kind it asks for, and never by another kind that
/// happens to be nearby: "what is Dave's phone number?" is not answered by his six-digit Gas Safe
/// registration, nor "what is the front tyre pressure?" by a line that says where the pressures
/// are written. The rules are the written forms a household's documents use (British and
/// international): a currency sign or code beside a number; a number followed by a unit word or
/// symbol; a telephone number as 9 to 15 digits in groups opening with "+" or "0"; a postcode.
public enum ValueMentions {
    /// One value found in a text: its kind, its measure when it is a quantity, and where it is.
    public struct Mention: Equatable, Sendable {
        public var kind: AskedValue
        public var measure: Measure?
        /// Character range in the text (String.Index offsets as UTF-16 for NSRange use).
        public var range: NSRange
        public var text: String
    }

    /// Every value of `kind` in `text` (and of `measure`, for a quantity, when one is given).
    public static func find(_ kind: AskedValue, measure: Measure? = nil, in text: String) -> [Mention] {
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        func matches(_ re: NSRegularExpression) -> [NSRange] { re.matches(in: text, range: whole).map(\.range) }
        func mention(_ r: NSRange, _ m: Measure? = nil) -> Mention { Mention(kind: kind, measure: m, range: r, text: ns.substring(with: r)) }
        switch kind {
        case .money:
            return matches(Patterns.money).map { mention($0) }
        case .quantity:
            var out: [Mention] = []
            for m in matches(Patterns.quantity) {
                let unitText = ns.substring(with: m).lowercased()
                guard let found = Measure.of(quantity: unitText) else { continue }
                // "one a", "an s": a number in words takes a unit in words ("three months").
                if unitText.first?.isNumber != true, (unitText.split(separator: " ").last?.count ?? 0) < 3 { continue }
                if let measure, found != measure { continue }
                out.append(mention(m, found))
            }
            // A duration in words ("three months", "a week", "two years").
            if measure == nil || measure == .duration {
                out += matches(Patterns.wordDuration).map { mention($0, .duration) }
            }
            return out
        case .number:
            return matches(Patterns.number).map { mention($0) } + matches(Patterns.numberWord).map { mention($0) }
        case .date:
            return matches(Patterns.date).map { mention($0) }
        case .time:
            return matches(Patterns.time).map { mention($0) }
        case .phone:
            return matches(Patterns.phone).filter { r in
                let digits = ns.substring(with: r).filter(\.isNumber).count
                return (9...15).contains(digits)
            }.map { mention($0) }
        case .email:
            return matches(Patterns.email).map { mention($0) }
        case .address:
            return matches(Patterns.postcode).map { mention($0) } + matches(Patterns.street).map { mention($0) }
        case .code:
            return matches(Patterns.code).map { mention($0) }
        case .name:
            return names(in: text)
        case .yesNo:
            return []
        }
    }

    /// Whether `text` holds a value of `kind` that is not one of `exclude` (the question's own
    /// values: "is 2.4 bar right for the front tyres?" is not answered by its own 2.4 bar).
    /// A yes/no question can be answered by any statement.
    /// In a table row (`tableRow`), a number with two decimals is an amount of money too: a
    /// receipt's or a statement's column of prices rarely repeats the currency.
    public static func holds(_ kind: AskedValue, measure: Measure? = nil, in text: String, excluding exclude: Set<String> = [],
                             tableRow: Bool = false) -> Bool {
        if kind == .yesNo { return true }
        if find(kind, measure: measure, in: text).contains(where: { !exclude.contains(normalised($0.text)) }) { return true }
        // "When is it returned?" is answered by "within 10 days of the end of the tenancy" and
        // "at 09:30" as well as by a date.
        if kind == .date {
            return holds(.time, in: text, excluding: exclude) || holds(.quantity, measure: .duration, in: text, excluding: exclude)
        }
        guard kind == .money else { return false }
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        if tableRow, Patterns.moneyColumn.firstMatch(in: text, range: whole) != nil { return true }
        // A row, or a short line ending in a price (a receipt's "Cheddar 400g | 4.10").
        let short = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "|" }).count <= 8
        return Patterns.price.matches(in: text, range: whole).contains { m in
            guard !exclude.contains(normalised(ns.substring(with: m.range))) else { return false }
            let atEnd = ns.substring(from: m.range.location + m.range.length).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            return tableRow || (short && atEnd)
        }
    }

    /// A value's spelling for comparison: lowercased, spaces out.
    public static func normalised(_ text: String) -> String {
        text.lowercased().filter { !$0.isWhitespace }
    }

    /// Capitalised words that do not open a sentence or line, as names of people and firms.
    static func names(in text: String) -> [Mention] {
        let ns = text as NSString
        return Patterns.name.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let r = m.range
            let word = ns.substring(with: r)
            // The first word of a sentence or line is capitalised whatever it is.
            var i = r.location - 1
            while i >= 0, let c = Unicode.Scalar(ns.character(at: i)), c == " " || c == "\t" || c == "\"" || c == "(" { i -= 1 }
            if i < 0 { return nil }
            if let c = Unicode.Scalar(ns.character(at: i)), ".!?\n:".unicodeScalars.contains(c) { return nil }
            if Stopwords.english.contains(word.lowercased()) || MonthSpellings.names.contains(word.lowercased()) { return nil }
            return Mention(kind: .name, measure: nil, range: r, text: word)
        }
    }

    enum Patterns {
        static func re(_ p: String, _ options: NSRegularExpression.Options = [.caseInsensitive]) -> NSRegularExpression {
            try! NSRegularExpression(pattern: p, options: options)
        }
        static let amount = #"\d{1,3}(?:[,\x{202F} ]\d{3})*(?:\.\d+)?|\d+(?:[.,]\d+)?"#
        nonisolated(unsafe) static let money = re(
            #"(?:[£$€¥]|\b(?:GBP|EUR|USD|CHF)\)?:?\s?)\s?(?:"# + amount + #")(?:\s?(?:million|m|bn|k)\b)?"#
            + #"|\b(?:"# + amount + #")\s?(?:GBP|EUR|USD|CHF|pounds?|euros?|dollars?|pence|p\b)"#)
        /// A number, then a unit: the unit is checked against `Measure`'s lists.
        nonisolated(unsafe) static let quantity = re(
            #"(?<![\w.])(?:\d+(?:[.,]\d+)?(?:\s?[–-]\s?\d+(?:[.,]\d+)?)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|a|an|half an?)\s?(?:°\s?[CF]\b|%|per cent\b|percent\b|[a-zA-Z]+(?:\([A-Za-z]\))?(?:/[a-zA-Z]+)?)"#)
        nonisolated(unsafe) static let wordDuration = re(
            #"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\s(?:calendar\s|working\s|clear\s)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b"#)
        /// A row read under its header: a number in a column that names an amount ("Amount: 1150").
        nonisolated(unsafe) static let moneyColumn = re(
            #"\b(?:amount|cost|price|total|paid|paid in|paid out|fee|rent|balance|saved|target|budget|spent|value|charge|debit|credit|net|gross|deposit|excess|premium|[£$€])[^:;]{0,20}:\s?-?\d"#)
        /// A price in a row: digits, two decimals, a thousands comma only inside quotes or prose
        /// ("1,150.00"); in a CSV record a comma before it separates fields ("Electricity,86.40").
        nonisolated(unsafe) static let price = re(#"(?<![\w.])\d{1,3}(?:,\d{3})*\.\d{2}(?![\w.]?\d)|(?<=,)\d+\.\d{2}(?![\w.]?\d)"#)
        nonisolated(unsafe) static let number = re(#"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])"#)
        nonisolated(unsafe) static let numberWord = re(#"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|dozen)\b"#)
        static let month = #"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"#
        nonisolated(unsafe) static let date = re(
            #"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b"#
            + #"|\b\d{1,2}(?:st|nd|rd|th)?\s(?:of\s)?"# + month + #"(?:,?\s\d{4})?\b"#
            + #"|\b"# + month + #"\s\d{1,2}(?:st|nd|rd|th)?(?:,?\s\d{4})?\b"#
            + #"|\b"# + month + #"\s\d{4}\b|\b\d{4}-\d{2}\b"#
            + #"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b|\b(?:1[0-9]|20|21)\d{2}s?\b"#
            + #"|\b\d{1,2}(?:st|nd|rd|th) (?:century|centuries|millennium)\b|\b(?:today|tomorrow|yesterday)\b"#)
        nonisolated(unsafe) static let time = re(
            #"\b(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s?[ap]\.?m\.?)?\b|\b(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?(?![a-z])|\bnoon\b|\bmidday\b|\bmidnight\b|\bhalf past \w+|\bquarter (?:past|to) \w+|\b\w+ o'clock\b"#)
        nonisolated(unsafe) static let phone = re(#"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(0\d{1,4}\)|0\d{1,4})?(?:[\s.-]?\d{2,5}){2,4}(?![\w])|\+\d[\d\s.-]{8,18}\d"#)
        nonisolated(unsafe) static let email = re(#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#)
        nonisolated(unsafe) static let postcode = re(#"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"#, [])
        nonisolated(unsafe) static let street = re(
            #"\b\d{1,4}[a-z]?,?\s(?:[A-Z][\w'’-]*\s){1,3}(?:Street|St|Road|Rd|Lane|Ln|Avenue|Ave|Close|Drive|Dr|Way|Place|Pl|Crescent|Court|Ct|Gardens|Grove|Terrace|Square|Hill|Row|Mews|Parade|Walk|Green|Park)\b"#, [])
        /// Letters and digits in one token ("E24", "DW-450", "A1B2-C3D4"), or a run of 4 to 12
        /// digits that is a reference or PIN rather than an amount (no decimal point, no unit).
        nonisolated(unsafe) static let code = re(
            #"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{1,19}\b|(?<![\d.,£$€])\b\d{4,12}\b(?![.,]\d)"#, [])
        nonisolated(unsafe) static let name = re(#"\b\p{Lu}[\p{Ll}’'-]+(?:\s\p{Lu}[\p{Ll}’'-]+)*"#, [])
    }
}
