import Foundation

extension AgentStore {
    /// Every row of every item table, in a fixed order and SQLite's own quoting: two stores with
    /// the same dump hold the same items. The journal and counters are left out.
    public func canonicalDump() throws -> String {
        var lines: [String] = []
        for table in StoreTable.allCases {
            let cols = try columns(table)
            let expr = cols.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
            let s = try db.prepare("SELECT \(expr) FROM \(table.rawValue) ORDER BY id")
            lines.append("[\(table.rawValue)]")
            while try s.step() { lines.append(s.text(0)) }
        }
        return lines.joined(separator: "\n")
    }
}
