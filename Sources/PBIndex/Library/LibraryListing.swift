import Foundation
import PBCore

/// What `pb-index --list` writes: one entry per document a library holds, and one per tombstone,
/// so a person can see what is in it (as records for jq, or as a table on a terminal).
public struct LibraryListing: Sendable {
    /// A document: its path, title, format, chunks (and how many have vectors), when it was indexed.
    public struct Document: Codable, Sendable, Equatable {
        public var kind = "document"
        public var library: String
        public var path: String
        public var title: String
        public var format: String
        public var chunks: Int
        public var vectors: Int
        public var indexedAt: String

        enum CodingKeys: String, CodingKey {
            case kind, library, path, title, format, chunks, vectors
            case indexedAt = "indexed_at"
        }
    }

    /// A path deleted with its content: the same content there is refused until `--restore`.
    public struct Tombstone: Codable, Sendable, Equatable {
        public var kind = "tombstone"
        public var library: String
        public var path: String
        public var deletedAt: String

        enum CodingKeys: String, CodingKey {
            case kind, library, path
            case deletedAt = "deleted_at"
        }
    }

    public var documents: [Document] = []
    public var tombstones: [Tombstone] = []

    public init(_ library: Library) throws {
        let s = try library.db.prepare("""
            SELECT d.path, d.title, d.format, d.chunks, d.indexed_at,
                   (SELECT count(*) FROM chunks c WHERE c.doc = d.id AND c.vector_row IS NOT NULL) AS vectors
            FROM documents d ORDER BY d.path
            """)
        while try s.step() {
            documents.append(Document(library: library.name, path: s.text("path"), title: s.text("title"), format: s.text("format"),
                                      chunks: Int(s.int("chunks")), vectors: Int(s.int("vectors")), indexedAt: Self.time(s.double("indexed_at"))))
        }
        let t = try library.db.prepare("SELECT path, deleted_at FROM tombstones ORDER BY path")
        while try t.step() {
            tombstones.append(Tombstone(library: library.name, path: t.text(0), deletedAt: Self.time(t.double(1))))
        }
    }

    /// Seconds since 1970 as an ISO 8601 time in UTC, to the second.
    static func time(_ seconds: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(secondsFromGMT: 0)
        return f.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    /// The table a person reads: one line per document (format, chunks, date, path), then the tombstones.
    public var text: String {
        var lines: [String] = []
        for d in documents {
            let chunks = "\(d.chunks) chunk\(d.chunks == 1 ? "" : "s")"
            lines.append("\(d.format.padding(toLength: 8, withPad: " ", startingAt: 0)) \(chunks.padding(toLength: 11, withPad: " ", startingAt: 0)) \(d.indexedAt.prefix(10))  \(d.path)")
        }
        if !tombstones.isEmpty {
            lines.append("deleted (kept out by a tombstone; pb-ingest --restore brings one back):")
            for t in tombstones { lines.append("         \(t.deletedAt.prefix(10))  \(t.path)") }
        }
        let docs = "\(documents.count) document\(documents.count == 1 ? "" : "s")"
        lines.append("\(docs), \(tombstones.count) tombstone\(tombstones.count == 1 ? "" : "s")")
        return lines.joined(separator: "\n") + "\n"
    }
}
