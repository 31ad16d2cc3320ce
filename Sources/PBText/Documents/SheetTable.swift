import PBCore

/// One sheet of a spreadsheet (XLSX or ODS) on its way into a text layer: a heading with the
/// sheet's name, then its rows as one table, each row led by the sheet's own row number so a
/// quoted row says where it is ("7 | Rent | 1,200").
///
/// Cells are placed by column, so a row with a gap keeps its other cells under their headers;
/// columns empty in every row are dropped. Reading is bounded: a sheet stops at `maximumRows`
/// rows with text, `maximumColumns` columns and `maximumCells` cells with text, and says so,
/// rather than expanding a file's "repeat this row a million times" into memory (a million
/// short cells make a text layer of some tens of megabytes).
struct SheetTable {
    static let maximumRows = 100_000
    static let maximumColumns = 1_024
    static let maximumCells = 1_000_000
    /// Excel's own limit on one cell's text.
    static let maximumCellCharacters = 32_767

    /// What the sheets of one workbook may hold together, so that many sheets, or one long
    /// shared string in a million cells, cannot multiply a small file into gigabytes.
    final class Budget {
        var cells = SheetTable.maximumCells
        var characters = 64 << 20
    }

    var name: String
    let budget: Budget
    private(set) var rows: [(number: Int, cells: [Int: String])] = []
    /// Set when rows or columns past the limits were left out.
    private(set) var truncated = false
    private var cells = 0

    init(name: String, budget: Budget = Budget()) {
        self.name = name
        self.budget = budget
    }

    /// Puts `text` at (row, column), both 1-based. Rows arrive in order; empty text is skipped.
    mutating func set(row: Int, column: Int, _ text: String) {
        guard column >= 1, column <= Self.maximumColumns, cells < Self.maximumCells, budget.cells > 0, budget.characters > 0 else {
            truncated = true
            return
        }
        var clean = TextLayer.oneLine(text.count > Self.maximumCellCharacters ? String(text.prefix(Self.maximumCellCharacters)) : text)
        guard !clean.isEmpty else { return }
        if clean.utf8.count > budget.characters { clean = String(clean.prefix(budget.characters)); truncated = true }
        if rows.last?.number != row {
            guard rows.count < Self.maximumRows else { truncated = true; return }
            rows.append((row, [:]))
        }
        if rows[rows.count - 1].cells.updateValue(clean, forKey: column) == nil {
            cells += 1
            budget.cells -= 1
        }
        budget.characters -= clean.utf8.count
    }

    var isFull: Bool { rows.count >= Self.maximumRows || cells >= Self.maximumCells || budget.cells <= 0 || budget.characters <= 0 }

    mutating func markTruncated() { truncated = true }

    /// The heading and the table; nothing when the sheet has no text.
    func drafts(path: String) -> [TextLayer.MarkupDraft] {
        guard !rows.isEmpty else { return [] }
        let used = Set(rows.flatMap { $0.cells.keys }).sorted()
        // Cells keep their column; only a row's trailing empty cells go, which would show as a
        // dangling " | ".
        let table = rows.map { row in
            var cells = ["\(row.number)"] + used.map { row.cells[$0] ?? "" }
            while cells.last?.isEmpty == true { cells.removeLast() }
            return cells
        }
        if truncated {
            Diagnostics.shared.warning("\(path): sheet '\(name)' was read up to \(Self.maximumRows) rows, \(Self.maximumColumns) columns or \(Self.maximumCells) cells; the rest was left out")
        }
        return [.heading(level: 1, text: "Sheet: \(name)"), .table(rows: table, header: table.count > 1 ? 0 : nil)]
    }

    /// "B7" -> (7, 2); nil when the reference is not a cell reference.
    static func cellReference(_ reference: String) -> (row: Int, column: Int)? {
        var column = 0
        var row = 0
        var letters = 0
        for byte in reference.utf8 {
            switch byte {
            case UInt8(ascii: "A") ... UInt8(ascii: "Z") where row == 0:
                column = column * 26 + Int(byte - UInt8(ascii: "A")) + 1
                letters += 1
            case UInt8(ascii: "a") ... UInt8(ascii: "z") where row == 0:
                column = column * 26 + Int(byte - UInt8(ascii: "a")) + 1
                letters += 1
            case UInt8(ascii: "0") ... UInt8(ascii: "9") where letters > 0:
                row = row * 10 + Int(byte - UInt8(ascii: "0"))
                if row > 10_000_000 { return nil }
            case UInt8(ascii: "$"):
                continue
            default:
                return nil
            }
            if letters > 3 { return nil }
        }
        return letters > 0 && row > 0 ? (row, column) : nil
    }
}
