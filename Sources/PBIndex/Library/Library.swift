import Foundation
import PBCore
import PBSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A library on disk: `$PB_HOME/libraries/NAME/index.sqlite` (WAL) and `vectors.f32`.
public final class Library {
    public let name: String
    public let directory: URL
    /// The PocketBrains home the library is in (its caches are shared by every library there).
    public let home: URL
    public let db: Database
    private var vectorFile: VectorFile?
    /// Writers hold an exclusive lock on `write.lock` for as long as the library is open, so two
    /// pb-index runs never interleave their vector appends; readers take no lock.
    public let writable: Bool
    private var lockDescriptor: Int32 = -1

    public var indexPath: String { directory.appendingPathComponent("index.sqlite").path }
    /// The vector file the index names (meta `vector_file`): `vectors.f32` until a compaction
    /// writes `vectors.N.f32` and names it in the same transaction that renumbers the rows.
    public var vectorFileName: String { ((try? meta("vector_file")) ?? nil) ?? Self.firstVectorFile }
    public var vectorPath: String { directory.appendingPathComponent(vectorFileName).path }
    static let firstVectorFile = "vectors.f32"

    /// Opens a library; with `create`, makes its folder and schema if needed. Without, a missing
    /// library is status 66 with a hint.
    /// Whether a library has been written (its index exists), without opening it.
    public static func exists(environment: PBEnvironment, name: String) -> Bool {
        FileManager.default.fileExists(atPath: environment.libraryDirectory(name).appendingPathComponent("index.sqlite").path)
    }

    /// The schema version found when opening (0: index.sqlite holds no schema at all).
    public private(set) var schemaVersion = 0

    /// `create`: a writer (pb-index), which takes the write lock, makes the folder and schema if
    /// needed and migrates. Otherwise a reader, which opens index.sqlite read-only and writes
    /// nothing (not even the journal mode, which the file keeps); it only migrates an older
    /// library, as any reader did before. `damagedOK` (pb-index --check) opens a library whose
    /// index holds no schema instead of refusing, so the check can report it.
    public init(environment: PBEnvironment, name: String, create: Bool, damagedOK: Bool = false) throws {
        try PBEnvironment.validateLibraryName(name)
        self.name = name
        home = environment.home
        writable = create
        directory = environment.libraryDirectory(name)
        if !Self.exists(environment: environment, name: name) {
            guard create else {
                throw ToolFailure(.cannotOpen, "no library '\(name)' at \(directory.path): ingest documents first (pb-ingest --library \(name) FILE...)")
            }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw ToolFailure(.cannotOpen, "cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
        if create {
            PrivateHome.warnIfOpen(environment.home)
            let lockPath = directory.appendingPathComponent("write.lock").path
            lockDescriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard lockDescriptor >= 0 else { throw ToolFailure(.cannotOpen, "\(lockPath): \(String(cString: strerror(errno)))") }
            if flock(lockDescriptor, LOCK_EX | LOCK_NB) != 0 {
                Diagnostics.shared.note("waiting for another program writing library '\(name)'")
                guard flock(lockDescriptor, LOCK_EX) == 0 else { throw ToolFailure(.ioError, "\(lockPath): cannot lock: \(String(cString: strerror(errno)))") }
            }
        }
        let indexPath = directory.appendingPathComponent("index.sqlite").path
        if create {
            db = try Database(path: indexPath)
            schemaVersion = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            // An index emptied or replaced while a vector file still holds rows: a new schema would
            // say no rows are committed, and the vector file would be cut to match. Never.
            if schemaVersion == 0 {
                for file in Self.vectorFiles(in: directory) {
                    let vectorPath = directory.appendingPathComponent(file).path
                    if let rows = Self.vectorRows(at: vectorPath), rows > 0 {
                        throw ToolFailure(.badInput, "library '\(name)' is damaged: \(indexPath) holds no schema but \(vectorPath) holds \(rows) vector rows; pb-index will not discard them: restore index.sqlite, or move the library folder aside to start afresh")
                    }
                }
            }
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
            try db.zeroDeletedContent()
            try LibrarySchema.migrate(db)
            schemaVersion = LibrarySchema.migrations.count
            // A compaction killed before its commit leaves its new file; one killed after, the old.
            let current = vectorFileName
            for file in Self.vectorFiles(in: directory) where file != current {
                unlink(directory.appendingPathComponent(file).path)
            }
            return
        }
        var reader = try Database.reader(path: indexPath)
        var version = Int(try reader.scalarInt("PRAGMA user_version") ?? 0)
        if version > 0, version < LibrarySchema.migrations.count {
            reader = try Database(path: indexPath)
            try reader.execute("PRAGMA foreign_keys=ON")
            try LibrarySchema.migrate(reader)
            version = LibrarySchema.migrations.count
        }
        db = reader
        schemaVersion = version
        if version == 0, !damagedOK {
            throw ToolFailure(.badInput, "library '\(name)' is damaged: \(indexPath) holds no schema; run pb-index --library \(name) --check")
        }
        if version > LibrarySchema.migrations.count {
            throw ToolFailure(.badInput, "\(indexPath): schema version \(version) is newer than this program (\(LibrarySchema.migrations.count)); upgrade PocketBrains")
        }
    }

    /// The vector files in a library folder: `vectors.f32` and the `vectors.N.f32` of compactions.
    static func vectorFiles(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            guard name.hasPrefix("vectors."), name.hasSuffix(".f32") else { return false }
            let middle = name.dropFirst("vectors.".count).dropLast(".f32".count)
            return middle.isEmpty || middle.allSatisfy(\.isASCII) && middle.allSatisfy(\.isNumber)
        }.sorted()
    }

    /// Rows in a vector file by its size (nil when there is no file), without opening it.
    static func vectorRows(at path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.intValue else { return nil }
        guard size > VectorFile.headerSize else { return 0 }
        // The header names the width; a file too damaged to say counts its bytes as rows of 384.
        let dim = VectorFile.headerDimension(path: path) ?? 384
        return (size - VectorFile.headerSize) / max(dim * 4, 1)
    }

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    // MARK: meta

    public func meta(_ key: String) throws -> String? {
        try db.scalarText("SELECT value FROM meta WHERE key = ?", [.text(key)])
    }

    public func setMeta(_ key: String, _ value: String) throws {
        try db.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(key), .text(value)])
    }

    public var committedVectorRows: Int {
        get throws { Int(try meta("vector_rows") ?? "0") ?? 0 }
    }

    /// The model whose vectors this library holds, once it holds any.
    public func vectorModel() throws -> (model: String, dim: Int, weights: String)? {
        guard let model = try meta("model"), let dim = try meta("dim").flatMap(Int.init) else { return nil }
        return (model, dim, try meta("weights") ?? "")
    }

    /// The vector file, opened (and trimmed to the committed rows) on first use; nil while the
    /// library holds no vectors and `create` is not given.
    public func vectors(create: (dim: Int, model: String, weights: String)? = nil) throws -> VectorFile? {
        let vectorPath = self.vectorPath
        if let vectorFile, vectorFile.path == vectorPath { return vectorFile }
        let exists = FileManager.default.fileExists(atPath: vectorPath)
        guard exists || create != nil else {
            // Rows committed but no file: a compaction replaced it after this reader's snapshot
            // named it (the caller reads again), or it was deleted.
            if try committedVectorRows > 0 { throw VectorFileError.io(path: vectorPath, reason: "no such file") }
            return nil
        }
        let file = try VectorFile(path: vectorPath, committedRows: try committedVectorRows, create: writable ? create : nil, writable: writable)
        vectorFile = file
        return file
    }

    // MARK: documents

    public struct StoredDocument: Sendable {
        public var id: Int64
        public var docID: String
        public var path: String
        public var hash: String
    }

    public func document(path: String) throws -> StoredDocument? {
        let s = try db.prepare("SELECT id, doc_id, path, hash FROM documents WHERE path = ?")
        try s.bind([.text(path)])
        guard try s.step() else { return nil }
        return StoredDocument(id: s.int(0), docID: s.text(1), path: s.text(2), hash: s.text(3))
    }

    public func tombstone(path: String) throws -> (hash: String, deletedAt: Double)? {
        let s = try db.prepare("SELECT hash, deleted_at FROM tombstones WHERE path = ?")
        try s.bind([.text(path)])
        guard try s.step() else { return nil }
        return (s.text(0), s.double(1))
    }

    /// Removes a document, its chunks and their FTS rows (its vector rows become dead rows).
    public func deleteDocument(id: Int64) throws {
        // Marked in the same transaction: a run killed before it erased finishes it next time.
        try setMeta("erase_pending", "1")
        try db.run("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc = ?)", [.int(id)])
        try db.run("DELETE FROM chunks WHERE doc = ?", [.int(id)])
        try db.run("DELETE FROM documents WHERE id = ?", [.int(id)])
    }

    /// After documents were deleted or replaced: their vectors leave the vector file (rewritten
    /// without them once they are a quarter of it, else overwritten with zeros where they lie), and
    /// their text the index's files.
    public func eraseDeleted() throws {
        try compactVectors()
        try zeroDeadVectorRows()
        try setMeta("erase_pending", "0")
        try db.eraseDeleted(ftsTables: ["chunks_fts"])
    }

    /// Whether documents were deleted and their traces not yet erased (a run killed in between).
    public var erasePending: Bool {
        get throws { try meta("erase_pending") == "1" }
    }

    /// The share of dead rows (one in `compactionRatio`) past which the vector file is rewritten.
    static let compactionRatio = 4

    /// Rewrites the vector file with the live rows only, in their order, as `vectors.N.f32`: the new
    /// file is written and synced first, then one transaction renumbers the chunks' rows and names
    /// the new file, then the old file is unlinked. Killed before the commit, the index still names
    /// the old file (the next writer deletes the new one); after it, the new (the next writer
    /// deletes the old). A reader reads the file's name and the row numbers in one snapshot, and
    /// keeps an old file it has open. Returns the rows dropped.
    @discardableResult
    public func compactVectors() throws -> Int {
        guard writable, let old = try vectors() else { return 0 }
        let live = try liveVectorRows()
        let dead = old.rows - live.count
        guard dead > 0, dead * Self.compactionRatio >= old.rows else { return 0 }
        let generation = (Int(try meta("vector_generation") ?? "0") ?? 0) + 1
        let name = "vectors.\(generation).f32"
        let path = directory.appendingPathComponent(name).path
        unlink(path)
        let fresh = try VectorFile(path: path, committedRows: 0, create: (old.dim, old.model, old.weights))
        let rows = try old.mapped()
        let dim = old.dim
        let perAppend = 4_096
        var start = 0
        while start < live.count {
            let end = min(start + perAppend, live.count)
            var batch: [Float] = []
            batch.reserveCapacity((end - start) * dim)
            for l in live[start..<end] { batch += rows[(l.row * dim)..<((l.row + 1) * dim)] }
            _ = try fresh.append(batch)
            start = end
        }
        try syncDirectory()
        // Ascending, so a chunk's new row (its rank) is never one another chunk still holds.
        try db.transaction {
            for (i, l) in live.enumerated() where i != l.row {
                try db.run("UPDATE chunks SET vector_row = ? WHERE id = ?", [.int(Int64(i)), .int(l.id)])
            }
            try setMeta("vector_rows", String(live.count))
            try setMeta("vector_file", name)
            try setMeta("vector_generation", String(generation))
        }
        fresh.writeHeaderCount()
        vectorFile = fresh
        unlink(old.path)
        try? syncDirectory()
        return dead
    }

    /// Makes the library folder's entries durable (a new file's name before the commit names it).
    func syncDirectory() throws {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw VectorFileError.io(path: directory.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw VectorFileError.io(path: directory.path, reason: "fsync: \(String(cString: strerror(errno)))") }
    }

    /// Overwrites with zeros every committed vector row no chunk uses.
    func zeroDeadVectorRows() throws {
        guard let file = try vectors() else { return }
        var live = [Bool](repeating: false, count: file.rows)
        for l in try liveVectorRows() where l.row >= 0 && l.row < live.count { live[l.row] = true }
        try file.zero(rows: live.indices.filter { !live[$0] })
    }

    /// The chunks that have a vector, with their rows, in row order.
    func liveVectorRows() throws -> [(id: Int64, row: Int)] {
        var live: [(id: Int64, row: Int)] = []
        let s = try db.prepare("SELECT id, vector_row FROM chunks WHERE vector_row IS NOT NULL ORDER BY vector_row")
        while try s.step() { live.append((s.int(0), Int(s.int(1)))) }
        return live
    }

    /// Deletes a document and leaves a tombstone, so a stale copy cannot bring it back.
    public func deleteAndTombstone(_ doc: StoredDocument, at time: Double) throws {
        try deleteDocument(id: doc.id)
        try db.run("INSERT INTO tombstones(path, doc_id, hash, deleted_at) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, doc_id = excluded.doc_id, deleted_at = excluded.deleted_at",
                   [.text(doc.path), .text(doc.docID), .text(doc.hash), .double(time)])
    }

    /// The paths of the documents of every library in `home`, this one as it stands in this
    /// connection; nil when a library cannot be read (then nothing can be called unused).
    public func documentPathsOfAllLibraries() -> Set<String>? {
        var paths = Set<String>()
        let folder = home.appendingPathComponent("libraries")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        for other in names {
            let environment = PBEnvironment(variables: ["PB_HOME": home.path])
            guard Library.exists(environment: environment, name: other) else { continue }
            do {
                let documents = try other == name ? allDocuments() : Library(environment: environment, name: other, create: false).allDocuments()
                for d in documents { paths.insert(d.path) }
            } catch {
                return nil
            }
        }
        return paths
    }

    public func allDocuments() throws -> [StoredDocument] {
        let s = try db.prepare("SELECT id, doc_id, path, hash FROM documents ORDER BY path")
        var out: [StoredDocument] = []
        while try s.step() { out.append(StoredDocument(id: s.int(0), docID: s.text(1), path: s.text(2), hash: s.text(3))) }
        return out
    }
}
