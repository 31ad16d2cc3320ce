import Foundation
import Testing
import PBCore
import PBSQLite
import PBIndex
@testable import PBAgent

/// A class so that each test's folders are removed when its instance goes.
@Suite final class AgentStoreTests {
    private var folders: [URL] = []
    deinit { for dir in folders { try? FileManager.default.removeItem(at: dir) } }

    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pb-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        folders.append(dir)
        return dir
    }

    @Test func createsTheSchemaInWALMode() throws {
        let fx = try AgentFixture()
        #expect(fx.store.schemaVersion == StoreSchema.latest)
        #expect(try fx.store.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try AgentStore(path: fx.store.path).schemaVersion == StoreSchema.latest)
    }

    @Test func writesOutsideAJournalEntryAreRefused() throws {
        let fx = try AgentFixture()
        #expect(throws: AgentError.self) { try fx.store.transaction { _ = try fx.store.createTask(title: "sneaky") } }
        #expect(try fx.count("tasks") == 0)
    }

    @Test func aFileThatIsNotAStoreIsLeftAlone() throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("store.sqlite").path
        let junk = Data("these are my notes, not a database\n".utf8)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect { try AgentStore(path: path) } throws: { error in
            guard case StoreError.notAStore(let p, _)? = error as? StoreError else { return false }
            return p == path && "\(error)".contains("left as it is")
        }
        #expect(FileManager.default.contents(atPath: path) == junk)
    }

    @Test func anotherSQLiteDatabaseIsNotTakenOver() throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("store.sqlite").path
        try Database(path: path).execute("CREATE TABLE mine(x)")
        #expect(throws: StoreError.self) { try AgentStore(path: path) }
        #expect(try Database(path: path).scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'tasks'") == 0)
    }

    @Test func aNewerStoreIsRefused() throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("store.sqlite").path
        try Database(path: path).execute("CREATE TABLE t(x); PRAGMA user_version = 99")
        #expect { try AgentStore(path: path) } throws: { "\($0)".contains("schema version 99, newer than this program") }
    }

    @Test func anOlderStoreIsBackedUpThenMigrated() throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("store.sqlite").path
        // A store as version 1 left it, with items in it: migration 2 must index their words.
        do {
            let db = try Database(path: path)
            try db.execute(StoreSchema.migrations[0] + "\nPRAGMA user_version = 1")
            try db.execute("""
                INSERT INTO tasks(title, notes, created_at, updated_at) VALUES ('Book the dentist', 'molar', 'x', 'x');
                INSERT INTO notes(title, body, tags, created_at, updated_at) VALUES ('Garden', 'tulips', 'spring', 'x', 'x');
                """)
        }
        let store = try AgentStore(path: path)
        #expect(store.schemaVersion == StoreSchema.latest)
        #expect(store.backupPath == path + ".bak-1")
        #expect(try Database(path: path + ".bak-1").scalarInt("PRAGMA user_version") == 1)
        #expect(try store.searchWords("booking").map(\.id) == [1])
        #expect(try store.searchWords("spring").map(\.kind) == [.note])
    }

    @Test func isoMomentsRejectImpossibleDates() {
        let utc = TimeZone(secondsFromGMT: 0)!
        #expect(ISOMoment.parse("2026-02-30", zone: utc) == nil)
        #expect(ISOMoment.parse("2026-11-29T25:00", zone: utc) == nil)
        #expect(ISOMoment.parse("2026-11-29T19:00", zone: utc)?.text == "2026-11-29T19:00:00Z")
        #expect(ISOMoment.parse("2026-11-29T19:00:00+0530", zone: utc)?.text == "2026-11-29T19:00:00+05:30")
        #expect(ISOMoment.parse("2026-11-29T19:00:00.250-03:00", zone: utc)?.day(in: utc) == "2026-11-29")
        #expect(ISOMoment.parse("2026-11-29T23:00:00-03:00", zone: utc)?.day(in: utc) == "2026-11-30")
    }
}

/// File writes commit with their transaction (issue 17 item 4): staged beside the target,
/// moved in after COMMIT, finished by the next open when a run died in between.
@Suite struct StagedFileTests {
    @Test func nothingReachesTheFileBeforeCommitAndTheNextOpenFinishesACommittedOne() throws {
        let fx = try AgentFixture()
        let target = fx.path("tasks.ics")
        // A run that dies after staging but before COMMIT: no file, no pending row.
        do {
            let store = try AgentStore(path: fx.path("other.sqlite"))
            try store.begin()
            store.scheduleFile(target, Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8))
            _ = try store.stageFiles()
            #expect(!FileManager.default.fileExists(atPath: target))
        } // closed without COMMIT: SQLite rolls the transaction back, as after kill -9
        let reopened = try AgentStore(path: fx.path("other.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try reopened.scalarInt("SELECT count(*) FROM pending_files") == 0)
        // A run that dies after COMMIT, before the rename: the next open moves the file in.
        try reopened.begin()
        reopened.scheduleFile(target, Data("exported\n".utf8))
        _ = try reopened.stageFiles()
        try reopened.db.execute("COMMIT")
        #expect(!FileManager.default.fileExists(atPath: target))
        let next = try AgentStore(path: fx.path("other.sqlite"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "exported\n")
        #expect(try next.scalarInt("SELECT count(*) FROM pending_files") == 0)
        // And an ordinary commit leaves no staged file behind.
        try next.transaction { next.scheduleFile(target, Data("again\n".utf8)) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "again\n")
        let staged = try FileManager.default.contentsOfDirectory(atPath: fx.home.path).filter { $0.hasPrefix(".tasks.ics.pb-") }
        #expect(staged.isEmpty, "the staged file of the run that never committed is cleared by the next write: \(staged)")
    }
}
