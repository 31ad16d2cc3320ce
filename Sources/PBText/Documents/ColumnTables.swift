/// Puts a PDF's tables back into rows.
///
/// pdftotext (without -layout) writes a table column by column: the first column's cells one per
/// line, a blank line, the second column's cells, and so on. Read that way, "Escape of water" and
/// its "£500" are eight lines apart, and no sentence holds both. A run of two or more blocks of
/// the same number of short lines (three or more), one after another and separated by single
/// blank lines, where a later block holds figures (digits or a currency sign in half its lines,
/// or there are three or more columns), is such a table: it is written back as rows, cells joined
/// by " | " as the HTML and DOCX readers lay out a table's cells.
///
/// Lists that happen to be of equal length are left alone unless their lines are short labels
/// (at most 70 bytes, the first column's not ending in a full stop) and a later column holds
/// figures: a sentence list is never zipped into rows.
public enum ColumnTables {
    static let maximumLine = 70

    /// pdftotext's whole output (pages ended by form feeds), each page's tables as rows.
    public static func pages(_ output: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, page) in output.split(separator: 0x0C, omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out.append(0x0C) }
            out += rows(page)
        }
        return out
    }

    /// A page of pdftotext's output with its column-wise tables written as rows.
    public static func rows(_ page: ArraySlice<UInt8>) -> [UInt8] {
        let lines = page.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        // Blocks: runs of non-blank lines, with where each starts and ends in `lines`.
        var blocks: [Range<Int>] = []
        var i = 0
        while i < lines.count {
            if isBlank(lines[i]) { i += 1; continue }
            var j = i
            while j < lines.count, !isBlank(lines[j]) { j += 1 }
            blocks.append(i..<j)
            i = j
        }
        var out: [[UInt8]] = []
        var next = 0  // the first line not yet written
        var b = 0
        while b < blocks.count {
            var group = [blocks[b]]
            // A heading or a paragraph may run straight into the first column, with no blank
            // line between: the first column is then the block's last lines, as many as the next
            // column has.
            if b + 1 < blocks.count, blocks[b + 1].lowerBound == blocks[b].upperBound + 1,
               blocks[b + 1].count >= 3, blocks[b + 1].count < blocks[b].count {
                group = [(blocks[b].upperBound - blocks[b + 1].count)..<blocks[b].upperBound]
            }
            while b + group.count < blocks.count {
                let candidate = blocks[b + group.count]
                let previous = group.last!
                // One blank line between columns, and the same number of cells.
                guard candidate.lowerBound == previous.upperBound + 1, candidate.count == previous.count else { break }
                group.append(candidate)
            }
            if isTable(group, lines) {
                out += lines[next..<group[0].lowerBound]
                for r in 0..<group[0].count {
                    var row: [UInt8] = []
                    for (c, column) in group.enumerated() {
                        if c > 0 { row += Array(" | ".utf8) }
                        row += trimmed(lines[column.lowerBound + r])
                    }
                    out.append(row)
                }
                next = group.last!.upperBound
                b += group.count
            } else {
                b += 1
            }
        }
        out += lines[next...]
        var bytes: [UInt8] = []
        for (k, line) in out.enumerated() {
            if k > 0 { bytes.append(0x0A) }
            bytes += line
        }
        return bytes
    }

    static func isTable(_ group: [Range<Int>], _ lines: [[UInt8]]) -> Bool {
        guard group.count >= 2, group[0].count >= 3 else { return false }
        for column in group {
            for l in column where trimmed(lines[l]).count > maximumLine || lines[l].contains(0x7C) { return false }
        }
        // The first column is labels, not sentences.
        let sentences = group[0].filter { trimmed(lines[$0]).last == UInt8(ascii: ".") }.count
        guard sentences * 2 < group[0].count else { return false }
        if group.count >= 3 { return true }
        return group.dropFirst().contains { column in
            column.filter { l in lines[l].contains { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0xC2 || $0 == 0x24 || $0 == 0xE2 } }.count * 2 >= column.count
        }
    }

    static func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    static func trimmed(_ line: [UInt8]) -> [UInt8] {
        var a = 0, z = line.count
        while a < z, line[a] == 0x20 || line[a] == 0x09 || line[a] == 0x0D { a += 1 }
        while z > a, line[z - 1] == 0x20 || line[z - 1] == 0x09 || line[z - 1] == 0x0D { z -= 1 }
        return Array(line[a..<z])
    }
}
