import PBSQLite

/// The library's SQLite schema, as numbered migrations applied in order (PRAGMA user_version).
enum LibrarySchema {
    static let migrations: [String] = [
        // 1: documents, chunks with their vector rows, the FTS5 index, tombstones.
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents(
            id INTEGER PRIMARY KEY,
            doc_id TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            format TEXT NOT NULL,
            hash TEXT NOT NULL,
            chunks INTEGER NOT NULL,
            mtime REAL,
            indexed_at REAL NOT NULL);
        CREATE TABLE chunks(
            id INTEGER PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE,
            doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            section TEXT NOT NULL,
            prefix TEXT NOT NULL,
            text TEXT NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            line_start INTEGER NOT NULL,
            line_end INTEGER NOT NULL,
            page_start INTEGER,
            page_end INTEGER,
            words INTEGER NOT NULL,
            tokens INTEGER NOT NULL,
            hash TEXT NOT NULL,
            vector_row INTEGER UNIQUE);
        CREATE INDEX chunks_doc ON chunks(doc, seq);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(title, section, text, tokenize='porter unicode61');
        CREATE TABLE tombstones(
            path TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL,
            hash TEXT NOT NULL,
            deleted_at REAL NOT NULL);
        -- The paths the last complete pb-index run brought, for `pb-index --prune-unseen`.
        CREATE TABLE last_run(path TEXT PRIMARY KEY);
        INSERT INTO meta(key, value) VALUES ('vector_rows', '0');
        """,
    ]

    static func migrate(_ db: Database) throws {
        let current = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        guard current <= migrations.count else {
            throw DatabaseError(code: 0, message: "\(db.path): schema version \(current) is newer than this program (\(migrations.count)); upgrade PocketBrains", sql: nil)
        }
        for (i, sql) in migrations.enumerated().dropFirst(current) {
            try db.transaction {
                try db.execute(sql)
                try db.execute("PRAGMA user_version = \(i + 1)")
            }
        }
    }
}
