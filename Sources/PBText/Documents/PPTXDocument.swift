import Foundation

/// Reads a PowerPoint deck (Office Open XML presentation): one section per slide, in the
/// presentation's order, headed "Slide N: its title", then the slide's text boxes, tables and
/// the speaker notes ("Notes: ...").
///
/// The text of a content placeholder is a list (that is what a slide's bullets are), other text
/// boxes are paragraphs. Slide numbers, dates and footers repeated from the layout are not read,
/// nor are layouts, masters, charts' data or pictures.
public enum PPTXDocument {
    public static func textLayer(_ data: [UInt8], path: String) throws -> TextLayer {
        let package = try OfficePackage(data, path: path, kind: "pptx")
        let presentationPart = try package.mainPart(fallback: "ppt/presentation.xml")
        let presentation = try package.requiredPart(presentationPart)
        let relations = try package.relationships(of: presentationPart)
        var drafts: [TextLayer.MarkupDraft] = []
        var firstTitle: String?
        var read = Set<String>()
        for (number, id) in slideOrder(presentation).enumerated() {
            // A slide listed twice is read once.
            guard let target = relations.first(where: { $0.id == id })?.target, read.insert(target).inserted,
                  let xml = try package.part(target) else { continue }
            var slide = SlideReader()
            slide.read(xml)
            let notesPart = try package.relationships(of: target).first { $0.type.hasSuffix("/notesSlide") }?.target
            var notes = SlideReader(notes: true)
            if let notesPart, let notesXML = try package.part(notesPart) { notes.read(notesXML) }
            let title = slide.title.map(TextLayer.oneLine).flatMap { $0.isEmpty ? nil : $0 }
            if firstTitle == nil { firstTitle = title }
            let body = slide.drafts
            let noteText = notes.drafts.compactMap { draft -> String? in
                switch draft {
                case let .paragraph(text): return text
                case let .list(items): return items.joined(separator: " ")
                default: return nil
                }
            }.joined(separator: " ")
            guard title != nil || !body.isEmpty || !noteText.isEmpty else { continue }
            drafts.append(.heading(level: 1, text: "Slide \(number + 1)" + (title.map { ": " + $0 } ?? "")))
            drafts += body
            if !TextLayer.oneLine(noteText).isEmpty { drafts.append(.paragraph("Notes: " + noteText)) }
        }
        let title = try package.coreTitle().flatMap(TextLayer.cleanTitle) ?? firstTitle.flatMap(TextLayer.cleanTitle)
        return TextLayer(format: .pptx, title: title, markup: drafts)
    }

    /// The relationship ids of the slides, in `p:sldIdLst` order.
    static func slideOrder(_ xml: [UInt8]) -> [String] {
        var scanner = XMLScanner(xml)
        var ids: [String] = []
        while let event = scanner.next() {
            if case let .start(name, attributes, _) = event, name == "p:sldId", let id = attributes["r:id"] { ids.append(id) }
        }
        return ids
    }

    /// Walks one slide (or notes page): shapes with their placeholder type, their paragraphs,
    /// and tables.
    struct SlideReader {
        /// On a notes page only the notes placeholder (`body`) is read; the rest is the slide's
        /// picture, its number and the header.
        var notes = false
        var title: String?
        var drafts: [TextLayer.MarkupDraft] = []

        private var shapeDepth = 0
        private var placeholder: String?
        private var isPlaceholder = false
        private var sawTitlePlaceholder = false
        private var paragraphs: [(level: Int, bullet: Bool?, text: String)] = []
        private var paragraph: (level: Int, bullet: Bool?, text: String)?
        private var inText = false
        private var field: String?

        private var tableDepth = 0
        private var rows: [[String]] = []
        private var row: [String]?
        private var cell: String?

        init(notes: Bool = false) {
            self.notes = notes
        }

        /// Placeholders whose text the layout repeats on every slide.
        private static let furniture: Set<String> = ["sldNum", "dt", "ftr", "hdr", "sldImg"]

        mutating func read(_ xml: [UInt8]) {
            // Whether a title placeholder comes at all, so a text box before it is not taken for the title.
            let text = String(decoding: xml, as: UTF8.self)
            sawTitlePlaceholder = text.contains("type=\"title\"") || text.contains("type=\"ctrTitle\"")
            var scanner = XMLScanner(xml)
            while let event = scanner.next() {
                switch event {
                case let .start(name, attributes, _): start(name, attributes)
                case let .end(name): end(name)
                case let .text(content):
                    if inText, paragraph != nil { paragraph!.text += content }
                }
            }
        }

        private mutating func start(_ name: String, _ attributes: [String: String]) {
            switch name {
            case "p:sp":
                shapeDepth += 1
                if shapeDepth == 1 {
                    placeholder = nil
                    isPlaceholder = false
                    paragraphs = []
                }
            case "p:ph" where shapeDepth > 0:
                isPlaceholder = true
                placeholder = attributes["type"] ?? "body"
            case "a:tbl":
                tableDepth += 1
                if tableDepth == 1 { rows = [] }
            case "a:tr" where tableDepth == 1:
                row = []
            case "a:tc" where tableDepth == 1:
                cell = ""
            case "a:p":
                paragraph = (0, nil, "")
            case "a:pPr" where paragraph != nil:
                paragraph!.level = min(max(Int(attributes["lvl"] ?? "0") ?? 0, 0), 8)
            case "a:buNone" where paragraph != nil:
                paragraph!.bullet = false
            case "a:buChar" where paragraph != nil, "a:buAutoNum" where paragraph != nil:
                paragraph!.bullet = true
            case "a:fld":
                field = attributes["type"]
            case "a:t":
                // A slide-number or date field repeats what the slide furniture shows.
                inText = !(field.map { $0.hasPrefix("slidenum") || $0.hasPrefix("datetime") } ?? false)
            case "a:br" where paragraph != nil:
                paragraph!.text += "\n"
            default:
                break
            }
        }

        private mutating func end(_ name: String) {
            switch name {
            case "a:t":
                inText = false
            case "a:fld":
                field = nil
            case "a:p":
                guard let done = paragraph else { break }
                paragraph = nil
                let text = TextLayer.oneLine(done.text)
                guard !text.isEmpty else { break }
                if tableDepth > 0 {
                    if cell != nil { cell! += (cell!.isEmpty ? "" : " ") + text }
                } else if shapeDepth > 0 {
                    paragraphs.append((done.level, done.bullet, text))
                }
            case "a:tc" where tableDepth == 1:
                row?.append(cell ?? "")
                cell = nil
            case "a:tr" where tableDepth == 1:
                if let cells = row, cells.contains(where: { !$0.isEmpty }) { rows.append(cells) }
                row = nil
            case "a:tbl":
                tableDepth = max(0, tableDepth - 1)
                if tableDepth == 0, !rows.isEmpty, !notes {
                    drafts.append(.table(rows: rows, header: rows.count > 1 ? 0 : nil))
                    rows = []
                }
            case "p:sp":
                shapeDepth = max(0, shapeDepth - 1)
                if shapeDepth == 0 { finishShape() }
            default:
                break
            }
        }

        private mutating func finishShape() {
            defer { paragraphs = [] }
            guard !paragraphs.isEmpty else { return }
            let kind = placeholder ?? ""
            if Self.furniture.contains(kind) { return }
            if notes {
                // The notes placeholder, or a plain text box some writers use instead.
                guard kind == "body" || !isPlaceholder else { return }
                drafts.append(.paragraph(paragraphs.map(\.text).joined(separator: " ")))
                return
            }
            // A slide built without placeholders usually starts with a text box holding its title.
            let untitledStart = title == nil && drafts.isEmpty && !isPlaceholder && !sawTitlePlaceholder
                && paragraphs.count == 1 && paragraphs[0].text.count <= 100 && paragraphs[0].bullet != true
            if kind == "title" || kind == "ctrTitle" || untitledStart {
                let text = paragraphs.map(\.text).joined(separator: " ")
                if title == nil { title = text } else { drafts.append(.paragraph(text)) }
                return
            }
            // A content placeholder's paragraphs are bullets unless they say otherwise; a text
            // box's are prose unless they carry a bullet.
            let bulletsByDefault = isPlaceholder && (kind == "body" || kind == "obj")
            let bullets = paragraphs.filter { $0.bullet ?? bulletsByDefault }
            if bullets.count == paragraphs.count {
                drafts.append(.list(items: paragraphs.map { String(repeating: "  ", count: $0.level) + "- " + $0.text }))
            } else {
                for p in paragraphs {
                    drafts.append((p.bullet ?? bulletsByDefault) ? .list(items: ["- " + p.text]) : .paragraph(p.text))
                }
            }
        }
    }
}
