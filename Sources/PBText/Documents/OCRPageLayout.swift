/// Lays out one OCR-read page into a text layer: one line of text for each line tesseract
/// found (so a chunk's lines are the page's lines), paragraphs as tesseract grouped them, and
/// tables where the words of consecutive lines fall into columns.
///
/// A column is a gap between two words of a line wider than one and a half times the line's
/// height: word spaces are a third of it or less, even in justified text, and the gap between a
/// receipt's item and its price is three times it and more. Two or more consecutive lines of two
/// or more cells are a table, its rows joined cell by cell with " | " as the HTML and DOCX
/// readers write theirs, so "Cheddar 400g | 4.10" is one row and not "Cheddar 400g 4.10"
/// beside a column of prices read after it.
struct OCRPageLayout {
    /// A word's place in the layer and how sure tesseract was of it.
    struct Span: Sendable, Equatable {
        var range: Range<Int>
        var confidence: Double
    }

    var bytes: [UInt8] = []
    var blocks: [Block] = []
    var spans: [Span] = []

    static let columnGap = 1.5

    /// Lines of words (tesseract's block, paragraph and line), each split into cells.
    struct Line {
        var block: Int
        var paragraph: Int
        var cells: [[OCRWord]]
    }

    static func lines(_ words: [OCRWord]) -> [Line] {
        var out: [Line] = []
        var current: [OCRWord] = []
        func flush() {
            guard let first = current.first else { return }
            let heights = current.map(\.height).sorted()
            let height = Double(heights[heights.count / 2])
            var cells: [[OCRWord]] = [[current[0]]]
            for w in current.dropFirst() {
                if Double(w.left - cells[cells.count - 1].last!.right) > columnGap * height { cells.append([w]) } else { cells[cells.count - 1].append(w) }
            }
            out.append(Line(block: first.block, paragraph: first.paragraph, cells: cells))
            current = []
        }
        for w in words {
            if let last = current.last, (last.block, last.paragraph, last.line) != (w.block, w.paragraph, w.line) { flush() }
            current.append(w)
        }
        flush()
        return out
    }

    /// Appends the page's words as its text, blocks and word spans.
    mutating func append(_ words: [OCRWord], page: Int) {
        let lines = Self.lines(words)
        var i = 0
        while i < lines.count {
            // A run of lines with columns is a table; anything else goes by paragraph.
            var j = i
            while j < lines.count, lines[j].cells.count >= 2 { j += 1 }
            if j - i >= 2 {
                separate()
                let start = bytes.count
                var rows: [Range<Int>] = []
                for (n, line) in lines[i..<j].enumerated() {
                    if n > 0 { bytes.append(0x0A) }
                    let rowStart = bytes.count
                    for (c, cell) in line.cells.enumerated() {
                        if c > 0 { bytes.append(contentsOf: Array(" | ".utf8)) }
                        write(cell)
                    }
                    rows.append(rowStart..<bytes.count)
                }
                blocks.append(Block(kind: .table, range: start..<bytes.count, parts: rows, page: page))
                i = j
                continue
            }
            // One paragraph: the lines of one tesseract paragraph up to the next table run.
            separate()
            let start = bytes.count
            let key = (lines[i].block, lines[i].paragraph)
            var n = 0
            while i < lines.count, (lines[i].block, lines[i].paragraph) == key {
                if lines[i].cells.count >= 2, i + 1 < lines.count, lines[i + 1].cells.count >= 2, n > 0 { break }
                if n > 0 { bytes.append(0x0A) }
                write(lines[i].cells.flatMap { $0 })
                n += 1
                i += 1
            }
            blocks.append(Block(kind: .paragraph, range: start..<bytes.count, page: page))
        }
    }

    /// A blank line before a block that is not the first.
    private mutating func separate() {
        guard !bytes.isEmpty else { return }
        let trailing = bytes.reversed().prefix { $0 == 0x0A }.count
        if trailing < 2 { bytes.append(contentsOf: repeatElement(0x0A, count: 2 - trailing)) }
    }

    private mutating func write(_ words: [OCRWord]) {
        for (k, w) in words.enumerated() {
            if k > 0 { bytes.append(0x20) }
            let start = bytes.count
            bytes.append(contentsOf: Array(w.text.utf8))
            spans.append(Span(range: start..<bytes.count, confidence: w.confidence))
        }
    }
}
