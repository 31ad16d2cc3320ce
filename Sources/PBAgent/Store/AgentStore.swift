import Foundation
import PBCore
import PBIndex

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
    public var clock = AgentClock(now: Date(), zone: TimeZone.current)

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
    public init(path: String) throws {
        self.path = path
        let fm = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
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
            version = Int(try scalarInt("PRAGMA user_version") ?? 0)
            if version == 0, existed, (try scalarInt("SELECT count(*) FROM sqlite_master") ?? 0) > 0 {
                throw StoreError.notAStore(path: path, reason: "an SQLite database without a PocketBrains schema")
            }
        } catch let e as StoreError {
            throw e
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
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
            // Each step under the write lock (BEGIN IMMEDIATE), and only when the version is still
            // the one it starts from: two first runs at once used to both create the tables, and
            // one failed with "table meta already exists". The second now waits, sees the store
            // made, and goes on.
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
    }

    public convenience init(environment: PBEnvironment = PBEnvironment()) throws {
        try self.init(path: Self.defaultPath(environment))
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message }
        return String(describing: error)
    }

    /// Copies the store (after folding the write-ahead log into it) to `store.sqlite.bak-<version>`.
    static func backup(_ db: Database, path: String, version: Int) throws -> String {
        let target = "\(path).bak-\(version)"
        do {
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            let fm = FileManager.default
            if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
            try fm.copyItem(atPath: path, toPath: target)
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

    /// Commits: pending file writes first (so a failed write rolls the store back with it), then
    /// the database. If the commit itself fails, the files are put back as they were.
    public func commit() throws {
        let written = try commitFiles()
        do {
            try db.execute("COMMIT")
        } catch {
            for (p, old) in written { if let old { try? old.write(to: URL(fileURLWithPath: p)) } else { try? FileManager.default.removeItem(atPath: p) } }
            try? db.execute("ROLLBACK")
            throw error
        }
        pendingFiles = [:]
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

    private func commitFiles() throws -> [String: Data?] {
        var previous: [String: Data?] = [:]
        for (p, content) in pendingFiles.sorted(by: { $0.key < $1.key }) {
            let url = URL(fileURLWithPath: p)
            previous[p] = FileManager.default.fileExists(atPath: p) ? try? Data(contentsOf: url) : nil
            do {
                if let content {
                    try content.write(to: url, options: .atomic)
                } else if FileManager.default.fileExists(atPath: p) {
                    try FileManager.default.removeItem(at: url)
                }
            } catch {
                for (q, old) in previous where q != p { if let old { try? old.write(to: URL(fileURLWithPath: q)) } else { try? FileManager.default.removeItem(atPath: q) } }
                throw ToolFailure(.ioError, "cannot write \(p): \(error.localizedDescription)")
            }
        }
        return previous
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
            case .unexport: continue
            }
            steps.append(.expect(table: table, id: id, row: try snapshot(table, id: id)))
        }
        let json = String(decoding: try RecordCodec().encodeValue(steps), as: UTF8.self)
        let seq = (try scalarInt("SELECT count(*) FROM journal WHERE group_id = ?", [.text(group)]) ?? 0) + 1
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
        }
    }
}
