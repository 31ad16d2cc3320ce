import Foundation
import PBCore

/// Reads an Excel workbook (Office Open XML spreadsheet): one section per sheet, in the
/// workbook's order, each sheet's rows as a table led by the sheet's row numbers (`SheetTable`).
///
/// Cell text is what the file stores: shared and inline strings, numbers as written (to 15
/// significant digits, as Excel shows them), booleans as TRUE/FALSE, errors as written, and a
/// formula's cached result. Numbers in a date or time format are dates: the serial number is
/// converted (1900 or 1904 date system, with the 1900 system's phantom 29 February) and written
/// as ISO 8601. Other number formats (currency, percentages, thousands separators) are not
/// applied: the stored value is shown.
public enum XLSXDocument {
    public static func textLayer(_ data: [UInt8], path: String) throws -> TextLayer {
        let package = try OfficePackage(data, path: path, kind: "xlsx")
        let workbookPart = try package.mainPart(fallback: "xl/workbook.xml")
        let workbook = Workbook(try package.requiredPart(workbookPart))
        let relations = try package.relationships(of: workbookPart)
        func related(_ suffix: String) -> String? { relations.first { $0.type.hasSuffix(suffix) }?.target }

        let strings = try related("/sharedStrings").flatMap { try package.part($0) }.map(sharedStrings) ?? []
        let dates = try related("/styles").flatMap { try package.part($0) }.map(DateStyles.init) ?? DateStyles()
        var drafts: [TextLayer.MarkupDraft] = []
        var read = Set<String>()
        let budget = SheetTable.Budget()
        for sheet in workbook.sheets {
            // A sheet listed twice is read once.
            guard let target = relations.first(where: { $0.id == sheet.relationship })?.target, read.insert(target).inserted,
                  let xml = try package.part(target) else { continue }
            var table = SheetTable(name: sheet.name, budget: budget)
            readSheet(xml, into: &table, strings: strings, dates: dates, date1904: workbook.date1904)
            drafts += table.drafts(path: path)
        }
        return TextLayer(format: .xlsx, title: try package.coreTitle().flatMap(TextLayer.cleanTitle), markup: drafts)
    }

    // MARK: - Workbook

    struct Workbook {
        var sheets: [(name: String, relationship: String)] = []
        var date1904 = false

        init(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            while let event = scanner.next() {
                guard case let .start(name, attributes, _) = event else { continue }
                if name == "x:sheet", let id = attributes["r:id"] {
                    sheets.append((attributes["name"] ?? "Sheet\(sheets.count + 1)", id))
                } else if name == "x:workbookPr" {
                    date1904 = ["1", "true"].contains(attributes["date1904"] ?? "")
                }
            }
        }
    }

    /// The shared string table: each `si` is plain text (`t`) or rich runs (`r/t`); phonetic
    /// guides (`rPh`) repeat the text in another script and are left out.
    static func sharedStrings(_ xml: [UInt8]) -> [String] {
        var scanner = XMLScanner(xml)
        var strings: [String] = []
        var current: String?
        var inText = false
        var phonetic = 0
        while let event = scanner.next() {
            switch event {
            case let .start(name, _, selfClosing):
                switch name {
                case "x:si": current = ""
                case "x:t": inText = !selfClosing
                case "x:rPh": phonetic += 1
                default: break
                }
            case let .end(name):
                switch name {
                case "x:si":
                    strings.append(current ?? "")
                    current = nil
                case "x:t": inText = false
                case "x:rPh": phonetic = max(0, phonetic - 1)
                default: break
                }
            case let .text(content):
                if inText, phonetic == 0, current != nil { current! += content }
            }
        }
        return strings
    }

    // MARK: - Dates

    /// Which cell styles (`s`, an index into `cellXfs`) format a number as a date or a time.
    struct DateStyles {
        enum Kind { case date, time, dateTime }
        var byStyle: [Int: Kind] = [:]

        init() {}

        init(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            var custom: [Int: String] = [:]
            var inCellFormats = false
            var index = 0
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if name == "x:numFmt", let id = attributes["numFmtId"].flatMap({ Int($0) }) {
                        custom[id] = attributes["formatCode"] ?? ""
                    } else if name == "x:cellXfs" {
                        inCellFormats = true
                    } else if name == "x:xf", inCellFormats {
                        let id = attributes["numFmtId"].flatMap { Int($0) } ?? 0
                        if let kind = custom[id].map(Self.kind(ofFormat:)) ?? Self.builtIn(id) { byStyle[index] = kind }
                        index += 1
                    }
                case let .end(name) where name == "x:cellXfs":
                    inCellFormats = false
                default:
                    break
                }
            }
        }

        /// ECMA-376's built-in number formats that are dates and times.
        static func builtIn(_ id: Int) -> Kind? {
            switch id {
            case 14 ... 17, 27 ... 31, 34 ... 36, 50 ... 58: return .date
            case 18 ... 21, 32, 33, 45 ... 47: return .time
            case 22: return .dateTime
            default: return nil
            }
        }

        /// A custom format is a date when it uses y or d, a time when h or s, outside quoted
        /// text, escapes and bracketed colours or locales ("[$-409]"), where letters mean nothing.
        static func kind(ofFormat code: String) -> Kind? {
            var date = false
            var time = false
            var quoted = false
            var bracket = false
            var escape = false
            for ch in code.lowercased() {
                if escape { escape = false; continue }
                switch ch {
                case "\\", "_", "*": escape = true
                case "\"": quoted.toggle()
                case "[" where !quoted: bracket = true
                case "]" where !quoted: bracket = false
                case "y", "d": if !quoted, !bracket { date = true }
                case "h", "s": if !quoted, !bracket { time = true }
                default: break
                }
            }
            switch (date, time) {
            case (true, true): return .dateTime
            case (true, false): return .date
            case (false, true): return .time
            default: return nil
            }
        }
    }

    /// An Excel serial number as ISO 8601. In the 1900 system day 1 is 1900-01-01 and day 60 is
    /// the 29 February 1900 that never was (kept from Lotus 1-2-3), so later serials are one day
    /// ahead of a plain count; in the 1904 system day 0 is 1904-01-01.
    static func date(serial: Double, kind: DateStyles.Kind, date1904: Bool) -> String? {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }
        var days = Int(serial.rounded(.down))
        var seconds = Int(((serial - Double(days)) * 86400).rounded())
        if seconds >= 86400 { days += 1; seconds -= 86400 }
        let time = seconds % 60 == 0
            ? String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
            : String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        if kind == .time, serial < 1 { return time }
        let epoch: Int
        if date1904 {
            epoch = daysFromCivil(1904, 1, 1)
        } else {
            if days == 60 { return kind == .date ? "1900-02-29" : "1900-02-29 " + time }
            epoch = daysFromCivil(1899, 12, days < 60 ? 31 : 30)
        }
        let (y, m, d) = civil(fromDays: epoch + days)
        let day = String(format: "%04d-%02d-%02d", y, m, d)
        switch kind {
        case .date: return seconds == 0 ? day : day + " " + time
        case .time, .dateTime: return day + " " + time
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z: Int) -> (Int, Int, Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// A stored number as Excel shows it in a General cell: at most 15 significant digits.
    static func number(_ value: String) -> String {
        guard let double = Double(value), double.isFinite else { return value }
        if double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) }
        var text = String(format: "%.15g", double)
        if text.contains("e") { return text }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    // MARK: - Sheets

    static func readSheet(_ xml: [UInt8], into table: inout SheetTable, strings: [String], dates: DateStyles, date1904: Bool) {
        var scanner = XMLScanner(xml)
        var rowNumber = 0
        var column = 0
        var cell: (type: String, style: Int?, row: Int, column: Int)?
        var value = ""
        var inValue = false
        var inline = false
        var phonetic = 0
        while let event = scanner.next() {
            switch event {
            case let .start(name, attributes, _):
                switch name {
                case "x:row":
                    // Excel stops at 1,048,576 rows; a larger number is not a row to trust.
                    rowNumber = attributes["r"].flatMap { Int($0) }.map { min($0, 10_000_000) } ?? rowNumber &+ 1
                    column = 0
                case "x:c":
                    let reference = attributes["r"].flatMap(SheetTable.cellReference)
                    column = reference?.column ?? column + 1
                    cell = (attributes["t"] ?? "n", attributes["s"].flatMap { Int($0) }, reference?.row ?? rowNumber, column)
                    value = ""
                case "x:v": inValue = cell != nil
                case "x:is": inline = cell != nil
                case "x:t" where inline: inValue = phonetic == 0
                case "x:rPh" where inline: phonetic += 1
                default: break
                }
            case let .end(name):
                switch name {
                case "x:v", "x:t": inValue = false
                case "x:rPh": phonetic = max(0, phonetic - 1)
                case "x:is": inline = false
                case "x:c":
                    if let c = cell, let text = text(value, type: c.type, style: c.style, strings: strings, dates: dates, date1904: date1904) {
                        table.set(row: c.row, column: c.column, text)
                    }
                    cell = nil
                case "x:sheetData": return
                default: break
                }
            case let .text(content):
                if inValue { value += content }
            }
        }
    }

    static func text(_ value: String, type: String, style: Int?, strings: [String], dates: DateStyles, date1904: Bool) -> String? {
        switch type {
        case "s":
            guard let index = Int(value.trimmingCharacters(in: .whitespaces)), strings.indices.contains(index) else { return nil }
            return strings[index]
        case "b":
            return value == "1" ? "TRUE" : value == "0" ? "FALSE" : value
        case "str", "inlineStr", "e", "d":
            return value
        default:
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            if let style, let kind = dates.byStyle[style], let serial = Double(trimmed),
               let date = date(serial: serial, kind: kind, date1904: date1904) {
                return date
            }
            return number(trimmed)
        }
    }
}
