import Testing
@testable import PBSQLite

/// What a user reads when SQLite fails: the cause in words, never our SQL.
@Suite struct DatabaseErrorTests {
    @Test func aFullDiskSaysSoAndShowsNoStatement() {
        let e = DatabaseError(code: 13, message: "database or disk is full", sql: "COMMIT")
        #expect(e.description == "sqlite: database or disk is full (code 13): the disk is full; free some space and run it again")
        #expect(!e.description.contains("COMMIT"))
        #expect(e.debugDescription.hasSuffix(" in: COMMIT"))
        #expect(e.exitCode == .ioError)
    }

    @Test func aShmThatCannotGrowPointsAtTheDisk() {
        let e = DatabaseError(code: 4874, message: "disk I/O error", sql: "PRAGMA user_version")
        #expect(e.description.contains("shared-memory file (-shm)"))
        #expect(!e.description.contains("PRAGMA"))
    }

    @Test func primaryCodesGetTheirMeaning() {
        #expect(DatabaseError(code: 5, message: "database is locked", sql: nil).description.hasSuffix("another process holds the database; try again when it has finished"))
        #expect(DatabaseError(code: 11, message: "database disk image is malformed", sql: nil).description.hasSuffix("the database file is damaged"))
        #expect(DatabaseError(code: 26, message: "file is not a database", sql: nil).description.hasSuffix("not an SQLite database"))
        #expect(DatabaseError(code: 1, message: "no such table: x", sql: "SELECT 1 FROM x").description == "sqlite: no such table: x (code 1)")
    }
}
