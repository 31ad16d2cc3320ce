/// Reads the tables of a page that `pdftotext -layout` laid out in columns.
///
/// pdftotext without -layout writes a table column by column, and where a cell is empty or wraps
/// onto a second line the columns no longer pair up: "Standing charge" lands beside "337 kWh".
/// With -layout every row is one line, its cells separated by runs of spaces at the columns' places,
/// and a cell that wraps continues on the next line under its own column. A table here is a run of
/// two or more such rows whose cells start at shared columns; its rows are written with their
/// cells joined by " | ", empty cells kept in place (so a cell stays under its header) and
/// continuation lines merged into the row above. Lines outside tables lose the layout's
/// indentation and runs of spaces, and read as pdftotext's plain output does.
///
/// A page set in two columns of prose (a newsletter, a paper) reads badly with -layout: each line
/// holds half a sentence of each column. `isMultiColumnProse` finds such pages, and the reader
/// keeps the plain output for them.
public enum LayoutTables {
    /// A cell: its text and the column it starts at.
    struct Cell: Equatable {
        var start: Int
        var text: String
    }

    /// The page with its tables as rows and its other lines plain; nil when it has no table.
    public static func render(_ page: ArraySlice<UInt8>) -> [UInt8]? {
        let lines = String(decoding: page, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cells = lines.map(Self.cells)
        var out: [String] = []
        var found = false
        var i = 0
        while i < lines.count {
            if let table = table(at: i, cells) {
                // Column names set over the rows on lines of their own, a group's name above its
                // columns' ("Full load" over "Front  Rear"), become one header row.
                if let band = headerBand(above: i, cells, columns: table.columns) {
                    out.removeLast(band.lines)
                    out.append(band.row)
                }
                out += table.rows
                found = true
                i = table.end
            } else {
                out.append(plain(lines[i]))
                i += 1
            }
        }
        return found ? Array(out.joined(separator: "\n").utf8) : nil
    }

    /// Whether most of a page's text lines hold two long runs of words side by side: prose set
    /// in two columns.
    public static func isMultiColumnProse(_ page: ArraySlice<UInt8>) -> Bool {
        let lines = String(decoding: page, as: UTF8.self).split(separator: "\n").map(String.init)
        let text = lines.filter { !$0.allSatisfy(\.isWhitespace) }
        guard text.count >= 6 else { return false }
        let split = text.filter { line in
            let c = cells(line)
            return c.count == 2 && c.allSatisfy { $0.text.count >= 25 && $0.text.contains(" ") }
        }
        return split.count * 2 >= text.count
    }

    /// A line's cells: runs of text separated by two or more spaces.
    static func cells(_ line: String) -> [Cell] {
        var out: [Cell] = []
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
            guard i < chars.count else { break }
            let start = i
            var end = i
            while end < chars.count {
                if chars[end] == " " || chars[end] == "\t" {
                    var gap = end
                    while gap < chars.count, chars[gap] == " " || chars[gap] == "\t" { gap += 1 }
                    if gap - end >= 2 || gap == chars.count { break }
                    end = gap
                } else {
                    end += 1
                }
            }
            out.append(Cell(start: start, text: String(chars[start..<end])))
            i = end
        }
        return out
    }

    /// "1.", "12)", "(3)", "a)", "-", "•", "*".
    static func isListMarker(_ cell: String) -> Bool {
        ["-", "•", "*", "–", "·"].contains(cell) || isNumberMarker(cell)
    }

    /// A list item's number alone: "1.", "12)", "(3)", "a)".
    public static func isNumberMarker(_ cell: String) -> Bool {
        var t = Substring(cell)
        if t.hasPrefix("(") { t = t.dropFirst() }
        guard let last = t.last, last == "." || last == ")" else { return false }
        let body = t.dropLast()
        return (1...2).contains(body.count) && (body.allSatisfy(\.isNumber) || (body.count == 1 && body.first!.isLetter))
    }

    /// A line outside a table: no indentation, single spaces.
    static func plain(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// The table starting at line `first`, if one does: its rendered rows and the line after it.
    /// Rows are lines of two or more cells; a line of cells that all start under a column other
    /// than the first continues the row above. The columns are where the first row's cells
    /// start, and every row's cells must start at one of them (within two places).
    static func table(at first: Int, _ lines: [[Cell]]) -> (rows: [String], end: Int, columns: [Int])? {
        guard lines[first].count >= 2, lines[first].allSatisfy({ $0.text.count <= 60 }) else { return nil }
        let columns = lines[first].map(\.start)
        func column(of cell: Cell) -> Int? {
            columns.indices.min { abs(columns[$0] - cell.start) < abs(columns[$1] - cell.start) }
                .flatMap { abs(columns[$0] - cell.start) <= 2 ? $0 : nil }
        }
        var rows: [[String]] = []
        var end = first
        while end < lines.count, !lines[end].isEmpty {
            let line = lines[end]
            let placed = line.map(column(of:))
            guard !placed.contains(nil), Set(placed.compactMap { $0 }).count == line.count else { break }
            if line.count >= 2 {
                var row = Array(repeating: "", count: columns.count)
                for (cell, at) in zip(line, placed) { row[at!] = cell.text }
                rows.append(row)
            } else if let at = placed[0], at > 0, !rows.isEmpty {
                // A wrapped cell: its text goes on in the row above.
                rows[rows.count - 1][at] += (rows[rows.count - 1][at].isEmpty ? "" : " ") + line[0].text
            } else {
                break
            }
            end += 1
        }
        // A list laid out with its markers apart ("1.   Unscrew the bolts") is not a table.
        guard rows.count >= 2, !rows.allSatisfy({ isListMarker($0[0]) }) else { return nil }
        return (rows.map { $0.joined(separator: " | ") }, end, columns)
    }

    /// The header of a table whose column names stand on the one to three lines just above its
    /// first row (`first`), centred over their columns rather than starting where the cells do:
    /// the line nearest the rows names each column, a line above it with fewer names names
    /// groups of columns, each from its own column up to the next group's; a name under the first
    /// column names it alone. Nil when the lines above are not such names (prose, a caption, a
    /// figure), or a name sits over no column, or two over one.
    static func headerBand(above first: Int, _ lines: [[Cell]], columns: [Int]) -> (row: String, lines: Int)? {
        guard columns.count >= 3 else { return nil }
        var band: [[Cell]] = []
        var at = first - 1
        while at >= 0, band.count < 3, !lines[at].isEmpty {
            band.insert(lines[at], at: 0)
            at -= 1
        }
        guard !band.isEmpty else { return nil }
        // The column a name is over: the one whose span (from its start to the next's) holds the
        // name's middle.
        func column(of cell: Cell) -> Int {
            let middle = cell.start + cell.text.count / 2
            return columns.lastIndex { $0 <= middle } ?? 0
        }
        var names = Array(repeating: [String](), count: columns.count)
        for (k, line) in band.enumerated() {
            guard line.allSatisfy({ Self.isColumnName($0.text) }) else { return nil }
            let placed = line.map(column(of:))
            guard Set(placed).count == placed.count else { return nil }
            let beyondFirst = zip(line, placed).filter { $0.1 > 0 }
            let nearest = k == band.count - 1
            // The names line: every column but the first named, one name each.
            if nearest, beyondFirst.count != columns.count - 1 { return nil }
            for (i, (cell, col)) in zip(line, placed).enumerated() {
                if col == 0 || nearest {
                    names[col].append(cell.text)
                } else {
                    // A group: its columns run to the next group name on the line.
                    let next = placed.dropFirst(i + 1).first ?? columns.count
                    for c in col..<max(col + 1, next) { names[c].append(cell.text) }
                }
            }
        }
        return (names.map { $0.joined(separator: " ") }.joined(separator: " | "), band.count)
    }

    /// A column's name: a few words, not a sentence, not a figure.
    static func isColumnName(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard (1...5).contains(words.count), let last = text.last, !".:;,".contains(last) else { return false }
        return words.filter { $0.contains(where: \.isNumber) }.count <= 1 && words.contains { $0.allSatisfy(\.isLetter) }
    }
}
