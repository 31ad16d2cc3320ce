import PBCore

/// `pb-index --changed`: passes through the chunk records of documents the library does not
/// already hold with the same content, and replaces the chunks of every other document by one
/// `doc` record marked `unchanged` (so `pb-embed` embeds only what is new, and a later
/// `pb-index --prune` still knows those documents are present).
///
/// It only reads the library (no write lock: the pb-index at the end of the same pipe holds it),
/// and a library that does not exist yet makes every document new.
public final class ChangeFilter {
    let library: Library?
    let restore: Bool
    let writer: NDJSONWriter
    private let codec = RecordCodec()
    private var currentDoc: String?
    private var passing = true

    public init(library: Library?, restore: Bool, writer: NDJSONWriter = .standardOutput) {
        self.library = library
        self.restore = restore
        self.writer = writer
    }

    public func consume(_ line: InputLine) throws {
        try consume(line, raw: try codec.decodeObject(line.data))
    }

    public func consume(_ line: InputLine, raw: [String: JSONValue]) throws {
        if case .string(let kind)? = raw["kind"], kind != "chunk" {
            // Not ours to judge (error records, markers): pass on unchanged.
            var data = line.data
            data.append(UInt8(ascii: "\n"))
            writer.writeLine(data)
            return
        }
        let chunk = try codec.decode(ChunkRecord.self, from: line.data, raw: raw)
        if chunk.docID != currentDoc {
            currentDoc = chunk.docID
            var marker: DocRecord?
            if let library, let stored = try library.document(path: chunk.path), stored.hash == chunk.docHash {
                marker = DocRecord(path: chunk.path, library: chunk.library)
            } else if !restore, let library, let t = try library.tombstone(path: chunk.path), t.hash == chunk.docHash {
                marker = DocRecord(path: chunk.path, library: chunk.library)
                marker?.extra["tombstoned"] = .bool(true)
            }
            passing = marker == nil
            if var marker {
                marker.docID = chunk.docID
                marker.hash = chunk.docHash
                marker.unchanged = true
                try writer.write(marker)
            }
        }
        if passing {
            var data = line.data
            data.append(UInt8(ascii: "\n"))
            writer.writeLine(data)
        }
    }
}
