import Foundation

/// Reads HTML into a text layer: the visible prose, headings, lists, tables and preformatted text,
/// rendered as plain text a citation can quote.
///
/// Real pages are rarely well formed, so this is a tolerant scanner rather than a parser: it never
/// rejects input, closes what was left open at the end, and flattens structures it does not model
/// (a table inside a list item becomes part of the item's text, and the reverse).
public enum HTMLDocument {
    public static func textLayer(_ data: [UInt8], path: String) throws -> TextLayer {
        let (title, drafts) = markup(data)
        return TextLayer(format: .html, title: title, markup: drafts)
    }

    /// The page's title and blocks, for readers that embed HTML (a mail's HTML part).
    static func markup(_ data: [UInt8]) -> (title: String?, drafts: [TextLayer.MarkupDraft]) {
        var walker = Walker(source: decode(data))
        walker.run()
        return (walker.title.flatMap(TextLayer.cleanTitle) ?? walker.firstH1.flatMap(TextLayer.cleanTitle), walker.drafts)
    }

    /// UTF-8 unless the bytes say otherwise: a UTF-16 byte order mark, or bytes that are not valid
    /// UTF-8, which on the web almost always means Windows-1252 (what browsers use for "latin1").
    static func decode(_ data: [UInt8]) -> [UInt8] {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return decode(Array(data.dropFirst(3))) }
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            let big = data[0] == 0xFE
            var units: [UInt16] = []
            units.reserveCapacity(data.count / 2)
            var i = 2
            while i + 1 < data.count {
                units.append(big ? UInt16(data[i]) << 8 | UInt16(data[i + 1]) : UInt16(data[i + 1]) << 8 | UInt16(data[i]))
                i += 2
            }
            return Array(String(decoding: units, as: UTF16.self).utf8)
        }
        if String(validating: data, as: UTF8.self) != nil { return data }
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 8)
        for byte in data {
            if byte < 0x80 {
                out.append(byte)
            } else {
                appendUTF8(windows1252(byte), to: &out)
            }
        }
        return out
    }

    /// Windows-1252 differs from Latin-1 only in 0x80...0x9F; HTML also maps numeric references in
    /// that range through this table, because pages written in 1252 produced them.
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        let high: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
            0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
        ]
        let value = (0x80 ... 0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    // MARK: - Entities

    /// Decodes character references in text or an attribute value.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                i += 1
                continue
            }
            if let (scalars, next) = reference(in: bytes, at: i) {
                for scalar in scalars { appendUTF8(scalar, to: &out) }
                i = next
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalars a reference starting at `at` (an ampersand) stands for, and where it ends; nil when
    /// the ampersand is just an ampersand.
    private static func reference(in bytes: ArraySlice<UInt8>, at: Int) -> ([Unicode.Scalar], Int)? {
        var i = at + 1
        guard i < bytes.endIndex else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < bytes.endIndex, bytes[i] | 0x20 == UInt8(ascii: "x") { hex = true; i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < bytes.endIndex, let digit = digitValue(bytes[i], hex: hex) {
                value = min(value &* (hex ? 16 : 10) &+ digit, 0x110000)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: ";") { i += 1 }
            let scalar: Unicode.Scalar
            if (0x80 ... 0x9F).contains(value) {
                scalar = windows1252(UInt8(value))
            } else if value == 0 {
                scalar = "\u{FFFD}"
            } else {
                scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            return ([scalar], i)
        }
        let nameStart = i
        while i < bytes.endIndex, i - nameStart < 32, isAlphanumeric(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart ..< i], as: UTF8.self)
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ";"), let text = entities[name] {
            return (Array(text.unicodeScalars), i + 1)
        }
        // Old pages write "&amp" or "&nbsp" without the semicolon; browsers accept these few.
        if ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"].contains(name), let text = entities[name] {
            return (Array(text.unicodeScalars), i)
        }
        return nil
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a") ... UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A") ... UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }

    /// The named references people actually write: Latin-1 in full (so pages from the Latin-1 era
    /// read right), typographic punctuation, arrows, maths and a few Greek letters.
    private static let entities: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
            "mdash": "\u{2014}", "ndash": "\u{2013}", "hellip": "\u{2026}", "bull": "\u{2022}",
            "lsquo": "\u{2018}", "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}",
            "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "prime": "\u{2032}", "Prime": "\u{2033}",
            "dagger": "\u{2020}", "Dagger": "\u{2021}", "permil": "\u{2030}", "euro": "\u{20AC}", "trade": "\u{2122}",
            "ensp": " ", "emsp": " ", "thinsp": " ", "zwj": "\u{200D}", "zwnj": "\u{200C}", "lrm": "", "rlm": "",
            "larr": "\u{2190}", "uarr": "\u{2191}", "rarr": "\u{2192}", "darr": "\u{2193}", "harr": "\u{2194}",
            "lArr": "\u{21D0}", "rArr": "\u{21D2}", "hArr": "\u{21D4}",
            "minus": "\u{2212}", "le": "\u{2264}", "ge": "\u{2265}", "ne": "\u{2260}", "asymp": "\u{2248}",
            "infin": "\u{221E}", "sum": "\u{2211}", "radic": "\u{221A}", "check": "\u{2713}",
            "OElig": "\u{0152}", "oelig": "\u{0153}", "Scaron": "\u{0160}", "scaron": "\u{0161}", "Yuml": "\u{0178}",
            "fnof": "\u{0192}", "circ": "\u{02C6}", "tilde": "\u{02DC}",
            "alpha": "\u{03B1}", "beta": "\u{03B2}", "gamma": "\u{03B3}", "delta": "\u{03B4}", "epsilon": "\u{03B5}",
            "theta": "\u{03B8}", "lambda": "\u{03BB}", "mu": "\u{03BC}", "pi": "\u{03C0}", "sigma": "\u{03C3}",
            "tau": "\u{03C4}", "phi": "\u{03C6}", "omega": "\u{03C9}", "Delta": "\u{0394}", "Sigma": "\u{03A3}", "Omega": "\u{03A9}",
        ]
        let latin1 = """
        nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr \
        deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest \
        Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml \
        ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig \
        agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml \
        eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
        """
        for (offset, name) in latin1.split(separator: " ").enumerated() {
            table[String(name)] = String(Character(Unicode.Scalar(UInt32(0xA0 + offset))!))
        }
        // A soft hyphen is an invisible break opportunity; kept, it would split words for search.
        table["shy"] = ""
        return table
    }()
}

// MARK: - The walk

extension HTMLDocument {
    /// Scans tags and text in one pass and turns them into block drafts.
    private struct Walker {
        let source: [UInt8]
        var at = 0

        var drafts: [TextLayer.MarkupDraft] = []
        var title: String?
        var firstH1: String?

        private var paragraph = InlineText()
        private var heading: (level: Int, text: InlineText)?
        private var inHead = false
        /// Elements whose whole content is invisible (template, svg, math), counted by name so
        /// that nested ones of the same kind are skipped as one.
        private var skipping: (name: String, depth: Int)?

        private var lists: [(ordered: Bool, next: Int)] = []
        private var listItems: [String] = []
        private var item: (marker: String, text: InlineText)?

        /// 1 inside a table we render as a table; more inside tables nested in it, which are flattened.
        private var tableDepth = 0
        private var rows: [[String]] = []
        private var headerRows: Set<Int> = []
        private var row: [String]?
        private var rowHasHeaderCell = false
        private var cell: InlineText?
        /// A caption, and any text stray between rows, shown as a paragraph before the table.
        private var tablePreamble = InlineText()

        private var preDepth = 0
        private var pre: [UInt8] = []

        init(source: [UInt8]) {
            self.source = source
        }

        mutating func run() {
            while at < source.count {
                if source[at] == UInt8(ascii: "<") {
                    scanMarkup()
                } else {
                    let end = source[at...].firstIndex(of: UInt8(ascii: "<")) ?? source.count
                    text(source[at ..< end])
                    at = end
                }
            }
            finishAll()
        }

        // MARK: Tokens

        private mutating func scanMarkup() {
            let rest = source[at...]
            if rest.starts(with: Array("<!--".utf8)) {
                at = indexAfter(Array("-->".utf8), from: at + 4) ?? source.count
            } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                at = indexAfter(Array("]]>".utf8), from: at + 9) ?? source.count
            } else if rest.starts(with: [UInt8(ascii: "<"), UInt8(ascii: "!")]) || rest.starts(with: [UInt8(ascii: "<"), UInt8(ascii: "?")]) {
                at = indexAfter([UInt8(ascii: ">")], from: at + 2) ?? source.count
            } else if rest.starts(with: [UInt8(ascii: "<"), UInt8(ascii: "/")]) {
                guard at + 2 < source.count, isLetter(source[at + 2]) else {
                    at = indexAfter([UInt8(ascii: ">")], from: at + 2) ?? source.count
                    return
                }
                let (name, nameEnd) = tagName(from: at + 2)
                at = indexAfter([UInt8(ascii: ">")], from: nameEnd) ?? source.count
                endTag(name)
            } else if at + 1 < source.count, isLetter(source[at + 1]) {
                let (name, nameEnd) = tagName(from: at + 1)
                let (attributes, selfClosing) = scanAttributes(from: nameEnd)
                startTag(name, attributes: attributes, selfClosing: selfClosing)
            } else {
                text(source[at ..< at + 1])
                at += 1
            }
        }

        private func tagName(from start: Int) -> (String, Int) {
            var end = start
            while end < source.count, !isSpace(source[end]), source[end] != UInt8(ascii: "/"), source[end] != UInt8(ascii: ">") {
                end += 1
            }
            return (String(decoding: source[start ..< end], as: UTF8.self).lowercased(), end)
        }

        /// Reads attributes up to the closing ">" (MarkupAttributes): names lowercased, values with
        /// their character references decoded, the first of a repeated name kept.
        private mutating func scanAttributes(from start: Int) -> ([String: String], Bool) {
            let tag = MarkupAttributes(source, from: start, unquotedValues: true)
            var attributes: [String: String] = [:]
            for (name, value) in tag.pairs {
                let key = String(decoding: name, as: UTF8.self).lowercased()
                if attributes[key] == nil { attributes[key] = value.map(HTMLDocument.decodeEntities) ?? "" }
            }
            at = tag.end
            return (attributes, tag.selfClosing)
        }

        /// The content of a raw-text element (script, style, title…) runs to its own end tag,
        /// whatever it contains; returns it and leaves `at` on that end tag.
        private mutating func rawContent(until name: String) -> ArraySlice<UInt8> {
            let start = at
            let closing = Array("</\(name)".utf8)
            var i = start
            while i < source.count {
                guard let lt = source[i...].firstIndex(of: UInt8(ascii: "<")) else { break }
                let end = lt + closing.count
                if end <= source.count,
                   zip(source[lt ..< end], closing).allSatisfy({ $0 | 0x20 == $1 | 0x20 }),
                   end == source.count || isSpace(source[end]) || source[end] == UInt8(ascii: ">") || source[end] == UInt8(ascii: "/") {
                    at = lt
                    return source[start ..< lt]
                }
                i = lt + 1
            }
            at = source.count
            return source[start...]
        }

        private func indexAfter(_ needle: [UInt8], from start: Int) -> Int? {
            guard start <= source.count - needle.count else { return nil }
            var i = start
            while i <= source.count - needle.count {
                if source[i] == needle[0], source[i ..< i + needle.count].elementsEqual(needle) { return i + needle.count }
                i += 1
            }
            return nil
        }

        // MARK: Elements

        private static let rawText: Set<String> = ["script", "style", "noscript", "iframe", "noembed", "noframes", "xmp"]
        private static let invisible: Set<String> = ["template", "svg", "math"]
        private static let headContent: Set<String> = ["title", "meta", "link", "base", "style", "script", "noscript", "template"]
        private static let blockLevel: Set<String> = [
            "p", "div", "section", "article", "blockquote", "header", "footer", "main", "nav", "aside", "figure",
            "figcaption", "address", "dl", "dt", "dd", "form", "fieldset", "legend", "details", "summary", "hr",
            "center", "hgroup", "body", "html", "dialog", "option",
        ]

        private mutating func startTag(_ name: String, attributes: [String: String], selfClosing: Bool) {
            if let skip = skipping {
                if name == skip.name, !selfClosing { skipping = (skip.name, skip.depth + 1) }
                return
            }
            if Self.invisible.contains(name) {
                if !selfClosing { skipping = (name, 1) }
                return
            }
            if Self.rawText.contains(name) {
                if !selfClosing { _ = rawContent(until: name) }
                return
            }
            if name == "title" {
                let content = rawContent(until: name)
                if title == nil { title = HTMLDocument.decodeEntities(content) }
                return
            }
            if name == "head" { inHead = true; return }
            if inHead, !Self.headContent.contains(name) { inHead = false }
            if name == "textarea" {
                text(rawContent(until: name))
                return
            }

            switch name {
            case "h1", "h2", "h3", "h4", "h5", "h6":
                if inFlattenedContext {
                    boundary()
                } else {
                    finishParagraph()
                    finishHeading()
                    heading = (Int(name.dropFirst())!, InlineText())
                }
            case "br":
                lineBreak()
            case "ul", "ol", "menu":
                if tableDepth > 0 { boundary(); return }
                finishParagraph()
                finishHeading()
                finishItem()
                let first = attributes["start"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
                lists.append((ordered: name == "ol", next: first))
            case "li":
                guard tableDepth == 0, !lists.isEmpty else { boundary(); return }
                finishItem()
                let depth = lists.count - 1
                var marker = "- "
                if lists[depth].ordered {
                    let number = attributes["value"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? lists[depth].next
                    lists[depth].next = number + 1
                    marker = "\(number). "
                }
                item = (String(repeating: "  ", count: depth) + marker, InlineText())
            case "table":
                if tableDepth > 0 {
                    tableDepth += 1
                    boundary()
                } else if !lists.isEmpty {
                    boundary()
                } else {
                    finishParagraph()
                    finishHeading()
                    tableDepth = 1
                }
            case "tr":
                guard tableDepth == 1 else { boundary(); return }
                finishRow()
                row = []
            case "td", "th":
                guard tableDepth == 1 else { boundary(); return }
                finishCell()
                if row == nil { row = [] }
                if name == "th" { rowHasHeaderCell = true }
                cell = InlineText()
            case "pre", "listing":
                if inFlattenedContext { boundary(); return }
                finishParagraph()
                finishHeading()
                preDepth += 1
                // HTML drops one newline right after <pre>, so authors can start content on the next line.
                if at < source.count, source[at] == UInt8(ascii: "\n") { at += 1 }
                else if at + 1 < source.count, source[at] == UInt8(ascii: "\r"), source[at + 1] == UInt8(ascii: "\n") { at += 2 }
            default:
                if Self.blockLevel.contains(name) || name == "caption" { boundary() }
            }
        }

        private mutating func endTag(_ name: String) {
            if let skip = skipping {
                if name == skip.name { skipping = skip.depth > 1 ? (skip.name, skip.depth - 1) : nil }
                return
            }
            switch name {
            case "head":
                inHead = false
            case "h1", "h2", "h3", "h4", "h5", "h6":
                if inFlattenedContext { boundary() } else { finishHeading() }
            case "ul", "ol", "menu":
                if tableDepth > 0 { boundary(); return }
                guard !lists.isEmpty else { return }
                finishItem()
                lists.removeLast()
                if lists.isEmpty { finishList() }
            case "li":
                if tableDepth == 0, !lists.isEmpty { finishItem() } else { boundary() }
            case "table":
                if tableDepth > 1 {
                    tableDepth -= 1
                    boundary()
                } else if tableDepth == 1 {
                    finishTable()
                } else {
                    boundary()
                }
            case "tr":
                if tableDepth == 1 { finishRow() } else { boundary() }
            case "td", "th":
                if tableDepth == 1 { finishCell() } else { boundary() }
            case "pre", "listing":
                if preDepth > 0 {
                    preDepth -= 1
                    if preDepth == 0 { finishPre() }
                } else {
                    boundary()
                }
            default:
                if Self.blockLevel.contains(name) || name == "caption" { boundary() }
            }
        }

        /// Inside a table or a list, block structure is flattened into the cell's or item's text.
        private var inFlattenedContext: Bool { tableDepth > 0 || !lists.isEmpty }

        // MARK: Text routing

        private mutating func text(_ bytes: ArraySlice<UInt8>) {
            guard skipping == nil else { return }
            let decoded = HTMLDocument.decodeEntities(bytes)
            if inHead {
                // Text cannot live in <head>: a page that shows some there simply forgot <body>.
                guard decoded.unicodeScalars.contains(where: { !InlineText.isCollapsible($0) }) else { return }
                inHead = false
            }
            if tableDepth > 0 {
                if cell != nil { cell!.append(decoded) } else { tablePreamble.append(decoded) }
            } else if !lists.isEmpty {
                if item == nil {
                    guard decoded.unicodeScalars.contains(where: { !InlineText.isCollapsible($0) }) else { return }
                    item = (String(repeating: "  ", count: lists.count - 1) + "- ", InlineText())
                }
                item!.text.append(decoded)
            } else if preDepth > 0 {
                pre.append(contentsOf: decoded.replacingOccurrences(of: "\u{A0}", with: " ").utf8)
            } else if heading != nil {
                heading!.text.append(decoded)
            } else {
                paragraph.append(decoded)
            }
        }

        private mutating func lineBreak() {
            guard skipping == nil, !inHead else { return }
            if tableDepth > 0 || !lists.isEmpty || heading != nil {
                boundary()
            } else if preDepth > 0 {
                pre.append(UInt8(ascii: "\n"))
            } else if !paragraph.breakLine() {
                // A second break in a row is how old pages separate paragraphs.
                finishParagraph()
            }
        }

        /// A block boundary where blocks are not modelled only separates words.
        private mutating func boundary() {
            if tableDepth > 0 {
                if cell != nil { cell!.space() } else { tablePreamble.space() }
            } else if !lists.isEmpty {
                item?.text.space()
            } else if preDepth > 0 {
                return
            } else if heading != nil {
                heading!.text.space()
            } else {
                finishParagraph()
            }
        }

        // MARK: Finishing blocks

        private mutating func finishParagraph() {
            let text = paragraph.finish()
            paragraph = InlineText()
            if !text.isEmpty { drafts.append(.paragraph(text)) }
        }

        private mutating func finishHeading() {
            guard let open = heading else { return }
            heading = nil
            let text = open.text.finish()
            guard !text.isEmpty else { return }
            if open.level == 1, firstH1 == nil { firstH1 = text }
            drafts.append(.heading(level: open.level, text: text))
        }

        private mutating func finishItem() {
            guard let open = item else { return }
            item = nil
            let text = open.text.finish()
            if !text.isEmpty { listItems.append(open.marker + text) }
        }

        private mutating func finishList() {
            finishItem()
            if !listItems.isEmpty { drafts.append(.list(items: listItems)) }
            listItems = []
        }

        private mutating func finishCell() {
            guard let open = cell else { return }
            cell = nil
            if row == nil { row = [] }
            row!.append(open.finish())
        }

        private mutating func finishRow() {
            finishCell()
            guard let cells = row else { return }
            row = nil
            defer { rowHasHeaderCell = false }
            guard cells.contains(where: { !$0.isEmpty }) else { return }
            if rowHasHeaderCell { headerRows.insert(rows.count) }
            rows.append(cells)
        }

        private mutating func finishTable() {
            finishRow()
            tableDepth = 0
            let preamble = tablePreamble.finish()
            tablePreamble = InlineText()
            if !preamble.isEmpty { drafts.append(.paragraph(preamble)) }
            // The header is the first row made of <th> cells; failing that the first row, unless
            // the table has nothing but that one row.
            let header = headerRows.min() ?? (rows.count > 1 ? 0 : nil)
            if !rows.isEmpty { drafts.append(.table(rows: rows, header: header)) }
            rows = []
            headerRows = []
        }

        private mutating func finishPre() {
            let text = String(decoding: pre, as: UTF8.self)
            pre = []
            let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            drafts.append(.code(lines: lines))
        }

        private mutating func finishAll() {
            skipping = nil
            finishHeading()
            if tableDepth > 0 { tableDepth = 1; finishTable() }
            if !lists.isEmpty { lists = []; finishList() }
            if preDepth > 0 { preDepth = 0; finishPre() }
            finishParagraph()
        }

        private func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte | 0x20)
        }

        private func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
    }

    /// Text outside <pre>: whitespace runs collapse to one space, and spaces at either end vanish.
    private struct InlineText {
        private(set) var text = ""
        private var pendingSpace = false

        static func isCollapsible(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0C}", "\u{A0}": return true
            default: return false
            }
        }

        mutating func append(_ string: String) {
            for scalar in string.unicodeScalars {
                if Self.isCollapsible(scalar) {
                    pendingSpace = true
                } else {
                    if pendingSpace, !text.isEmpty, !text.hasSuffix("\n") { text.append(" ") }
                    pendingSpace = false
                    text.unicodeScalars.append(scalar)
                }
            }
        }

        mutating func space() {
            pendingSpace = true
        }

        /// Adds a line break; false when the text already ends with one, so the caller can treat
        /// the double break as a paragraph break.
        mutating func breakLine() -> Bool {
            pendingSpace = false
            if text.isEmpty { return true }
            if text.hasSuffix("\n") { return false }
            text.append("\n")
            return true
        }

        func finish() -> String {
            var result = Substring(text)
            while let last = result.last, last.isWhitespace { result.removeLast() }
            return String(result)
        }
    }
}

// MARK: - Rendering drafts (shared by the markup formats)

extension TextLayer {
    /// A block as the HTML and DOCX readers find it, before it has bytes; rendering lays the drafts
    /// out as text and records exact ranges, so the readers never do offset arithmetic themselves.
    enum MarkupDraft: Equatable {
        case heading(level: Int, text: String)
        case paragraph(String)
        /// Items already carry their marker ("- ", "1. ") and indentation.
        case list(items: [String])
        case table(rows: [[String]], header: Int?)
        case code(lines: [String])
    }

    /// Lays drafts out one after another with a blank line between blocks, list items and table
    /// rows on their own lines, and cells joined by " | ".
    init(format: DocumentFormat, title: String?, markup drafts: [MarkupDraft]) {
        var bytes: [UInt8] = []
        var blocks: [Block] = []

        func append(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start ..< bytes.count
        }

        func lines(_ texts: [String]) -> (Range<Int>, [Range<Int>]) {
            let start = bytes.count
            var ranges: [Range<Int>] = []
            for (index, text) in texts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "\n")) }
                ranges.append(append(text))
            }
            return (start ..< bytes.count, ranges)
        }

        for draft in drafts {
            let separator = bytes.isEmpty ? 0 : 2
            if separator > 0 { bytes.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")]) }
            let before = blocks.count
            switch draft {
            case let .heading(level, text):
                let clean = Self.oneLine(text)
                if !clean.isEmpty { blocks.append(Block(kind: .heading(level: min(max(level, 1), 6)), range: append(clean))) }
            case let .paragraph(text):
                let clean = Self.prose(text)
                if !clean.isEmpty { blocks.append(Block(kind: .paragraph, range: append(clean))) }
            case let .list(items):
                let clean = items.map(Self.listItem).filter { !$0.isEmpty }
                if !clean.isEmpty {
                    let (range, parts) = lines(clean)
                    blocks.append(Block(kind: .list, range: range, parts: parts))
                }
            case let .table(rows, header):
                let cells = rows.map { $0.map(Self.oneLine) }
                let kept = cells.indices.filter { cells[$0].contains { !$0.isEmpty } }
                if !kept.isEmpty {
                    let (range, ranges) = lines(kept.map { cells[$0].joined(separator: " | ") })
                    let headerAt = header.flatMap { kept.firstIndex(of: $0) }
                    let parts = ranges.indices.filter { $0 != headerAt }.map { ranges[$0] }
                    blocks.append(Block(kind: .table, range: range, parts: parts, header: headerAt.map { ranges[$0] }))
                }
            case let .code(codeLines):
                var clean = codeLines.map(Self.codeLine)
                while clean.first?.isEmpty == true { clean.removeFirst() }
                while clean.last?.isEmpty == true { clean.removeLast() }
                if !clean.isEmpty {
                    let (range, ranges) = lines(clean)
                    blocks.append(Block(kind: .code, range: range, parts: ranges.filter { !$0.isEmpty }))
                }
            }
            if blocks.count == before { bytes.removeLast(separator) }
        }
        self.init(bytes: bytes, format: format, title: title, blocks: blocks)
    }

    /// A title as metadata: one line, whitespace collapsed, nil when nothing is left.
    static func cleanTitle(_ text: String) -> String? {
        let clean = oneLine(text)
        return clean.isEmpty ? nil : clean
    }

    /// Collapses every whitespace run (newlines included) to one space and drops control characters.
    static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                space = true
            } else if scalar.properties.generalCategory == .control {
                continue
            } else {
                if space, !out.isEmpty { out.append(" ") }
                space = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A list item keeps the indentation that shows its nesting; the rest is one line.
    static func listItem(_ text: String) -> String {
        let indent = text.prefix { $0 == " " }
        let rest = oneLine(String(text.dropFirst(indent.count)))
        return rest.isEmpty ? "" : indent + rest
    }

    /// Prose keeps single line breaks (an author's <br> or a soft return) but never a blank line,
    /// which would read as a block separator. Spacing within a line is the reader's business:
    /// HTML has collapsed it already, while a DOCX tab is meant to stay a tab.
    static func prose(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\u{2028}" })
            .map { line in
                var kept = String.UnicodeScalarView()
                for scalar in line.unicodeScalars where scalar == "\t" || scalar.properties.generalCategory != .control {
                    kept.append(scalar)
                }
                return String(kept).trimmingCharacters(in: .whitespaces)
            }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// Code keeps its indentation and tabs; only control characters and trailing spaces go.
    static func codeLine(_ line: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in line.unicodeScalars where scalar == "\t" || scalar.properties.generalCategory != .control {
            scalars.append(scalar)
        }
        var result = String(scalars)
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
