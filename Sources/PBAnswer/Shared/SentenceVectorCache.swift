import Foundation
import PBCore
import PBSQLite
import PBNeural

/// Pooled sentence vectors kept between processes, in `$PB_HOME/cache/sentence-vectors.sqlite`.
///
/// pb-answer encodes the question and its best sentences; pb-verify, the next process, encodes
/// the question, the answer's sentences (an extractive answer's are among pb-answer's best) and the
/// desk's sentences again. Encoding is most of both stages' time (measured on SciFact questions:
/// about half of pb-verify's 110 ms), so pb-answer leaves its vectors here and pb-verify takes
/// what it finds.
///
/// A cached vector is the very vector the encoder would give: the encoder's results are
/// bit-identical whatever the batch, and the key holds everything else a vector
/// depends on: the weights' fingerprint, the kernel path, the token window and the text. So
/// results never depend on whether the cache was there. It is only a cache: a read-only or
/// damaged file, a busy lock or a full disk mean the vectors are computed, never an error.
public final class SentenceVectorCache {
    public static let fileName = "sentence-vectors.sqlite"
    /// Rows kept by default (about 1.6 KB each, so 80 MB); past this, the oldest are dropped.
    public static let defaultCapacity = 50_000
    let capacity: Int

    let db: Database
    let keyPrefix: String
    let dimension: Int

    /// The cache under `home` for vectors of this encoder at this window; nil when it cannot be opened.
    public init?(home: URL, encoder: MiniLMEncoder, maxTokens: Int = 256, capacity: Int = defaultCapacity) {
        self.capacity = capacity
        let folder = home.appendingPathComponent("cache")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            db = try Database(path: folder.appendingPathComponent(Self.fileName).path)
            // A cache may lose its last writes in a power cut (NORMAL in WAL mode) but never
            // corrupts; a busy lock is waited for briefly, then the cache is skipped.
            try db.execute("PRAGMA busy_timeout=200; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
            try db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL, added INTEGER NOT NULL) WITHOUT ROWID")
        } catch {
            return nil
        }
        keyPrefix = "\(encoder.weightsHash)\u{0}\(encoder.kernel)\u{0}\(maxTokens)\u{0}"
        dimension = encoder.dimension
    }

    func key(_ text: String) -> String {
        String(SHA256.hex(keyPrefix + text).prefix(32))
    }

    /// The cached vectors of those texts that have one.
    public func vectors(_ texts: [String]) -> [String: [Float]] {
        var found: [String: [Float]] = [:]
        guard let statement = try? db.prepare("SELECT vector FROM vectors WHERE key = ?") else { return found }
        for text in Set(texts) {
            statement.reset()
            guard (try? statement.bind([.text(key(text))])) != nil, (try? statement.step()) == true else { continue }
            let bytes = statement.blob(0)
            guard bytes.count == dimension * 4 else { continue }
            let vector = bytes.withUnsafeBytes { Embedding.floats(littleEndian: $0, count: dimension) }
            guard vector.allSatisfy(\.isFinite) else { continue }
            found[text] = vector
        }
        return found
    }

    /// Keeps vectors for the next process; failures are ignored (the cache is optional).
    public func store(_ entries: [(text: String, vector: [Float])]) {
        guard !entries.isEmpty else { return }
        let now = Int64(Date().timeIntervalSince1970)
        _ = try? db.transaction {
            let statement = try db.prepare("INSERT OR IGNORE INTO vectors (key, vector, added) VALUES (?, ?, ?)")
            for (text, vector) in entries where vector.count == dimension {
                statement.reset()
                try statement.bind([.text(key(text)), .blob(Embedding.littleEndianBytes(vector)), .int(now)])
                _ = try statement.step()
            }
            // Bounded: counting costs a scan, so it is done on about one store in 16 (chosen by the
            // first key, so the same inputs behave the same), and then the oldest rows go.
            if key(entries[0].text).hasPrefix("0") || entries.count > 64 {
                let rows = try db.scalarInt("SELECT count(*) FROM vectors") ?? 0
                if rows > capacity {
                    try db.run("DELETE FROM vectors WHERE key IN (SELECT key FROM vectors ORDER BY added, key LIMIT ?)",
                               [.int(rows - Int64(capacity))])
                }
            }
        }
    }
}

/// pb-verify's encoder with the cache in front: cached vectors are used, the rest encoded in one
/// batch and stored.
/// (`@unchecked Sendable`: the SQLite connection is used under the lock only.)
public final class CachedGroundingEncoder: GroundingEncoder, @unchecked Sendable {
    let encoder: MiniLMEncoder
    let cache: SentenceVectorCache
    private let lock = NSLock()

    public init(encoder: MiniLMEncoder, cache: SentenceVectorCache) {
        self.encoder = encoder
        self.cache = cache
    }

    public func groundingVectors(_ texts: [String]) -> [[Float]] {
        lock.lock(); defer { lock.unlock() }
        var known = cache.vectors(texts)
        var missing: [String] = []
        var seen = Set<String>()
        for t in texts where known[t] == nil && seen.insert(t).inserted { missing.append(t) }
        if !missing.isEmpty {
            let computed = encoder.embed(missing, maxTokens: 256)
            cache.store(Array(zip(missing, computed)).map { (text: $0.0, vector: $0.1) })
            for (t, v) in zip(missing, computed) { known[t] = v }
        }
        return texts.map { known[$0]! }
    }
}
