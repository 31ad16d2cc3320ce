import Foundation

/// Reads a Word (Office Open XML) document into a text layer: paragraphs, headings, lists and
/// tables from `word/document.xml`, the title from `docProps/core.xml`.
///
/// Headings and lists in Word are mostly a matter of styles ("Heading 2", "List Bullet") rather
/// than of the paragraph itself, so the styles and numbering parts are read too; without them a
/// document made from a template would come out as flat prose.
public enum DOCXDocument {
    public static func textLayer(_ data: [UInt8], path: String) throws -> TextLayer {
        let package = try OfficePackage(data, path: path, kind: "docx")
        let documentPart = try package.mainPart(fallback: "word/document.xml")
        let document = try package.requiredPart(documentPart)
        let documentRelations = try package.relationships(of: documentPart)
        func part(_ type: String, _ fallback: String) -> String {
            documentRelations.first { $0.type.hasSuffix(type) }?.target ?? fallback
        }

        var reader = BodyReader()
        if let styles = try package.part(part("/styles", "word/styles.xml")) {
            reader.styles = Styles(styles)
        }
        if let numbering = try package.part(part("/numbering", "word/numbering.xml")) {
            reader.numbering = Numbering(numbering)
        }
        reader.read(document)

        let title = try package.coreTitle().flatMap(TextLayer.cleanTitle)
            ?? reader.titleParagraph.flatMap(TextLayer.cleanTitle)
            ?? reader.firstH1.flatMap(TextLayer.cleanTitle)
        return TextLayer(format: .docx, title: title, markup: reader.drafts)
    }

    // MARK: - Styles and numbering

    /// What a paragraph style contributes: a heading level and list numbering, possibly inherited
    /// through `basedOn`.
    private struct Styles {
        struct Style {
            var name = ""
            var basedOn: String?
            var outlineLevel: Int?
            var numbering: (id: Int, level: Int?)?
        }

        var byID: [String: Style] = [:]

        init() {}

        init(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            var current: (id: String, style: Style)?
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if name == "w:style" {
                        current = attributes["w:type"] == "paragraph" ? (attributes["w:styleId"] ?? "", Style()) : nil
                    } else if current != nil {
                        let value = attributes["w:val"]
                        switch name {
                        case "w:name": current!.style.name = value ?? ""
                        case "w:basedOn": current!.style.basedOn = value
                        case "w:outlineLvl": current!.style.outlineLevel = value.flatMap { Int($0) }
                        case "w:numId": current!.style.numbering = (value.flatMap { Int($0) } ?? 0, current!.style.numbering?.level)
                        case "w:ilvl": current!.style.numbering = (current!.style.numbering?.id ?? 0, value.flatMap { Int($0) })
                        default: break
                        }
                    }
                case let .end(name) where name == "w:style":
                    if let done = current { byID[done.id] = done.style }
                    current = nil
                default:
                    break
                }
            }
        }

        /// The chain from a style up through what it is based on, guarded against cycles.
        func chain(_ id: String?) -> [(id: String, style: Style)] {
            var result: [(String, Style)] = []
            var next = id
            while let id = next, result.count < 16, !result.contains(where: { $0.0 == id }) {
                guard let style = byID[id] else {
                    result.append((id, Style()))
                    break
                }
                result.append((id, style))
                next = style.basedOn
            }
            return result
        }

        /// "Heading 1" ... "Heading 6" and "Title" by name or identifier (identifiers are what
        /// documents without a styles part still carry), else an outline level on the style.
        func headingLevel(_ id: String?) -> Int? {
            for (id, style) in chain(id) {
                for label in [style.name.lowercased(), id.lowercased()] {
                    if label == "title" { return 1 }
                    let compact = label.replacingOccurrences(of: " ", with: "")
                    if compact.hasPrefix("heading"), let level = Int(compact.dropFirst(7)), (1 ... 9).contains(level) {
                        return min(level, 6)
                    }
                }
                if let outline = style.outlineLevel, (0 ... 8).contains(outline) { return min(outline + 1, 6) }
            }
            return nil
        }

        func isTitle(_ id: String?) -> Bool {
            chain(id).contains { $0.id.lowercased() == "title" || $0.style.name.lowercased() == "title" }
        }

        func numbering(_ id: String?) -> (id: Int, level: Int?)? {
            chain(id).lazy.compactMap { $0.style.numbering }.first
        }
    }

    /// List formats from the numbering part, so ordered lists render "1." and bullets "-".
    private struct Numbering {
        struct Level {
            var format = "bullet"
            var start = 1
        }

        var abstractLevels: [String: [Int: Level]] = [:]
        var abstractOf: [Int: String] = [:]
        var startOverrides: [Int: [Int: Int]] = [:]
        private var counters: [Int: [Int: Int]] = [:]

        init() {}

        init(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            var abstract: String?
            var level: Int?
            var num: Int?
            var overrideLevel: Int?
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    let value = attributes["w:val"]
                    switch name {
                    case "w:abstractNum": abstract = attributes["w:abstractNumId"]
                    case "w:num": num = attributes["w:numId"].flatMap { Int($0) }
                    case "w:abstractNumId": if let num, let value { abstractOf[num] = value }
                    case "w:lvl":
                        level = attributes["w:ilvl"].flatMap { Int($0) }
                        if let abstract, let level { abstractLevels[abstract, default: [:]][level] = Level() }
                    case "w:lvlOverride": overrideLevel = attributes["w:ilvl"].flatMap { Int($0) }
                    case "w:startOverride":
                        if let num, let overrideLevel, let start = value.flatMap({ Int($0) }) {
                            startOverrides[num, default: [:]][overrideLevel] = start
                        }
                    case "w:numFmt": if let abstract, let level, let value { abstractLevels[abstract]?[level]?.format = value }
                    case "w:start": if let abstract, let level, let start = value.flatMap({ Int($0) }) { abstractLevels[abstract]?[level]?.start = start }
                    default: break
                    }
                case let .end(name):
                    switch name {
                    case "w:abstractNum": abstract = nil
                    case "w:lvl": level = nil
                    case "w:num": num = nil
                    case "w:lvlOverride": overrideLevel = nil
                    default: break
                    }
                case .text:
                    break
                }
            }
        }

        /// The marker for the next item of list `id` at `level`; counting restarts deeper levels
        /// whenever a shallower item appears, as Word does.
        mutating func marker(id: Int, level: Int) -> String {
            guard let abstract = abstractOf[id], let definition = abstractLevels[abstract]?[level] else { return "- " }
            if ["bullet", "none"].contains(definition.format) { return "- " }
            let start = startOverrides[id]?[level] ?? definition.start
            var levels = counters[id] ?? [:]
            let number = (levels[level] ?? (start - 1)) + 1
            levels[level] = number
            for deeper in levels.keys where deeper > level { levels[deeper] = nil }
            counters[id] = levels
            return "\(number). "
        }
    }

    // MARK: - The body

    /// Walks `word/document.xml` once, turning paragraphs and tables into block drafts.
    private struct BodyReader {
        var styles = Styles()
        var numbering = Numbering()

        var drafts: [TextLayer.MarkupDraft] = []
        var titleParagraph: String?
        var firstH1: String?

        private struct Paragraph {
            var text = ""
            var style: String?
            var numbering: (id: Int?, level: Int?)?
            var outlineLevel: Int?
        }

        private var paragraphDepth = 0
        private var paragraph = Paragraph()
        private var inProperties = false
        private var runDepth = 0
        private var inText = false
        /// mc:Fallback repeats what mc:Choice already said (text boxes mostly), and the *Change
        /// elements of tracked changes hold the formatting as it was before the edit (an old style
        /// would otherwise override the current one).
        private static let skipped: Set<String> = [
            "mc:Fallback", "w:pPrChange", "w:rPrChange", "w:sectPrChange", "w:tblPrChange", "w:trPrChange",
            "w:tcPrChange", "w:numberingChange",
        ]
        private var skipDepth = 0

        private var listItems: [String] = []

        private var tableDepth = 0
        private var rows: [[String]] = []
        private var row: [String]?
        private var cell: String?

        mutating func read(_ xml: [UInt8]) {
            var scanner = XMLScanner(xml)
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _):
                    if Self.skipped.contains(name) {
                        skipDepth += 1
                    } else if skipDepth == 0 {
                        start(name, attributes)
                    }
                case let .end(name):
                    if Self.skipped.contains(name) {
                        skipDepth = max(0, skipDepth - 1)
                    } else if skipDepth == 0 {
                        end(name)
                    }
                case let .text(content):
                    if skipDepth == 0, inText { paragraph.text += content }
                }
            }
            finishParagraph()
            if tableDepth > 0 { tableDepth = 1; end("w:tbl") }
            finishList()
        }

        /// Self-closing elements arrive as a start and an end, so every case here is undone in `end`.
        private mutating func start(_ name: String, _ attributes: [String: String]) {
            let value = attributes["w:val"]
            switch name {
            case "w:p":
                paragraphDepth += 1
                // A paragraph inside a paragraph is a text box: its words join the outer text.
                if paragraphDepth == 1 { paragraph = Paragraph() } else { paragraph.text += " " }
            case "w:pPr" where paragraphDepth == 1 && runDepth == 0:
                inProperties = true
            case "w:pStyle" where inProperties:
                paragraph.style = value
            case "w:numPr" where inProperties:
                if paragraph.numbering == nil { paragraph.numbering = (nil, nil) }
            case "w:numId" where inProperties:
                paragraph.numbering = (value.flatMap { Int($0) }, paragraph.numbering?.level)
            case "w:ilvl" where inProperties:
                paragraph.numbering = (paragraph.numbering?.id, value.flatMap { Int($0) })
            case "w:outlineLvl" where inProperties:
                paragraph.outlineLevel = value.flatMap { Int($0) }
            case "w:r":
                runDepth += 1
            case "w:t":
                inText = runDepth > 0
            case "w:tab" where runDepth > 0 && !inProperties:
                paragraph.text += "\t"
            case "w:br", "w:cr":
                if runDepth > 0 { paragraph.text += "\n" }
            case "w:noBreakHyphen":
                if runDepth > 0 { paragraph.text += "-" }
            case "w:tbl":
                if tableDepth == 0, paragraphDepth == 0 {
                    finishList()
                    rows = []
                }
                tableDepth += 1
            case "w:tr" where tableDepth == 1:
                finishRow()
                row = []
            case "w:tc" where tableDepth == 1:
                finishCell()
                cell = ""
            default:
                break
            }
        }

        private mutating func end(_ name: String) {
            switch name {
            case "w:p":
                guard paragraphDepth > 0 else { break }
                paragraphDepth -= 1
                if paragraphDepth == 0 { finishParagraph() } else { paragraph.text += " " }
            case "w:pPr":
                inProperties = false
            case "w:r":
                runDepth = max(0, runDepth - 1)
                inText = false
            case "w:t":
                inText = false
            case "w:tc" where tableDepth == 1:
                finishCell()
            case "w:tr" where tableDepth == 1:
                finishRow()
            case "w:tbl":
                guard tableDepth > 0 else { break }
                tableDepth -= 1
                if tableDepth == 0 {
                    finishRow()
                    if !rows.isEmpty { drafts.append(.table(rows: rows, header: rows.count > 1 ? 0 : nil)) }
                    rows = []
                }
            default:
                break
            }
        }

        private mutating func finishParagraph() {
            let text = paragraph.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let current = paragraph
            paragraph = Paragraph()
            inProperties = false
            if tableDepth > 0 {
                // Cell paragraphs, nested tables included, become one line of cell text.
                if !text.isEmpty {
                    if cell == nil { cell = "" }
                    cell! += (cell!.isEmpty ? "" : " ") + text
                }
                return
            }
            // Empty paragraphs are spacing, not structure: they do not end a list.
            guard !text.isEmpty else { return }
            if let level = headingLevel(current) {
                finishList()
                if styles.isTitle(current.style), titleParagraph == nil { titleParagraph = text }
                if level == 1, firstH1 == nil { firstH1 = text }
                drafts.append(.heading(level: level, text: text))
            } else if let (id, level) = listNumbering(current) {
                let marker = numbering.marker(id: id, level: level)
                listItems.append(String(repeating: "  ", count: min(level, 8)) + marker + text)
            } else {
                finishList()
                drafts.append(.paragraph(text))
            }
        }

        private func headingLevel(_ paragraph: Paragraph) -> Int? {
            if let outline = paragraph.outlineLevel {
                // Level 9 is Word's explicit "body text", overriding a heading style.
                return (0 ... 8).contains(outline) ? min(outline + 1, 6) : nil
            }
            return styles.headingLevel(paragraph.style)
        }

        /// A paragraph is a list item when it, or its style, has numbering other than numId 0
        /// (which Word uses to switch a style's numbering off).
        private func listNumbering(_ paragraph: Paragraph) -> (Int, Int)? {
            let style = styles.numbering(paragraph.style)
            guard paragraph.numbering != nil || style != nil else { return nil }
            let id = paragraph.numbering?.id ?? style?.id ?? 0
            guard id != 0 else { return nil }
            let level = paragraph.numbering?.level ?? style?.level ?? 0
            return (id, max(0, level))
        }

        private mutating func finishList() {
            if !listItems.isEmpty { drafts.append(.list(items: listItems)) }
            listItems = []
        }

        private mutating func finishCell() {
            guard let text = cell else { return }
            cell = nil
            if row == nil { row = [] }
            row!.append(text)
        }

        private mutating func finishRow() {
            finishCell()
            guard let cells = row else { return }
            row = nil
            if cells.contains(where: { !$0.isEmpty }) { rows.append(cells) }
        }
    }
}
