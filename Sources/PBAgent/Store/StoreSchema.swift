/// The agent store's schema, as numbered migrations applied in order (PRAGMA user_version).
/// Every item table has an `id INTEGER PRIMARY KEY AUTOINCREMENT`, so an id is never reused: an
/// inverse step that deletes `task:3` can only ever meet the task it created.
enum StoreSchema {
    static let migrations: [String] = [
        // 1: items, their edges, recurrence rules, calendar exports and the journal.
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE projects(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            notes TEXT NOT NULL DEFAULT '',
            due TEXT,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'done')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL);
        CREATE TABLE tasks(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            notes TEXT NOT NULL DEFAULT '',
            due TEXT,
            due_grain TEXT,
            priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 3),
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
            project_id INTEGER REFERENCES projects(id),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            completed_at TEXT);
        CREATE INDEX tasks_project ON tasks(project_id);
        CREATE TABLE milestones(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            project_id INTEGER NOT NULL REFERENCES projects(id),
            title TEXT NOT NULL,
            due TEXT,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            completed_at TEXT);
        CREATE TABLE notes(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            body TEXT NOT NULL DEFAULT '',
            tags TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL);
        CREATE TABLE links(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            from_item TEXT NOT NULL,
            to_item TEXT NOT NULL,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (from_item, to_item, kind));
        CREATE TABLE dependencies(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            task_id INTEGER NOT NULL REFERENCES tasks(id),
            blocker_id INTEGER NOT NULL REFERENCES tasks(id),
            created_at TEXT NOT NULL,
            UNIQUE (task_id, blocker_id));
        CREATE TABLE recurrences(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            task_id INTEGER NOT NULL UNIQUE REFERENCES tasks(id),
            rule TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('schedule', 'completion')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL);
        CREATE TABLE exports(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item TEXT NOT NULL,
            path TEXT NOT NULL,
            uid TEXT NOT NULL,
            exported_at TEXT NOT NULL,
            UNIQUE (item, path));
        CREATE TABLE journal(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            group_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            tool TEXT NOT NULL,
            summary TEXT NOT NULL,
            inverse TEXT NOT NULL,
            created_at TEXT NOT NULL,
            undone_at TEXT);
        CREATE INDEX journal_group ON journal(group_id, seq);
        INSERT INTO meta(key, value) VALUES ('groups', '0');
        """,
        // 2: the words of every item in an FTS5 table, kept by triggers, so that search ranks by
        // BM25 with stemming and an undo, a rollback or a direct edit can never leave it stale.
        // rowid = id * 4 + kind (0 task, 1 project, 2 milestone, 3 note): one row per item, found
        // without a scan. Milestones have no text of their own; notes' tags are searched with the body.
        """
        CREATE VIRTUAL TABLE item_words USING fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2');
        \(wordTriggers(table: "tasks", kind: 0) { "\($0).notes" })
        \(wordTriggers(table: "projects", kind: 1) { "\($0).notes" })
        \(wordTriggers(table: "milestones", kind: 2) { _ in "''" })
        \(wordTriggers(table: "notes", kind: 3) { "\($0).body || ' ' || \($0).tags" })
        """,
        // 3: file writes (calendar exports) committed with the transaction that made them: the
        // new content waits in a staged file beside the target, renamed into place after COMMIT
        // (staged NULL: remove the file). A row left by a run killed after COMMIT is finished by
        // the next open of the store; a run killed before COMMIT leaves no row and no change.
        """
        CREATE TABLE pending_files(path TEXT PRIMARY KEY, staged TEXT);
        """,
        // 4: what each undo took back, for redo: the entries, every row it touched as the undo
        // found it and as it left it, every file's content before and its hash after (JSON).
        // journal_high is the journal's last id at the undo: an entry after it outside a redo
        // is a new turn, which discards the redo. redone_by: the group that reapplied it.
        """
        CREATE TABLE undos(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            group_id TEXT NOT NULL,
            entries TEXT NOT NULL,
            rows TEXT NOT NULL,
            files TEXT NOT NULL,
            journal_high INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            redone_by TEXT);
        """,
    ]

    /// Keeps `item_words` in step with one item table, and fills it from the rows already there.
    /// `body` writes the searched body from a row alias (`new`, or the table's name).
    static func wordTriggers(table: String, kind: Int, body: (String) -> String) -> String {
        func row(_ alias: String) -> String { "\(alias).id * 4 + \(kind), \(alias).title, \(body(alias))" }
        return """
        INSERT INTO item_words(rowid, title, body) SELECT \(row(table)) FROM \(table);
        CREATE TRIGGER \(table)_words_insert AFTER INSERT ON \(table) BEGIN
            INSERT INTO item_words(rowid, title, body) VALUES (\(row("new")));
        END;
        CREATE TRIGGER \(table)_words_update AFTER UPDATE ON \(table) BEGIN
            DELETE FROM item_words WHERE rowid = old.id * 4 + \(kind);
            INSERT INTO item_words(rowid, title, body) VALUES (\(row("new")));
        END;
        CREATE TRIGGER \(table)_words_delete AFTER DELETE ON \(table) BEGIN
            DELETE FROM item_words WHERE rowid = old.id * 4 + \(kind);
        END;
        """
    }

    static var latest: Int { migrations.count }
}
