/// Markdown's block structure over the file's own bytes: ATX and setext headings, fenced code,
/// lists, pipe tables, paragraphs; YAML front matter gives the title and is not text.
/// Plain text uses the same scanner with headings, tables and fences switched off.
public struct MarkdownDocument {
    let bytes: [UInt8]
    let lines: LineIndex
    let markdown: Bool

    public static func textLayer(_ bytes: [UInt8], path: String) -> TextLayer {
        MarkdownDocument(bytes: bytes, markdown: true).layer(format: .markdown)
    }

    public static func plainTextLayer(_ bytes: [UInt8], path: String) -> TextLayer {
        MarkdownDocument(bytes: bytes, markdown: false).layer(format: .text)
    }

    /// Headings of plain text, which has no markup for them: a line that opens a paragraph and
    /// is followed by text, and is either written in capitals ("UPCOMING", "CAR MAINTENANCE
    /// LOG": level 1) or starts with an ISO date and does not end a sentence, the entry line of
    /// a log or diary ("2023-06-27  76,890 km  Garage: Hollis Motors": level 2). Each entry then
    /// is a section of its own, and its date stays with what it says.
    func plainHeadingLevel(_ t: Range<Int>) -> Int? {
        guard t.count >= 2, t.count <= 80, let last = bytes[t].last, !".!?;,".utf8.contains(last) else { return nil }
        let line = text(t)
        if startsWithISODate(Array(bytes[t])) { return 2 }
        let letters = line.unicodeScalars.filter { $0.properties.isAlphabetic }
        if letters.count >= 3, letters.allSatisfy({ $0.properties.isUppercase }), !line.contains(",") { return 1 }
        return nil
    }

    /// `YYYY-MM-DD` at the start, then the end, a space or a "T".
    func startsWithISODate(_ b: [UInt8]) -> Bool {
        func digits(_ r: Range<Int>) -> Bool { r.allSatisfy { $0 < b.count && b[$0] >= 0x30 && b[$0] <= 0x39 } }
        guard b.count >= 10, digits(0..<4), b[4] == UInt8(ascii: "-"), digits(5..<7), b[7] == UInt8(ascii: "-"), digits(8..<10) else { return false }
        return b.count == 10 || b[10] == 0x20 || b[10] == 0x09 || b[10] == UInt8(ascii: "T")
    }

    init(bytes: [UInt8], markdown: Bool) {
        self.bytes = bytes
        self.lines = LineIndex(bytes)
        self.markdown = markdown
    }

    func line(_ i: Int) -> Range<Int> { lines.range(ofLine: i, in: bytes) }

    func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

    func isBlank(_ i: Int) -> Bool { line(i).allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 } }

    /// Leading spaces of line i (tabs count as 4).
    func indent(_ i: Int) -> Int {
        var n = 0
        for p in line(i) {
            if bytes[p] == 0x20 { n += 1 } else if bytes[p] == 0x09 { n += 4 } else { break }
        }
        return n
    }

    func trimmed(_ r: Range<Int>) -> Range<Int> { SentenceSegmenter.trim(bytes, r) }

    func layer(format: DocumentFormat) -> TextLayer {
        var blocks: [Block] = []
        var (title, i) = markdown ? frontMatter() : (nil, 0)
        let n = lines.count
        var paragraph: [Int] = []
        func flushParagraph() {
            guard let first = paragraph.first, let last = paragraph.last else { return }
            let r = trimmed(line(first).lowerBound..<line(last).upperBound)
            if !r.isEmpty { blocks.append(Block(kind: .paragraph, range: r)) }
            paragraph.removeAll()
        }
        while i < n {
            let t = trimmed(line(i))
            if t.isEmpty { flushParagraph(); i += 1; continue }
            let ind = indent(i)
            if markdown, ind < 4, let fence = fenceMarker(t) {
                flushParagraph()
                let (block, next) = codeBlock(at: i, fence: fence, first: t)
                blocks.append(block)
                i = next
                continue
            }
            if markdown, ind < 4, let (level, content) = atxHeading(t) {
                flushParagraph()
                if !content.isEmpty { blocks.append(Block(kind: .heading(level: level), range: content)) }
                i += 1
                continue
            }
            if markdown, ind < 4, !paragraph.isEmpty, let level = setextLevel(t), paragraph.count == 1 {
                let h = trimmed(line(paragraph[0]))
                paragraph.removeAll()
                blocks.append(Block(kind: .heading(level: level), range: h))
                i += 1
                continue
            }
            if !markdown, paragraph.isEmpty, i + 1 < n, !isBlank(i + 1), let level = plainHeadingLevel(t) {
                blocks.append(Block(kind: .heading(level: level), range: t))
                i += 1
                continue
            }
            if markdown, ind < 4, isRule(t) { flushParagraph(); i += 1; continue }
            if markdown, i + 1 < n, contains(t, "|"), isTableSeparator(trimmed(line(i + 1))) {
                flushParagraph()
                let (block, next) = table(at: i, header: t)
                blocks.append(block)
                i = next
                continue
            }
            if ind < 4, listMarker(t) != nil {
                flushParagraph()
                let (block, next) = list(at: i, first: t, indent: ind)
                blocks.append(block)
                i = next
                continue
            }
            paragraph.append(i)
            i += 1
        }
        flushParagraph()
        if markdown, title == nil, case .heading(1)? = blocks.first(where: { if case .heading = $0.kind { return true }; return false })?.kind,
           let h = blocks.first(where: { $0.kind == .heading(level: 1) }) {
            title = text(h.range)
        }
        return TextLayer(bytes: bytes, format: format, title: title, blocks: blocks)
    }

    /// YAML front matter between "---" lines: metadata, not prose. Its `title:` and the first
    /// line after it; (nil, 0) when there is none, or it never closes within 200 lines.
    func frontMatter() -> (title: String?, start: Int) {
        let n = lines.count
        guard n > 2, text(line(0)) == "---" else { return (nil, 0) }
        var title: String?
        var j = 1
        while j < min(n, 200), text(line(j)) != "---", text(line(j)) != "..." {
            let l = text(line(j))
            if l.hasPrefix("title:") { title = l.dropFirst(6).trimmingCharacters(in: " \"'") }
            j += 1
        }
        return j < min(n, 200) ? (title, j + 1) : (nil, 0)
    }

    /// A fenced code block from line `i` to its closing fence (or the end); its non-blank lines
    /// are its parts. Returns the block and the line after it.
    func codeBlock(at i: Int, fence: String, first t: Range<Int>) -> (Block, Int) {
        let n = lines.count
        var j = i + 1
        var parts: [Range<Int>] = []
        while j < n, !text(trimmed(line(j))).hasPrefix(fence) { if !isBlank(j) { parts.append(line(j)) }; j += 1 }
        let end = j < n ? line(j).upperBound : line(n - 1).upperBound
        return (Block(kind: .code, range: t.lowerBound..<end, parts: parts), min(j + 1, n))
    }

    /// A pipe table: the header at line `i`, the separator after it, then rows up to a blank line
    /// or a line without a pipe. Returns the block and the line after it.
    func table(at i: Int, header t: Range<Int>) -> (Block, Int) {
        let n = lines.count
        var rows: [Range<Int>] = []
        var j = i + 2
        while j < n, !isBlank(j), contains(line(j), "|") { rows.append(trimmed(line(j))); j += 1 }
        let end = rows.last?.upperBound ?? trimmed(line(i + 1)).upperBound
        return (Block(kind: .table, range: t.lowerBound..<end, parts: rows, header: t), j)
    }

    /// A list from line `i` (indented `ind`): its items are the marked lines at most one column
    /// deeper, each with the lines that continue it. Returns the block and the line after it.
    func list(at i: Int, first t: Range<Int>, indent ind: Int) -> (Block, Int) {
        let n = lines.count
        var items: [Range<Int>] = []
        var itemStart = t.lowerBound
        var lastEnd = t.upperBound
        var j = i + 1
        while j < n {
            if isBlank(j) {
                // A blank line continues the list only if an item or an indented line follows.
                var k = j + 1
                while k < n, isBlank(k) { k += 1 }
                guard k < n, listMarker(trimmed(line(k))) != nil || indent(k) >= 2 else { break }
                j = k
                continue
            }
            let lt = trimmed(line(j))
            if listMarker(lt) != nil, indent(j) <= ind + 1 {
                items.append(itemStart..<lastEnd)
                itemStart = lt.lowerBound
            } else if indent(j) < 2, markdown, atxHeading(lt) != nil || fenceMarker(lt) != nil {
                break
            }
            lastEnd = lt.upperBound
            j += 1
        }
        items.append(itemStart..<lastEnd)
        return (Block(kind: .list, range: t.lowerBound..<lastEnd, parts: items), j)
    }

    func contains(_ r: Range<Int>, _ ch: Character) -> Bool {
        let b = ch.asciiValue!
        return r.contains { bytes[$0] == b }
    }

    func fenceMarker(_ t: Range<Int>) -> String? {
        let s = text(t)
        if s.hasPrefix("```") { return "```" }
        if s.hasPrefix("~~~") { return "~~~" }
        return nil
    }

    /// `## Title ##` -> (2, range of "Title").
    func atxHeading(_ t: Range<Int>) -> (Int, Range<Int>)? {
        var level = 0
        var p = t.lowerBound
        while p < t.upperBound, bytes[p] == UInt8(ascii: "#") { level += 1; p += 1 }
        guard (1...6).contains(level), p == t.upperBound || bytes[p] == 0x20 || bytes[p] == 0x09 else { return nil }
        var hi = t.upperBound
        while hi > p, bytes[hi - 1] == UInt8(ascii: "#") { hi -= 1 }
        if hi < t.upperBound, hi > p, bytes[hi - 1] != 0x20 { hi = t.upperBound } // "C#" keeps its hash
        return (level, trimmed(p..<hi))
    }

    func setextLevel(_ t: Range<Int>) -> Int? {
        let s = text(t)
        if s.allSatisfy({ $0 == "=" }) { return 1 }
        if s.count >= 2, s.allSatisfy({ $0 == "-" }) { return 2 }
        return nil
    }

    func isRule(_ t: Range<Int>) -> Bool {
        let s = text(t).filter { $0 != " " }
        guard s.count >= 3, let c = s.first, "-*_".contains(c) else { return false }
        return s.allSatisfy { $0 == c }
    }

    func isTableSeparator(_ t: Range<Int>) -> Bool {
        let s = text(t)
        guard s.contains("-"), s.contains("|") || s.hasPrefix(":") || s.hasPrefix("-") else { return false }
        return s.allSatisfy { "|:- \t".contains($0) }
    }

    /// Length of a list marker ("- ", "* ", "+ ", "• ", "12. ", "3) ") at the start of t.
    func listMarker(_ t: Range<Int>) -> Int? {
        let s = Array(text(t).unicodeScalars.prefix(12))
        guard let c = s.first else { return nil }
        if "-*+•".unicodeScalars.contains(c) {
            guard s.count >= 2, s[1] == " " || s[1] == "\t" else { return nil }
            if markdown, isRule(t) { return nil }
            return 2
        }
        var k = 0
        while k < s.count, k < 9, ("0"..."9").contains(s[k]) { k += 1 }
        guard k > 0, k + 1 < s.count, s[k] == "." || s[k] == ")", s[k + 1] == " " || s[k + 1] == "\t" else { return nil }
        return k + 2
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
