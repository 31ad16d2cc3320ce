/// Lays out one OCR-read page into a text layer: one line of text for each line tesseract
/// found (so a chunk's lines are the page's lines), paragraphs as tesseract grouped them, and
/// tables where the words of consecutive lines fall into columns.
///
/// A column is a gap between two words of a line wider than one and a half times the line's
/// height: word spaces are a third of it or less, even in justified text, and the gap between a
/// receipt's item and its price is three times it and more. Two or more consecutive lines of two
/// or more cells are a table, its rows joined cell by cell with " | " as the HTML and DOCX
/// readers write theirs, so "Cheddar 400g | 4.10" is one row and not "Cheddar 400g 4.10"
/// beside a column of prices read after it. A printed table whose columns tesseract took for
/// blocks is put back into rows first (`regroup`).
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
        for (key, segments) in regroup(words) {
            var cells: [[OCRWord]] = []
            for segment in segments {
                let heights = segment.map(\.height).sorted()
                let height = Double(heights[heights.count / 2])
                // A segment (one tesseract line, or one block's part of a row) starts a cell.
                cells.append([segment[0]])
                for w in segment.dropFirst() {
                    if Double(w.left - cells[cells.count - 1].last!.right) > columnGap * height { cells.append([w]) } else { cells[cells.count - 1].append(w) }
                }
            }
            out.append(Line(block: key.block, paragraph: key.paragraph, cells: cells))
        }
        return out
    }

    /// The most words a line may have to be taken for a table's cell rather than for prose: the
    /// lines of two columns of prose side by side are long, and must not be woven together.
    static let cellWords = 6

    /// tesseract's lines in its reading order, each as its segments. Where short lines of two or
    /// more blocks sit side by side on three or more rows, tesseract has taken a printed table's
    /// columns for blocks and would read it column by column; those lines are joined into rows,
    /// one segment (a cell) per block, each row where its first line was.
    static func regroup(_ words: [OCRWord]) -> [(key: (block: Int, paragraph: Int), segments: [[OCRWord]])] {
        struct TLine {
            var key: (block: Int, paragraph: Int)
            var words: [OCRWord]
            var top: Int
            var bottom: Int
            var left: Int
            var right: Int
        }
        var tlines: [TLine] = []
        for w in words {
            if let last = tlines.last, let lw = last.words.last, (lw.block, lw.paragraph, lw.line) == (w.block, w.paragraph, w.line) {
                tlines[tlines.count - 1].words.append(w)
                tlines[tlines.count - 1].top = min(last.top, w.top)
                tlines[tlines.count - 1].bottom = max(last.bottom, w.top + w.height)
                tlines[tlines.count - 1].left = min(last.left, w.left)
                tlines[tlines.count - 1].right = max(last.right, w.right)
            } else {
                tlines.append(TLine(key: (w.block, w.paragraph), words: [w], top: w.top, bottom: w.top + w.height, left: w.left, right: w.right))
            }
        }
        let plain = tlines.map { (key: $0.key, segments: [$0.words]) }
        // Rows: short lines whose middles are within half a line's height, not overlapping.
        let short = tlines.indices.filter { tlines[$0].words.count <= cellWords }
            .sorted { tlines[$0].top + tlines[$0].bottom < tlines[$1].top + tlines[$1].bottom }
        var rows: [[Int]] = []
        for i in short {
            let middle = tlines[i].top + tlines[i].bottom
            let height = tlines[i].bottom - tlines[i].top
            if let row = rows.last, let first = row.first,
               abs((tlines[first].top + tlines[first].bottom) - middle) <= height,
               !row.contains(where: { tlines[$0].left < tlines[i].right && tlines[i].left < tlines[$0].right }) {
                rows[rows.count - 1].append(i)
            } else {
                rows.append([i])
            }
        }
        rows = rows.filter { row in Set(row.map { tlines[$0].key.block }).count >= 2 }
        guard rows.count >= 3 else { return plain }
        var rowOf: [Int: Int] = [:]
        for (r, row) in rows.enumerated() { for i in row { rowOf[i] = r } }
        var out: [(key: (block: Int, paragraph: Int), segments: [[OCRWord]])] = []
        var emitted = Set<Int>()
        for i in tlines.indices {
            guard let r = rowOf[i] else { out.append(plain[i]); continue }
            guard emitted.insert(r).inserted else { continue }
            let cells = rows[r].sorted { tlines[$0].left < tlines[$1].left }.map { tlines[$0].words }
            // All rows share one paragraph key, so a run of them reads as one table.
            out.append((key: (block: -1, paragraph: 0), segments: cells))
        }
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
