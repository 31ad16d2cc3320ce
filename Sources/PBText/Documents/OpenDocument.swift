import Foundation
import PBCore

/// Reads OpenDocument text (ODT) and spreadsheets (ODS), as LibreOffice writes them, from the
/// package's `content.xml`, with the title from `meta.xml`.
///
/// Text: headings (`text:h` and its outline level), paragraphs, lists (numbered or bulleted by
/// their list style), tables, text boxes and footnotes (after the paragraph that cites them).
/// Tracked deletions, comments and the footnote numbers themselves are not text of the document
/// and are skipped. Spreadsheets: one section per sheet, its rows as a table (see `SheetTable`).
public enum OpenDocument {
    public static func textLayer(_ data: [UInt8], path: String, format: DocumentFormat) throws -> TextLayer {
        let package = try OfficePackage(data, path: path, kind: format.rawValue)
        let (content, metaTitle) = try package.openDocument()
        if format == .ods {
            var reader = SpreadsheetReader()
            reader.read(content)
            let drafts = reader.sheets.flatMap { $0.drafts(path: path) }
            return TextLayer(format: .ods, title: metaTitle.flatMap(TextLayer.cleanTitle), markup: drafts)
        }
        var reader = TextReader()
        // List styles live in content.xml's automatic styles and in styles.xml.
        reader.listStyles.read(content)
        if let styles = try package.part("styles.xml") { reader.listStyles.read(styles) }
        reader.read(content)
        let title = metaTitle.flatMap(TextLayer.cleanTitle) ?? reader.titleParagraph.flatMap(TextLayer.cleanTitle)
            ?? reader.firstH1.flatMap(TextLayer.cleanTitle)
        return TextLayer(format: .odt, title: title, markup: reader.drafts)
    }

    /// Elements whose content is not the document's text.
    static let skipped: Set<String> = [
        "text:tracked-changes", "office:annotation", "text:note-citation", "text:sequence-decls",
        "office:forms", "text:variable-decls", "text:user-field-decls", "table:shapes", "office:automatic-styles",
        "office:font-face-decls", "office:scripts", "table:named-expressions", "table:database-ranges",
        "presentation:notes", "text:table-of-content-source", "text:alphabetical-index-source",
    ]

    /// Inline content common to both readers: spans, links, spaces, tabs and line breaks.
    static func inline(_ name: String, _ attributes: [String: String]) -> String? {
        switch name {
        // Runs of spaces are indentation at most; a thousand would only multiply the file.
        case "text:s": return String(repeating: " ", count: min(max(Int(attributes["text:c"] ?? "1") ?? 1, 1), 16))
        case "text:tab": return "\t"
        case "text:line-break": return "\n"
        default: return nil
        }
    }

    // MARK: - List styles

    /// Which list styles number their items, by style name and level.
    struct ListStyles {
        var numbered: [String: Set<Int>] = [:]

        mutating func read(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            var style: String?
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if name == "text:list-style" { style = attributes["style:name"] }
                    if name == "text:list-level-style-number", let style, let level = attributes["text:level"].flatMap({ Int($0) }),
                       let format = attributes["style:num-format"], !format.isEmpty {
                        numbered[style, default: []].insert(level)
                    }
                case let .end(name) where name == "text:list-style":
                    style = nil
                default:
                    break
                }
            }
        }
    }

    // MARK: - Text documents

    struct TextReader {
        var listStyles = ListStyles()
        var drafts: [TextLayer.MarkupDraft] = []
        var titleParagraph: String?
        var firstH1: String?

        /// Paragraph styles that derive from "Title", from content.xml's automatic styles.
        private var titleStyles: Set<String> = ["Title"]
        private var skipDepth = 0
        private var inBody = false

        /// The paragraph or heading being read; nested ones (text boxes) add to it.
        private var paragraphDepth = 0
        private var text = ""
        private var headingLevel: Int?
        private var paragraphStyle: String?
        private var notes: [String] = []
        private var noteDepth = 0
        private var note = ""

        /// Open lists: their style (inherited by nested lists) and the next number.
        private var lists: [(style: String?, next: Int)] = []
        private var items: [String] = []

        private var tableDepth = 0
        private var rows: [[String]] = []
        private var row: [String]?
        private var cell: String?
        private var repeatCell = 1
        /// Cells the document's tables may still hold, repeated ones counted.
        private var cellBudget = SheetTable.maximumCells

        mutating func read(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if name == "style:style", attributes["style:parent-style-name"].map(titleStyles.contains) == true,
                       let styleName = attributes["style:name"] {
                        titleStyles.insert(styleName)
                    }
                    if name == "office:text" { inBody = true }
                    guard inBody else { continue }
                    if OpenDocument.skipped.contains(name) { skipDepth += 1 } else if skipDepth == 0 { start(name, attributes) }
                case let .end(name):
                    guard inBody else { continue }
                    if name == "office:text" { inBody = false; continue }
                    if OpenDocument.skipped.contains(name) { skipDepth = max(0, skipDepth - 1) } else if skipDepth == 0 { end(name) }
                case let .text(content):
                    guard inBody, skipDepth == 0, paragraphDepth > 0 else { continue }
                    if noteDepth > 0 { note += content } else { text += content }
                }
            }
            finishList()
        }

        private mutating func start(_ name: String, _ attributes: [String: String]) {
            if let inline = OpenDocument.inline(name, attributes) {
                if noteDepth > 0 { note += inline } else if paragraphDepth > 0 { text += inline }
                return
            }
            switch name {
            case "text:p", "text:h":
                paragraphDepth += 1
                if noteDepth > 0 {
                    if !note.isEmpty { note += " " }
                } else if paragraphDepth == 1 {
                    text = ""
                    paragraphStyle = attributes["text:style-name"]
                    headingLevel = name == "text:h" ? min(max(Int(attributes["text:outline-level"] ?? "1") ?? 1, 1), 6) : nil
                } else {
                    text += " "
                }
            case "text:note-body":
                noteDepth += 1
            case "text:list":
                if paragraphDepth == 0, tableDepth == 0, lists.isEmpty { finishList() }
                lists.append((attributes["text:style-name"] ?? lists.last?.style, 1))
            case "table:table":
                if tableDepth == 0, paragraphDepth == 0 {
                    finishList()
                    rows = []
                }
                tableDepth += 1
            case "table:table-row" where tableDepth == 1:
                row = []
            case "table:table-cell" where tableDepth == 1, "table:covered-table-cell" where tableDepth == 1:
                cell = ""
                repeatCell = min(max(Int(attributes["table:number-columns-repeated"] ?? "1") ?? 1, 1), SheetTable.maximumColumns)
            default:
                break
            }
        }

        private mutating func end(_ name: String) {
            switch name {
            case "text:p", "text:h":
                guard paragraphDepth > 0 else { break }
                paragraphDepth -= 1
                if paragraphDepth == 0, noteDepth == 0 { finishParagraph() }
            case "text:note-body":
                noteDepth = max(0, noteDepth - 1)
                if noteDepth == 0 {
                    let clean = TextLayer.oneLine(note)
                    if !clean.isEmpty { notes.append(clean) }
                    note = ""
                }
            case "text:list":
                if !lists.isEmpty { lists.removeLast() }
            case "table:table-cell" where tableDepth == 1, "table:covered-table-cell" where tableDepth == 1:
                if let text = cell {
                    // A run of repeated empty cells is padding to the sheet's edge, not columns.
                    if text.isEmpty, repeatCell > 1 { repeatCell = 1 }
                    let count = min(repeatCell, max(0, cellBudget))
                    cellBudget -= count
                    row?.append(contentsOf: repeatElement(text, count: count))
                }
                cell = nil
            case "table:table-row" where tableDepth == 1:
                if let cells = row, cells.contains(where: { !$0.isEmpty }) { rows.append(cells) }
                row = nil
            case "table:table":
                guard tableDepth > 0 else { break }
                tableDepth -= 1
                if tableDepth == 0 {
                    if !rows.isEmpty { drafts.append(.table(rows: rows, header: rows.count > 1 ? 0 : nil)) }
                    rows = []
                    flushNotes()
                }
            default:
                break
            }
        }

        private mutating func finishParagraph() {
            let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            if tableDepth > 0 {
                if !content.isEmpty, cell != nil { cell! += (cell!.isEmpty ? "" : " ") + content }
                return
            }
            if !lists.isEmpty {
                if !content.isEmpty {
                    let level = lists.count
                    let style = lists.last?.style
                    let numbered = style.map { listStyles.numbered[$0]?.contains(level) == true } ?? false
                    let marker = numbered ? "\(lists[lists.count - 1].next). " : "- "
                    if numbered { lists[lists.count - 1].next += 1 }
                    items.append(String(repeating: "  ", count: min(level - 1, 8)) + marker + content)
                }
                return
            }
            guard !content.isEmpty else { flushNotes(); return }
            finishList()
            if let level = headingLevel {
                if level == 1, firstH1 == nil { firstH1 = content }
                drafts.append(.heading(level: level, text: content))
            } else {
                if let style = paragraphStyle, titleStyles.contains(style), titleParagraph == nil { titleParagraph = content }
                drafts.append(.paragraph(content))
            }
            flushNotes()
        }

        private mutating func flushNotes() {
            guard lists.isEmpty, tableDepth == 0 else { return }
            for note in notes { drafts.append(.paragraph("Note: " + note)) }
            notes = []
        }

        private mutating func finishList() {
            if !items.isEmpty { drafts.append(.list(items: items)) }
            items = []
            flushNotes()
        }
    }

    // MARK: - Spreadsheets

    struct SpreadsheetReader {
        var sheets: [SheetTable] = []
        private let budget = SheetTable.Budget()

        private var skipDepth = 0
        private var tableDepth = 0
        private var rowNumber = 0
        private var rowRepeat = 1
        private var column = 0
        private var cells: [(column: Int, repeatCount: Int, text: String)] = []
        private var cell: String?
        private var cellRepeat = 1
        /// A date cell's value in ISO form, which reads the same whatever the sheet's locale showed.
        private var cellDate: String?
        private var paragraphs = 0

        mutating func read(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if OpenDocument.skipped.contains(name) || name == "text:note" { skipDepth += 1 } else if skipDepth == 0 { start(name, attributes) }
                case let .end(name):
                    if OpenDocument.skipped.contains(name) || name == "text:note" { skipDepth = max(0, skipDepth - 1) } else if skipDepth == 0 { end(name) }
                case let .text(content):
                    if skipDepth == 0, paragraphs > 0, cell != nil { cell! += content }
                }
            }
        }

        private mutating func start(_ name: String, _ attributes: [String: String]) {
            if let inline = OpenDocument.inline(name, attributes) {
                if paragraphs > 0, cell != nil { cell! += inline }
                return
            }
            switch name {
            case "table:table":
                tableDepth += 1
                if tableDepth == 1 {
                    sheets.append(SheetTable(name: attributes["table:name"] ?? "Sheet\(sheets.count + 1)", budget: budget))
                    rowNumber = 0
                }
            case "table:table-row" where tableDepth == 1:
                rowRepeat = max(Int(attributes["table:number-rows-repeated"] ?? "1") ?? 1, 1)
                column = 0
                cells = []
            case "table:table-cell" where tableDepth == 1, "table:covered-table-cell" where tableDepth == 1:
                cell = ""
                cellRepeat = max(Int(attributes["table:number-columns-repeated"] ?? "1") ?? 1, 1)
                cellDate = attributes["office:value-type"] == "date" ? attributes["office:date-value"].map(Self.isoDate) : nil
            case "text:p" where cell != nil:
                if paragraphs == 0, !cell!.isEmpty { cell! += " " }
                paragraphs += 1
            default:
                break
            }
        }

        private mutating func end(_ name: String) {
            switch name {
            case "text:p" where paragraphs > 0:
                paragraphs -= 1
            case "table:table-cell" where tableDepth == 1, "table:covered-table-cell" where tableDepth == 1:
                // Only cells with text, within the column bound, take part in a row.
                if let text = cell, text.contains(where: { !$0.isWhitespace }), column < SheetTable.maximumColumns {
                    cells.append((column + 1, min(cellRepeat, SheetTable.maximumColumns - column), cellDate ?? text))
                }
                // Repeated cells count in full, so the next cell lands in its true column.
                column = column &+ min(cellRepeat, 1 << 20)
                cell = nil
            case "table:table-row" where tableDepth == 1:
                guard var sheet = sheets.popLast() else { break }
                if cells.isEmpty {
                    // Blank rows, however many are repeated, only move the row count on.
                    rowNumber = min(rowNumber &+ min(rowRepeat, 1 << 24), 1 << 40)
                } else {
                    for _ in 0 ..< rowRepeat {
                        rowNumber = min(rowNumber &+ 1, 1 << 40)
                        if sheet.isFull { sheet.markTruncated(); break }
                        let before = sheet.rows.count
                        for cell in cells {
                            for offset in 0 ..< cell.repeatCount {
                                sheet.set(row: rowNumber, column: cell.column + offset, cell.text)
                            }
                        }
                        // A repetition that adds no row (the bounds are reached) ends the run.
                        if sheet.rows.count == before { sheet.markTruncated(); break }
                    }
                }
                sheets.append(sheet)
            case "table:table":
                tableDepth = max(0, tableDepth - 1)
            default:
                break
            }
        }

        /// "2026-01-15T00:00:00" -> "2026-01-15"; a time of day is kept as hours and minutes.
        static func isoDate(_ value: String) -> String {
            guard let t = value.firstIndex(of: "T") else { return value }
            let time = value[value.index(after: t)...]
            if time.hasPrefix("00:00:00") { return String(value[..<t]) }
            return String(value[..<t]) + " " + time.prefix(5)
        }
    }
}
