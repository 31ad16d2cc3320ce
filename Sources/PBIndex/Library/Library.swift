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
    public var vectorPath: String { directory.appendingPathComponent("vectors.f32").path }

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
        let vectorPath = directory.appendingPathComponent("vectors.f32").path
        if create {
            db = try Database(path: indexPath)
            schemaVersion = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            // An index emptied or replaced while vectors.f32 still holds rows: a new schema would
            // say no rows are committed, and the vector file would be cut to match. Never.
            if schemaVersion == 0, let rows = Self.vectorRows(at: vectorPath), rows > 0 {
                throw ToolFailure(.badInput, "library '\(name)' is damaged: \(indexPath) holds no schema but \(vectorPath) holds \(rows) vector rows; pb-index will not discard them: restore index.sqlite, or move the library folder aside to start afresh")
            }
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
            try db.zeroDeletedContent()
            try LibrarySchema.migrate(db)
            schemaVersion = LibrarySchema.migrations.count
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
        if let vectorFile { return vectorFile }
        let exists = FileManager.default.fileExists(atPath: vectorPath)
        guard exists || create != nil else { return nil }
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
        try db.run("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc = ?)", [.int(id)])
        try db.run("DELETE FROM chunks WHERE doc = ?", [.int(id)])
        try db.run("DELETE FROM documents WHERE id = ?", [.int(id)])
    }

    /// After documents were deleted or replaced: their text leaves the index's files, and their
    /// vectors the vector file (every committed row no chunk refers to is zeroed).
    public func eraseDeleted() throws {
        try db.eraseDeleted(ftsTables: ["chunks_fts"])
        guard let file = try vectors() else { return }
        var live = [Bool](repeating: false, count: file.rows)
        let s = try db.prepare("SELECT vector_row FROM chunks WHERE vector_row IS NOT NULL")
        while try s.step() {
            let row = Int(s.int(0))
            if row >= 0, row < live.count { live[row] = true }
        }
        try file.zero(rows: live.indices.filter { !live[$0] })
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
