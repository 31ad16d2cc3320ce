import Foundation

/// A table row as text, read back into cells: a CSV record (commas, quotes doubled inside quoted
/// fields), a row of tab-separated cells (the DOCX, HTML and sheet readers' layout), or a Markdown
/// row between pipes. With the table's header row, a row reads as "Column: cell" pairs, so an
/// answer taken from a table says which column its value is in.
public enum TableRow {
    /// The cells of `line`, trimmed; nil when it is not a row of at least two cells.
    public static func cells(_ line: String, csv: Bool) -> [String]? {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        var out: [String]
        if csv {
            out = csvFields(text)
        } else if text.filter({ $0 == "\t" }).count >= 1 {
            out = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        } else if text.filter({ $0 == "|" }).count >= 2 {
            var t = Substring(text)
            if t.hasPrefix("|") { t = t.dropFirst() }
            if t.hasSuffix("|") { t = t.dropLast() }
            out = t.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        } else {
            return nil
        }
        out = out.map { $0.trimmingCharacters(in: .whitespaces) }
        // A Markdown rule (|---|:---:|) is no row.
        if out.allSatisfy({ $0.allSatisfy { "-:= ".contains($0) } }) { return nil }
        return out.count >= 2 ? out : nil
    }

    /// The row read under its header. With `naming` (the share of a column name's words the
    /// question holds) and a table of three or more columns of which the question names some but
    /// not all, the row's first cell and the columns it names: every column whose whole name it
    /// holds ("March" and "Monthly budget" for "March's spending against the monthly budget"),
    /// else those it names most ("Peril: Escape of water; Buildings excess: £500"; "rear ... at
    /// full load" is "Full load Rear", not "Up to 3 people Rear"); otherwise every non-empty cell
    /// as "Header: cell". Nil unless the row and the header have cells to pair.
    public static func labelled(_ row: String, header: String, csv: Bool, naming: ((String) -> Double)? = nil) -> String? {
        guard var values = cells(row, csv: csv), var names = cells(header, csv: csv), values != names else { return nil }
        // A sheet's row numbers ("3 | New bicycle | 900" under "1 | Goal | Target") are no column.
        if let r = values.first, let h = names.first, Int(r) != nil, Int(h) != nil {
            values.removeFirst()
            names.removeFirst()
        }
        func pair(_ i: Int) -> String { i < names.count && !names[i].isEmpty ? "\(names[i]): \(values[i])" : values[i] }
        if let naming, names.count >= 3 {
            let named = names.indices.dropFirst().filter { $0 < values.count }.map { ($0, naming(names[$0])) }
            let whole = named.filter { $0.1 >= 1 }.map(\.0)
            let most = named.map(\.1).max() ?? 0
            let wanted = !whole.isEmpty ? whole : most > 0 ? named.filter { $0.1 == most }.map(\.0) : []
            if !wanted.isEmpty, wanted.count < names.count - 1 {
                return ([pair(0)] + wanted.filter { !values[$0].isEmpty }.map(pair)).joined(separator: "; ")
            }
        }
        let parts = values.indices.filter { !values[$0].isEmpty }.map(pair)
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The fields of one CSV record (RFC 4180).
    static func csvFields(_ line: String) -> [String] {
        var out: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(line)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                out.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        out.append(field)
        return out
    }

    /// The header row a chunk's rows are read under: the second line of its prefix (a
    /// continuation of a table carries it there), else its first line that is a row, when the
    /// chunk holds at least two rows.
    public static func header(prefix: String?, text: String, csv: Bool) -> String? {
        if let prefix, let newline = prefix.firstIndex(of: "\n") {
            let h = prefix[prefix.index(after: newline)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if cells(h, csv: csv) != nil { return h }
        }
        // "\r\n" is one Character: split on every kind of line end.
        let rows = text.split(whereSeparator: \.isNewline).map(String.init).filter { cells($0, csv: csv) != nil }
        guard rows.count >= 2, let first = cells(rows[0], csv: csv), looksLikeHeader(first) else { return nil }
        return rows[0].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Column names: short (six words at most), without amounts, and words rather than figures
    /// (one word with a figure among three or more without: "Up to 3 people Front"), unless a sheet
    /// numbered its rows in the first cell. "Policyholders | Ms Eleanor Whitcombe and Mr Tomasz
    /// Brandt" is the first row of a two-column table of facts, not its header; "31 days" is a cell.
    static func looksLikeHeader(_ cells: [String]) -> Bool {
        let named = Int(cells[0]) != nil ? Array(cells.dropFirst()) : cells
        return !named.isEmpty && named.allSatisfy { cell in
            let words = cell.split(separator: " ")
            let figures = words.filter { $0.contains(where: \.isNumber) }.count
            return words.count <= 6 && !cell.contains(where: { "£$€".contains($0) })
                && (figures == 0 || (figures == 1 && words.count >= 4))
        }
    }
}
