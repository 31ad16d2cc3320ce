import Foundation
import PBCore
import PBSQLite

/// Writes chunk records into a library, in batches of whole documents, each batch one SQLite
/// transaction preceded by the durable append of its vectors.
///
/// Records arrive grouped by document (pb-chunk writes them so): a document is complete when its
/// `doc_chunks` chunks have arrived in `seq` order. A malformed record or a document cut short
/// ends the run with status 65 and commits nothing of the batch it was in; earlier batches, all
/// complete and valid, stay, and re-running resumes (they are then skipped as unchanged).
public final class Indexer {
    public struct Options: Sendable {
        /// Documents per transaction.
        public var batchDocuments = 256
        /// Remove documents this run did not bring.
        public var prune = false
        /// Re-add documents that were deleted with this content before.
        public var restore = false
        public init() {}
    }

    struct PendingDocument {
        var chunks: [ChunkRecord] = []
        var vectors: [[Float]?] = []
        var skip: SkipReason?
        /// Chunks seen so far, kept or (for a skipped document) only checked.
        var received = 0
        var expected: Int
        var first: ChunkRecord
    }

    enum SkipReason { case unchanged, tombstoned }

    public let library: Library
    let options: Options
    private var current: PendingDocument?
    private var batch: [PendingDocument] = []
    private var seenPaths: Set<String> = []
    /// Why this run must not prune: an upstream stage said it failed as a whole (an `error` record
    /// naming no document), so documents it never passed on would look deleted.
    private var incomplete: [String] = []
    private var batchPaths: Set<String> = []
    private var summary: IndexSummary
    private let started = Date()
    private let codec = RecordCodec()
    private let progress = Progress("documents")

    public init(library: Library, options: Options = Options()) {
        self.library = library
        self.options = options
        summary = IndexSummary(library: library.name)
    }

    /// Takes one input line: a `chunk`, or a `doc` marker (`unchanged: true`) from `pb-index --changed`.
    public func consume(_ line: InputLine) throws {
        try consume(line, raw: try codec.decodeObject(line.data))
    }

    /// The same with the line's object already decoded (pb-index reads `library` from it first).
    public func consume(_ line: InputLine, raw: [String: JSONValue]) throws {
        if case .string("error")? = raw["kind"] {
            // An upstream stage could not read a document and said so (and will exit non-zero).
            // Keep what the library has of it: a failed read is no reason to prune.
            let e = try codec.decode(ErrorRecord.self, from: line.data, raw: raw)
            try closeCurrent(before: line)
            summary.failed += 1
            if let path = e.path { seenPaths.insert(path) } else { incomplete.append(e.message) }
            return
        }
        if case .string("doc")? = raw["kind"] {
            let doc = try codec.decode(DocRecord.self, from: line.data, raw: raw)
            guard doc.unchanged == true, let path = doc.path else {
                throw RecordError.badField(name: "kind", reason: "pb-index reads chunk records (and doc records marked unchanged), not documents: run pb-chunk first")
            }
            try closeCurrent(before: line)
            seenPaths.insert(path)
            if case .bool(true)? = doc.extra["tombstoned"] { refused(path) } else { summary.skipped += 1 }
            return
        }
        let chunk = try codec.decode(ChunkRecord.self, from: line.data, raw: raw)
        try validate(chunk)
        var vector: [Float]?
        if let e = chunk.embedding {
            vector = try Self.unitVector(try e.values(), chunk: chunk.chunkID)
            try checkModel(e, chunk)
        }
        if var doc = current, doc.first.docID == chunk.docID {
            guard chunk.seq == doc.received else {
                throw RecordError.badField(name: "seq", reason: "expected chunk \(doc.received) of document \(chunk.docID), got \(chunk.seq)")
            }
            guard chunk.docChunks == doc.expected, chunk.docHash == doc.first.docHash, chunk.path == doc.first.path else {
                throw RecordError.badField(name: "doc_hash", reason: "chunk \(chunk.chunkID) disagrees with the earlier chunks of its document")
            }
            current = nil
            doc.add(chunk, vector)
            current = doc
        } else {
            try closeCurrent(before: line)
            guard chunk.seq == 0 else {
                throw RecordError.badField(name: "seq", reason: "document \(chunk.docID) starts at chunk \(chunk.seq), not 0: its earlier chunks are missing")
            }
            guard !seenPaths.contains(chunk.path) else {
                throw RecordError.badField(name: "path", reason: "document \(chunk.path) appears twice in this input")
            }
            var doc = PendingDocument(expected: chunk.docChunks, first: chunk)
            doc.skip = try skipReason(chunk)
            doc.add(chunk, vector)
            current = doc
        }
        if let doc = current, doc.isComplete {
            current = nil
            try accept(doc)
        }
    }

    /// Ends the input: commits the last batch, prunes if asked, returns the summary.
    public func finish() throws -> IndexSummary {
        if let doc = current {
            throw RecordError.badField(name: "doc_chunks", reason: "input ended inside document \(doc.first.path): \(doc.received) of \(doc.expected) chunks arrived")
        }
        try commitBatch()
        try recordRun()
        if options.prune { try prune(keeping: seenPaths) }
        if try summary.pruned + summary.replaced > 0 || library.erasePending { try library.eraseDeleted() }
        progress.finish()
        summary.seconds = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
        return summary
    }

    private func closeCurrent(before line: InputLine) throws {
        if let doc = current {
            throw RecordError.badField(name: "doc_chunks", reason: "document \(doc.first.path) ended after \(doc.received) of \(doc.expected) chunks")
        }
    }

    private func validate(_ c: ChunkRecord) throws {
        guard c.docChunks >= 1, c.seq >= 0, c.seq < c.docChunks else {
            throw RecordError.badField(name: "seq", reason: "\(c.seq) is not within 0..<doc_chunks (\(c.docChunks))")
        }
        guard c.start >= 0, c.end >= c.start else {
            throw RecordError.badField(name: "end", reason: "byte span \(c.start)..<\(c.end) is not a range")
        }
        guard !c.docID.isEmpty, !c.chunkID.isEmpty, !c.path.isEmpty, !c.docHash.isEmpty else {
            throw RecordError.badField(name: "doc_id", reason: "doc_id, chunk_id, path and doc_hash must not be empty")
        }
        if let e = c.embedding {
            guard e.dim > 0, !e.model.isEmpty else { throw RecordError.badField(name: "embedding", reason: "needs a model and a positive dim") }
        }
    }

    /// How far a vector's length may be from 1: float rounding of a normalised 384-d vector is
    /// about 1e-7; anything past this was not normalised at all.
    public static let unitTolerance = 1e-3

    /// The vector when every value is finite and its length is 1 (within `unitTolerance`): dense
    /// search ranks by dot product, so a longer vector would outrank every other for every query.
    /// pb-index refuses rather than normalises, so what is stored is what the embedder sent.
    static func unitVector(_ v: [Float], chunk: String) throws -> [Float] {
        guard v.allSatisfy(\.isFinite) else {
            throw RecordError.badField(name: "embedding", reason: "chunk \(chunk) has a value that is not a finite number")
        }
        let norm = v.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
        guard abs(norm - 1) <= unitTolerance else {
            throw RecordError.badField(name: "embedding", reason: "chunk \(chunk) has a vector of length \(String(format: "%.6g", norm)), not 1: normalise it first (search compares vectors by dot product)")
        }
        return v
    }

    /// The model whose vectors this run stores: the library's, else the first one seen. Checked per
    /// record so that a mismatch names its line.
    private var runModel: (model: String, dim: Int, weights: String)?

    private func checkModel(_ e: Embedding, _ chunk: ChunkRecord) throws {
        let m = (model: e.model, dim: e.dim, weights: e.weights ?? "")
        if runModel == nil { runModel = try library.vectorModel() ?? m }
        let want = runModel!
        guard want.model == m.model, want.dim == m.dim, want.weights.isEmpty || m.weights.isEmpty || want.weights == m.weights else {
            throw mismatch(chunk, m, want)
        }
    }

    private func skipReason(_ chunk: ChunkRecord) throws -> SkipReason? {
        if let stored = try library.document(path: chunk.path), stored.hash == chunk.docHash { return .unchanged }
        if !options.restore, let t = try library.tombstone(path: chunk.path), t.hash == chunk.docHash { return .tombstoned }
        return nil
    }

    private func accept(_ doc: PendingDocument) throws {
        seenPaths.insert(doc.first.path)
        progress.advance()
        switch doc.skip {
        case .unchanged?: summary.skipped += 1
        case .tombstoned?: refused(doc.first.path)
        case nil:
            batch.append(doc)
            if batch.count >= options.batchDocuments { try commitBatch() }
        }
    }

    /// Appends the batch's vectors (fsynced), then commits its rows and the new row count together.
    private func commitBatch() throws {
        guard !batch.isEmpty else { return }
        let db = library.db
        // Every vector was checked against `runModel` as its line arrived.
        var flat: [Float] = []
        for doc in batch { for v in doc.vectors { if let v { flat += v } } }
        let model = flat.isEmpty ? nil : runModel
        var vectors: VectorFile?
        var firstRow = 0
        if let model {
            vectors = try library.vectors(create: (dim: model.dim, model: model.model, weights: model.weights))
            firstRow = try vectors!.append(flat)
        }
        let now = Date().timeIntervalSince1970
        do {
            try db.transaction {
                if let model, try library.vectorModel() == nil {
                    try library.setMeta("model", model.model)
                    try library.setMeta("dim", String(model.dim))
                    try library.setMeta("weights", model.weights)
                }
                var row = firstRow
                for doc in batch {
                    let first = doc.first
                    if let old = try library.document(path: first.path) {
                        try library.deleteDocument(id: old.id)
                        summary.replaced += 1
                    } else {
                        summary.added += 1
                    }
                    try db.run("DELETE FROM tombstones WHERE path = ?", [.text(first.path)])
                    try db.run("INSERT INTO documents(doc_id, path, title, format, hash, chunks, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               [.text(first.docID), .text(first.path), .text(first.title), .text(first.format), .text(first.docHash),
                                .int(Int64(doc.chunks.count)), .double(now)])
                    let docKey = db.lastInsertRowID
                    for (c, v) in zip(doc.chunks, doc.vectors) {
                        let section = String(decoding: try codec.encodeValue(c.section), as: UTF8.self)
                        var vectorRow: SQLValue = .null
                        if v != nil { vectorRow = .int(Int64(row)); row += 1; summary.vectors += 1 }
                        try db.run("""
                            INSERT INTO chunks(chunk_id, doc, seq, section, prefix, text, start, end, line_start, line_end,
                                               page_start, page_end, words, tokens, hash, vector_row)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                            [.text(c.chunkID), .int(docKey), .int(Int64(c.seq)), .text(section), .text(c.prefix), .text(c.text),
                             .int(Int64(c.start)), .int(Int64(c.end)), .int(Int64(c.lineStart)), .int(Int64(c.lineEnd)),
                             c.pageStart.map { .int(Int64($0)) } ?? .null, c.pageEnd.map { .int(Int64($0)) } ?? .null,
                             .int(Int64(c.words)), .int(Int64(c.tokens)), .text(c.hash), vectorRow])
                        try db.run("INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?, ?, ?, ?)",
                                   [.int(db.lastInsertRowID), .text(c.title), .text(c.section.joined(separator: " ")), .text(c.text)])
                        summary.chunks += 1
                    }
                }
                if let vectors { try library.setMeta("vector_rows", String(vectors.rows)) }
            }
        } catch {
            vectors?.rollback(toRows: firstRow)
            if let e = error as? DatabaseError, e.message.contains("UNIQUE constraint failed: chunks.chunk_id") {
                throw RecordError.badField(name: "chunk_id", reason: "a chunk id of this batch is already used by another document")
            }
            throw error
        }
        vectors?.writeHeaderCount()
        batch.removeAll()
    }

    private func mismatch(_ c: ChunkRecord, _ got: (String, Int, String), _ want: (model: String, dim: Int, weights: String)) -> RecordError {
        .badField(name: "embedding", reason: "chunk \(c.chunkID) has a \(got.1)-d vector of model '\(got.0)'\(got.2.isEmpty ? "" : " (weights \(got.2.prefix(12)))"), but library '\(library.name)' holds \(want.dim)-d vectors of '\(want.model)'\(want.weights.isEmpty ? "" : " (weights \(want.weights.prefix(12)))"): use another --library or re-embed")
    }

    /// Remembers which documents this complete run brought, for a later `--prune-unseen`.
    private func recordRun() throws {
        try library.db.transaction {
            try library.db.run("DELETE FROM last_run")
            // A run a stage of which failed is not complete: --prune-unseen then has no list to trust.
            guard incomplete.isEmpty else { return }
            for path in seenPaths { try library.db.run("INSERT INTO last_run(path) VALUES (?)", [.text(path)]) }
        }
    }

    /// A document its tombstone keeps out: counted, and named with the way back, since a person who
    /// put a file back on purpose would otherwise see nothing happen.
    private func refused(_ path: String) {
        summary.tombstoned += 1
        Diagnostics.shared.warning("\(path): not added: this content was deleted from library '\(library.name)' before; "
            + "bring it back with pb-ingest --restore (or pb-index --restore)")
    }

    /// Deletes (with tombstones) every document not in `keeping`, unless this run cannot tell what
    /// vanished: a stage upstream failed, or it brought nothing at all (a mistyped or empty folder
    /// must not empty a library).
    private func prune(keeping: Set<String>) throws {
        if let why = incomplete.first {
            Diagnostics.shared.warning("not pruning: \(why)")
            return
        }
        guard !keeping.isEmpty else {
            Diagnostics.shared.warning("not pruning: this run brought no documents, and pruning would empty library '\(library.name)'")
            return
        }
        let now = Date().timeIntervalSince1970
        try library.db.transaction {
            for doc in try library.allDocuments() where !keeping.contains(doc.path) {
                try library.deleteAndTombstone(doc, at: now)
                summary.pruned += 1
            }
        }
        // What OCR read from a pruned scan, and what was heard in a pruned memo, leaves the
        // cache, unless another document uses it.
        if summary.pruned > 0 {
            if let used = library.documentPathsOfAllLibraries() {
                for cache in ToolOutputCache.all(home: library.home) { cache.sweep { used.contains($0) } }
            } else {
                Diagnostics.shared.warning("the OCR and transcript caches were not swept: a library in \(library.home.path) cannot be read")
            }
        }
    }

    /// `--prune-unseen`: prunes what the last complete run did not bring. pb-ingest runs this only
    /// after every stage of its pipe succeeded, so a stage that died early cannot empty a library.
    public func pruneUnseen() throws -> IndexSummary {
        let s = try library.db.prepare("SELECT path FROM last_run")
        var keep = Set<String>()
        while try s.step() { keep.insert(s.text(0)) }
        try prune(keeping: keep)
        if try summary.pruned > 0 || library.erasePending { try library.eraseDeleted() }
        summary.seconds = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
        return summary
    }
}

extension Indexer.PendingDocument {
    var isComplete: Bool { received == expected }

    /// Chunks of a skipped document are checked and counted but not kept.
    mutating func add(_ chunk: ChunkRecord, _ vector: [Float]?) {
        received += 1
        guard skip == nil else { return }
        chunks.append(chunk)
        vectors.append(vector)
    }
}
