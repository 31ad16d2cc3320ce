import Foundation

/// What `pb-index --stats` reports about a library.
public struct LibraryStats: Codable, Sendable {
    public var library: String
    public var directory: String
    public var schemaVersion: Int
    public var documents: Int
    public var chunks: Int
    public var embeddedChunks: Int
    /// Rows in the vector file; rows of replaced or deleted chunks stay (as zeros) until a compaction.
    public var vectorRows: Int
    public var deadVectorRows: Int
    public var tombstones: Int
    public var model: String?
    public var dim: Int?
    public var weights: String?
    public var indexBytes: Int
    public var vectorBytes: Int
    /// The vector file's name in the library folder (`vectors.N.f32` after N compactions).
    public var vectorFile: String
    public var formats: [String: Int]

    enum CodingKeys: String, CodingKey {
        case library, directory, documents, chunks, tombstones, model, dim, weights, formats
        case schemaVersion = "schema_version", embeddedChunks = "embedded_chunks", vectorRows = "vector_rows"
        case deadVectorRows = "dead_vector_rows", indexBytes = "index_bytes", vectorBytes = "vector_bytes", vectorFile = "vector_file"
    }

    public init(_ library: Library) throws {
        let db = library.db
        self.library = library.name
        directory = library.directory.path
        schemaVersion = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        documents = Int(try db.scalarInt("SELECT count(*) FROM documents") ?? 0)
        chunks = Int(try db.scalarInt("SELECT count(*) FROM chunks") ?? 0)
        embeddedChunks = Int(try db.scalarInt("SELECT count(*) FROM chunks WHERE vector_row IS NOT NULL") ?? 0)
        vectorRows = try library.committedVectorRows
        deadVectorRows = vectorRows - embeddedChunks
        tombstones = Int(try db.scalarInt("SELECT count(*) FROM tombstones") ?? 0)
        let m = try library.vectorModel()
        model = m?.model
        dim = m?.dim
        weights = m.map(\.weights).flatMap { $0.isEmpty ? nil : $0 }
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        indexBytes = size(library.indexPath) + size(library.indexPath + "-wal")
        vectorBytes = size(library.vectorPath)
        vectorFile = library.vectorFileName
        var formats: [String: Int] = [:]
        let s = try db.prepare("SELECT format, count(*) FROM documents GROUP BY format")
        while try s.step() { formats[s.text(0)] = Int(s.int(1)) }
        self.formats = formats
    }
}
