import PBCore

/// CSV (RFC 4180) as one table: the first record is the header, every other record a row.
/// Quoted fields may hold commas, doubled quotes and line breaks; the layer is the file itself.
public enum CSVDocument {
    public static func textLayer(_ bytes: [UInt8], path: String) throws -> TextLayer {
        var bytes = bytes
        var records = try recordRanges(bytes, path: path)
        // Columns are bounded as a sheet's are: past the limit, each record is cut and the layer
        // is the file with those columns left out (offsets then index into that layer).
        let cuts = records.map { columnCut($0, bytes) }
        if cuts.contains(where: { $0 != nil }) {
            var kept: [UInt8] = []
            var ranges: [Range<Int>] = []
            for (r, cut) in zip(records, cuts) {
                let start = kept.count
                kept += bytes[r.lowerBound..<(cut ?? r.upperBound)]
                ranges.append(start..<kept.count)
                kept.append(0x0A)
            }
            bytes = kept
            records = ranges
            Diagnostics.shared.warning("\(path): rows were read up to \(SheetTable.maximumColumns) columns; the columns after that were left out")
        }
        var layer = TextLayer(bytes: bytes, format: .csv)
        guard let first = records.first else { return layer }
        let header = first
        let rows = Array(records.dropFirst())
        layer.blocks = [Block(kind: .table, range: header.lowerBound..<(rows.last ?? header).upperBound, parts: rows, header: header)]
        return layer
    }

    /// Where a record's columns past `SheetTable.maximumColumns` begin (its separator), or nil.
    static func columnCut(_ r: Range<Int>, _ b: [UInt8]) -> Int? {
        var columns = 1
        var inQuotes = false
        for i in r {
            if b[i] == UInt8(ascii: "\"") { inQuotes.toggle() } else if !inQuotes, b[i] == UInt8(ascii: ",") {
                if columns == SheetTable.maximumColumns { return i }
                columns += 1
            }
        }
        return nil
    }

    /// Byte ranges of the records, without their line breaks; blank records are skipped.
    static func recordRanges(_ b: [UInt8], path: String) throws -> [Range<Int>] {
        var records: [Range<Int>] = []
        var i = 0
        var start = 0
        var inQuotes = false
        var line = 1
        var quoteLine = 1
        while i < b.count {
            let c = b[i]
            if inQuotes {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < b.count, b[i + 1] == UInt8(ascii: "\"") { i += 2; continue }
                    inQuotes = false
                } else if c == 0x0A { line += 1 }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inQuotes = true
                quoteLine = line
            case 0x0A, 0x0D:
                var end = i
                if c == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
                if end > start { records.append(start..<end) } else { end = start }
                line += 1
                start = i + 1
            default:
                break
            }
            i += 1
        }
        if inQuotes {
            throw DocumentError.malformed(path: path, reason: "line \(quoteLine): a quoted field is never closed")
        }
        if start < b.count { records.append(start..<b.count) }
        return records.filter { r in !r.allSatisfy { b[$0] == 0x20 || b[$0] == 0x09 || b[$0] == UInt8(ascii: ",") } }
    }
}
