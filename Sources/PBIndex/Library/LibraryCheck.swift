import Foundation

/// `pb-index --check`: the consistency a crash must never break, checked from both ends.
public struct LibraryCheck: Codable, Sendable {
    public var library: String
    public var consistent: Bool
    public var problems: [String]

    public init(_ library: Library) throws {
        self.library = library.name
        var problems: [String] = []
        let db = library.db
        guard library.schemaVersion > 0 else {
            // Emptied or replaced: nothing to check inside, and the vectors have lost their index.
            problems.append("\(library.indexPath) holds no schema (empty, or not a library index)")
            if let rows = Library.vectorRows(at: library.vectorPath), rows > 0 {
                problems.append("\(library.vectorPath) holds \(rows) vector rows that no index accounts for")
            }
            self.problems = problems
            consistent = false
            return
        }
        if let result = try db.scalarText("PRAGMA integrity_check"), result != "ok" {
            problems.append("sqlite integrity_check: \(result)")
        }
        let chunks = try db.scalarInt("SELECT count(*) FROM chunks") ?? 0
        let fts = try db.scalarInt("SELECT count(*) FROM chunks_fts") ?? 0
        if chunks != fts { problems.append("\(chunks) chunks but \(fts) full-text rows") }
        let orphans = try db.scalarInt("SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)") ?? 0
        if orphans > 0 { problems.append("\(orphans) full-text rows without a chunk") }
        let miscounted = try db.scalarInt("SELECT count(*) FROM documents d WHERE d.chunks != (SELECT count(*) FROM chunks c WHERE c.doc = d.id)") ?? 0
        if miscounted > 0 { problems.append("\(miscounted) documents whose chunk count is wrong") }
        let committed = try library.committedVectorRows
        let beyond = try db.scalarInt("SELECT count(*) FROM chunks WHERE vector_row >= ?", [.int(Int64(committed))]) ?? 0
        if beyond > 0 { problems.append("\(beyond) chunks point past the \(committed) committed vector rows") }
        if committed > 0 {
            do {
                guard let file = try library.vectors() else { throw VectorFileError.io(path: library.vectorPath, reason: "missing") }
                let size = ((try? FileManager.default.attributesOfItem(atPath: library.vectorPath))?[.size] as? NSNumber)?.intValue ?? 0
                let rows = (size - VectorFile.headerSize) / (file.dim * 4)
                if rows < committed { problems.append("vector file has \(rows) rows, index committed \(committed)") }
                if let m = try library.vectorModel(), m.dim != file.dim || m.model != file.model {
                    problems.append("vector file holds \(file.dim)-d '\(file.model)', index says \(m.dim)-d '\(m.model)'")
                }
            } catch {
                problems.append("vector file: \(error)")
            }
        }
        self.problems = problems
        consistent = problems.isEmpty
    }
}
