import Foundation
import PBCore
import PBSQLite
import PBDates

/// The agent store, `$PB_HOME/store.sqlite`: tasks, projects, milestones, notes, links,
/// dependencies, recurrence rules, calendar exports and the journal.
///
/// There is one write path: `insert`, `update` and `delete` below. Each works only while a journal
/// entry is being recorded (`beginEntry` ... `finishEntry`), and records the write's inverse, so
/// every change a tool makes is journaled in the same transaction as the change itself. File
/// writes (iCalendar exports) are held until the transaction commits, so a dry run or a failed
/// step never touches the file.
public final class AgentStore {
    public let db: Database
    public let path: String
    /// The copy made before the last migration, if one was made while opening.
    public private(set) var backupPath: String?
    /// The clock timestamps are taken from.
    public var clock = AgentClock(now: Date(), zone: DateValueFormat.localTimeZone())

    private var recording: [InverseStep]?
    private var columnCache: [StoreTable: [String]] = [:]
    /// Pending file contents by path (nil: delete the file), applied by `commitFiles`.
    private(set) var pendingFiles: [String: Data?] = [:]
    private var pendingFilesAtSavepoint: [[String: Data?]] = []

    public static func defaultPath(_ environment: PBEnvironment = PBEnvironment()) -> String {
        environment.home.appendingPathComponent("store.sqlite").path
    }

    /// Opens (creating if needed) and migrates the store. An existing store is copied to
    /// `store.sqlite.bak-<version>` before any migration touches it.
    /// Opens the store for reading only (pb-undo --list): nothing is created, migrated or
    /// written, and a store in a folder this user cannot write is still read.
    public init(readingOnly path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no such file (nothing has been done yet)")
        }
        do {
            db = try Database.reader(path: path)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: Self.reason(error))
        }
        let version = Int(((try? scalarInt("PRAGMA user_version")) ?? nil) ?? 0)
        guard version > 0 else { throw StoreError.notAStore(path: path, reason: "an SQLite database without a PocketBrains schema") }
        guard version <= StoreSchema.latest else {
            throw StoreError.tooNew(path: path, version: version, supported: StoreSchema.latest)
        }
    }

    public init(path: String) throws {
        self.path = path
        let fm = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            PrivateHome.warnIfOpen(URL(fileURLWithPath: folder))
            do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create \(folder): \(error.localizedDescription)")
            }
        }
        let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
        let existed = fm.fileExists(atPath: path) && size > 0
        do { db = try Database(path: path) } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        let version: Int
        do {
            // The version and the tables in one statement, so one snapshot: read apart, a first run
            // racing this one could commit its tables between the two reads, and this one would
            // call a store being made "not a store" (faults.sh's racing first runs, 1 in 10 once).
            let first = try db.prepare("SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)")
            guard try first.step() else { throw StoreError.notAStore(path: path, reason: "cannot read its schema version") }
            version = Int(first.int(0))
            let tables = first.int(1)
            first.reset()
            if version == 0, existed, tables > 0 {
                throw StoreError.notAStore(path: path, reason: "an SQLite database without a PocketBrains schema")
            }
        } catch let e as StoreError {
            throw e
        } catch let e as DatabaseError where [3, 8, 14].contains(e.code & 0xFF) /* PERM, READONLY, CANTOPEN */ {
            // Not a damaged store: one this user may not write (a read-only folder or file system).
            throw StoreError.readOnly(path: path, reason: Self.reason(e))
        } catch let e as DatabaseError where [5, 10, 13].contains(e.code & 0xFF) /* BUSY, IOERR, FULL */ {
            // The disk or a lock, not the store: "move it aside" would be false and risky advice.
            throw StoreError.ioFailure(path: path, reason: e.description)
        } catch {
            throw StoreError.notAStore(path: path, reason: Self.reason(error))
        }
        guard version <= StoreSchema.latest else {
            throw StoreError.tooNew(path: path, version: version, supported: StoreSchema.latest)
        }
        if version > 0, version < StoreSchema.latest {
            backupPath = try Self.backup(db, path: path, version: version)
        }
        do {
            try db.useWriteAheadLog()
            try db.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
            // Each step under the write lock (BEGIN IMMEDIATE), and only when the version is still
            // the one it starts from: of two first runs at once, the second waits, sees the store
            // made, and goes on, where both creating the tables would fail one with "table meta
            // already exists".
            for (i, sql) in StoreSchema.migrations.enumerated().dropFirst(version) {
                try db.transaction {
                    guard Int(try scalarInt("PRAGMA user_version") ?? 0) == i else { return }
                    try db.execute(sql)
                    try db.execute("PRAGMA user_version = \(i + 1)")
                }
            }
        } catch {
            throw StoreError.migrationFailed(path: path, from: version, reason: Self.reason(error), backup: backupPath)
        }
        // File writes a killed run committed but did not move into place.
        do { try finishStagedFiles() } catch { Diagnostics.shared.warning("\(path): \(error)") }
    }

    public convenience init(environment: PBEnvironment = PBEnvironment()) throws {
        try self.init(path: Self.defaultPath(environment))
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message }
        return String(describing: error)
    }

    /// Writes a copy of the store, write-ahead log included, to `store.sqlite.bak-<version>`.
    /// Through SQLite (VACUUM INTO), never by copying the file: opening and closing the database
    /// file outside SQLite drops this process's POSIX locks on it, so a racing run closing its
    /// connection took itself for the last one, folded the log in and deleted it, and this run's
    /// commit then went to a log no one would read (faults.sh's racing first runs: both exited 0,
    /// one task stayed; 1 in 200 here).
    static func backup(_ db: Database, path: String, version: Int) throws -> String {
        let target = "\(path).bak-\(version)"
        do {
            let fm = FileManager.default
            if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
            try db.run("VACUUM INTO ?", [.text(target)])
        } catch {
            throw StoreError.migrationFailed(path: path, from: version, reason: "cannot make a backup at \(target): \(reason(error))", backup: nil)
        }
        return target
    }

    public var schemaVersion: Int { Int(((try? scalarInt("PRAGMA user_version")) ?? nil) ?? 0) }

    // Scalar queries that reset their statement at once: a statement left on a row would hold a
    // read transaction open (and keep WAL checkpoints and journal-mode changes from happening).
    func scalarInt(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int64? {
        let s = try db.prepare(sql)
        defer { s.reset() }
        try s.bind(bindings)
        return try s.step() ? s.optionalInt(0) : nil
    }

    func scalarText(_ sql: String, _ bindings: [SQLValue] = []) throws -> String? {
        let s = try db.prepare(sql)
        defer { s.reset() }
        try s.bind(bindings)
        return try s.step() ? s.optionalText(0) : nil
    }

    // MARK: transactions

    public func begin() throws { try db.execute("BEGIN IMMEDIATE"); pendingFiles = [:]; pendingFilesAtSavepoint = [] }

    /// Commits. Pending file contents are first written to staged files beside their targets
    /// (flushed), and named in `pending_files` inside the transaction; after COMMIT they are
    /// renamed into place. So a kill before COMMIT changes no file (never an export on disk with
    /// no row or group to show for it, which a re-run would write twice), and a kill after it
    /// leaves rows the next open of the store finishes.
    public func commit() throws {
        let staged = try stageFiles()
        do {
            try db.execute("COMMIT")
        } catch {
            for s in staged { if let s { unlink(s) } }
            try? db.execute("ROLLBACK")
            pendingFiles = [:]
            throw error
        }
        pendingFiles = [:]
        do {
            try finishStagedFiles()
        } catch {
            // Committed: the change stands, and the next open of the store moves the file in.
            Diagnostics.shared.warning("\(error); the change is saved and the file will be completed by the next run")
        }
    }

    public func rollback() {
        try? db.execute("ROLLBACK")
        pendingFiles = [:]
        pendingFilesAtSavepoint = []
        recording = nil
    }

    public func savepoint() throws {
        try db.execute("SAVEPOINT step")
        pendingFilesAtSavepoint.append(pendingFiles)
    }

    public func releaseSavepoint() throws {
        try db.execute("RELEASE step")
        _ = pendingFilesAtSavepoint.popLast()
    }

    /// Reverts everything since the savepoint: rows, journal entry and pending files.
    public func rollbackToSavepoint() throws {
        try db.execute("ROLLBACK TO step; RELEASE step")
        if let saved = pendingFilesAtSavepoint.popLast() { pendingFiles = saved }
        recording = nil
    }

    /// Runs `body` in a transaction of its own (for tests and one-off writes).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let v = try body()
            try commit()
            return v
        } catch {
            rollback()
            throw error
        }
    }

    // MARK: files

    /// The content a file has once pending writes apply (nil when it does not exist).
    public func fileContent(_ path: String) throws -> Data? {
        if let pending = pendingFiles[path] { return pending }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw AgentError.conflict("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Schedules a file write (or, with nil, its removal) for when the transaction commits.
    public func scheduleFile(_ path: String, _ content: Data?) {
        pendingFiles[path] = .some(content)
    }

    /// Writes each pending content to a staged file in the target's folder (removals stage
    /// nothing) and records them in `pending_files`, inside the open transaction. Returns the
    /// staged paths, for removal should the commit fail.
    func stageFiles() throws -> [String?] {
        var staged: [String?] = []
        for (p, content) in pendingFiles.sorted(by: { $0.key < $1.key }) {
            var stagedPath: String?
            try removeOrphanedStages(of: p)
            if let content {
                let url = URL(fileURLWithPath: p)
                let name = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).pb-\(UUID().uuidString)").path
                guard FileManager.default.createFile(atPath: name, contents: content),
                      let handle = FileHandle(forWritingAtPath: name) else {
                    for s in staged { if let s { unlink(s) } }
                    throw ToolFailure(.ioError, "cannot write \(p): \(String(cString: strerror(errno)))")
                }
                let flushed = fsync(handle.fileDescriptor) == 0
                try? handle.close()
                guard flushed else {
                    unlink(name)
                    for s in staged { if let s { unlink(s) } }
                    throw ToolFailure(.ioError, "cannot write \(p): \(String(cString: strerror(errno)))")
                }
                stagedPath = name
            }
            staged.append(stagedPath)
            try db.run("INSERT INTO pending_files(path, staged) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET staged = excluded.staged",
                       [.text(p), stagedPath.map { .text($0) } ?? .null])
        }
        return staged
    }

    /// Staged files of `path` that no committed row names: left by a run killed before its COMMIT.
    /// Called inside a write transaction, so no other writer can be between staging and COMMIT.
    private func removeOrphanedStages(of path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).pb-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let s = try db.prepare("SELECT staged FROM pending_files WHERE staged IS NOT NULL")
        var live: Set<String> = []
        while try s.step() { live.insert(s.text(0)) }
        s.reset()
        for name in names where name.hasPrefix(prefix) {
            let staged = (folder as NSString).appendingPathComponent(name)
            if !live.contains(staged) { unlink(staged) }
        }
    }

    /// Moves committed staged files into place (or removes the files staged as removed), then
    /// forgets them. Safe to run again: a staged file already moved counts as done.
    func finishStagedFiles() throws {
        let s = try db.prepare("SELECT path, staged FROM pending_files ORDER BY path")
        var rows: [(String, String?)] = []
        while try s.step() { rows.append((s.text(0), s.optionalText(1))) }
        s.reset()
        guard !rows.isEmpty else { return }
        for (path, staged) in rows {
            if let staged {
                if FileManager.default.fileExists(atPath: staged), rename(staged, path) != 0 {
                    throw ToolFailure(.ioError, "cannot move \(staged) to \(path): \(String(cString: strerror(errno)))")
                }
            } else if FileManager.default.fileExists(atPath: path), unlink(path) != 0 {
                throw ToolFailure(.ioError, "cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        try db.transaction {
            for (path, staged) in rows {
                try db.run("DELETE FROM pending_files WHERE path = ? AND staged IS ?", [.text(path), staged.map { .text($0) } ?? .null])
            }
        }
    }

    // MARK: the journal entry being recorded

    /// Starts collecting the inverse steps of one tool call.
    public func beginEntry() { recording = [] }

    public func abandonEntry() { recording = nil }

    /// Records an inverse for a write made outside the row operations (a file).
    public func journalInverse(_ step: InverseStep) throws {
        guard recording != nil else { throw AgentError.conflict("internal: a write outside a journal entry") }
        recording!.append(step)
    }

    /// Ends the entry: when anything was written, journals the inverse steps under `group` and
    /// returns the entry id (`e-N`).
    @discardableResult
    public func finishEntry(group: String, tool: String, summary: String) throws -> String? {
        var steps = recording ?? []
        recording = nil
        guard !steps.isEmpty else { return nil }
        // How the entry leaves each row it wrote, checked by undo before it puts anything back.
        var seen: Set<String> = []
        for step in steps {
            guard let key = step.rowKey, seen.insert(key).inserted else { continue }
            let (table, id): (StoreTable, Int64)
            switch step {
            case let .delete(t, i), let .restore(t, i, _), let .expect(t, i, _): (table, id) = (t, i)
            case let .insert(t, row): (table, id) = (t, InverseStep.rowID(row)!)
            case .unexport, .reinsert, .removeFile, .removeRecords: continue
            }
            steps.append(.expect(table: table, id: id, row: try snapshot(table, id: id)))
        }
        let json = String(decoding: try RecordCodec().encodeValue(steps), as: UTF8.self)
        // max(seq) is one probe of the (group_id, seq) index; count(*) walked every entry of the
        // group, so a plan of n steps cost n^2 (a 20,000-step plan took 17.6 s).
        let seq = (try scalarInt("SELECT max(seq) FROM journal WHERE group_id = ?", [.text(group)]) ?? 0) + 1
        try db.run("INSERT INTO journal(group_id, seq, tool, summary, inverse, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                   [.text(group), .int(seq), .text(tool), .text(summary), .text(json), .text(clock.stamp)])
        return "e-\(db.lastInsertRowID)"
    }

    /// The next group id (`g-N`), taken when a plan's first entry is written.
    public func nextGroupID() throws -> String {
        let n = Int(try scalarText("SELECT value FROM meta WHERE key = 'groups'") ?? "0") ?? 0
        return "g-\(n + 1)"
    }

    public func claimGroupID(_ group: String) throws {
        guard let n = Int(group.dropFirst(2)) else { return }
        try db.run("UPDATE meta SET value = ? WHERE key = 'groups' AND CAST(value AS INTEGER) < ?", [.text(String(n)), .int(Int64(n))])
    }

    // MARK: rows: the one write path

    public func columns(_ table: StoreTable) throws -> [String] {
        if let c = columnCache[table] { return c }
        let s = try db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid")
        try s.bind([.text(table.rawValue)])
        var names: [String] = []
        while try s.step() { names.append(s.text(0)) }
        columnCache[table] = names
        return names
    }

    /// A row as JSON values (SQLite's own json_object keeps integers, reals, text and null apart).
    public func snapshot(_ table: StoreTable, id: Int64) throws -> [String: JSONValue]? {
        let cols = try columns(table)
        let pairs = cols.map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
        guard let json = try scalarText("SELECT json_object(\(pairs)) FROM \(table.rawValue) WHERE id = ?", [.int(id)]) else { return nil }
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        guard case .object(let row) = value else { return nil }
        return row
    }

    public func exists(_ table: StoreTable, id: Int64) throws -> Bool {
        try scalarInt("SELECT 1 FROM \(table.rawValue) WHERE id = ?", [.int(id)]) != nil
    }

    private func requireRecording() throws {
        guard recording != nil else { throw AgentError.conflict("internal: a write outside a journal entry") }
    }

    @discardableResult
    public func insert(_ table: StoreTable, _ values: [String: SQLValue]) throws -> Int64 {
        try requireRecording()
        let keys = values.keys.sorted()
        let sql = "INSERT INTO \(table.rawValue)(\(keys.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(keys.map { _ in "?" }.joined(separator: ", ")))"
        try db.run(sql, keys.map { values[$0]! })
        let id = db.lastInsertRowID
        recording!.append(.delete(table: table, id: id))
        return id
    }

    public func update(_ table: StoreTable, id: Int64, _ values: [String: SQLValue]) throws {
        try requireRecording()
        guard let old = try snapshot(table, id: id) else { throw AgentError.notFound("no \(table.label(id))") }
        try writeColumns(table, id: id, values)
        recording!.append(.restore(table: table, id: id, row: old))
    }

    public func delete(_ table: StoreTable, id: Int64) throws {
        try requireRecording()
        guard let old = try snapshot(table, id: id) else { return }
        try db.run("DELETE FROM \(table.rawValue) WHERE id = ?", [.int(id)])
        recording!.append(.insert(table: table, row: old))
    }

    private func writeColumns(_ table: StoreTable, id: Int64, _ values: [String: SQLValue]) throws {
        let keys = values.keys.sorted().filter { $0 != "id" }
        guard !keys.isEmpty else { return }
        let sql = "UPDATE \(table.rawValue) SET \(keys.map { "\"\($0)\" = ?" }.joined(separator: ", ")) WHERE id = ?"
        try db.run(sql, keys.map { values[$0]! } + [.int(id)])
    }

    // MARK: applying inverses (used by the undo engine and by nothing else)

    static func sqlValue(_ v: JSONValue) -> SQLValue {
        switch v {
        case .null: return .null
        case .bool(let b): return .int(b ? 1 : 0)
        case .number(let d): return d.rounded() == d && abs(d) < 9e15 ? .int(Int64(d)) : .double(d)
        case .integer(let i): return .int(i)
        case .string(let s): return .text(s)
        case .array, .object:
            return .text(String(decoding: (try? RecordCodec().encodeValue(v)) ?? Data(), as: UTF8.self))
        }
    }

    func applyInverse(_ step: InverseStep) throws {
        switch step {
        case let .delete(table, id):
            try db.run("DELETE FROM \(table.rawValue) WHERE id = ?", [.int(id)])
        case let .insert(table, row):
            if let id = InverseStep.rowID(row), try exists(table, id: id) { return }
            let keys = row.keys.sorted()
            let sql = "INSERT INTO \(table.rawValue)(\(keys.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(keys.map { _ in "?" }.joined(separator: ", ")))"
            try db.run(sql, keys.map { Self.sqlValue(row[$0]!) })
        case let .restore(table, id, row):
            try writeColumns(table, id: id, row.mapValues(Self.sqlValue))
        case .expect:
            return
        case let .unexport(path, uids, createdFile):
            guard let data = try fileContent(path) else { return }
            let text = String(decoding: data, as: UTF8.self)
            let kept = ICalendarFile.removing(uids: Set(uids), from: text)
            if createdFile, ICalendarFile.componentCount(kept) == 0 {
                scheduleFile(path, nil)
            } else {
                scheduleFile(path, Data(kept.utf8))
            }
        case let .reinsert(path, components, uids, before):
            var text = try fileContent(path).map { String(decoding: $0, as: UTF8.self) }
            let present = Set(ICalendarFile.events(in: text ?? "").compactMap(\.uid))
            var changed = false
            // An event goes back with the file's own line ends, should the user have changed them.
            let bareLF = text.map { $0.contains("\n") && !$0.contains("\r\n") } ?? false
            for (i, component) in components.enumerated() where !present.contains(uids[i]) {
                let piece = bareLF ? component.replacingOccurrences(of: "\r\n", with: "\n") : component
                text = try ICalendarFile.inserting(piece, beforeEvent: i < before.count ? before[i] : nil, in: text)
                changed = true
            }
            if changed, let text { scheduleFile(path, Data(text.utf8)) }
        case let .removeFile(path, _):
            if try fileContent(path) != nil { scheduleFile(path, nil) }
        case let .removeRecords(path, ids, createdFile, _):
            guard let data = try fileContent(path) else { return }
            let gone = Set(ids)
            let kept = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).filter { line in
                guard let object = try? RecordCodec().decodeObject(Data(line.utf8)), case .string(let id)? = object["id"] else { return true }
                return !gone.contains(id)
            }
            if createdFile, kept.isEmpty { scheduleFile(path, nil) } else { scheduleFile(path, Data(kept.map { $0 + "\n" }.joined().utf8)) }
        }
    }
}
