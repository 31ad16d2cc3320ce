import Testing
@testable import PBSQLite

/// Columns are read by the name the SELECT gives them, so adding a column to a query cannot
/// shift what another read means.
@Suite struct StatementColumnTests {
    @Test func columnsByTheirNameOrAlias() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE a(id INTEGER, name TEXT, score REAL); CREATE TABLE b(id INTEGER, a INTEGER, note TEXT)")
        try db.run("INSERT INTO a VALUES (1, 'first', 0.5)")
        try db.run("INSERT INTO b VALUES (7, 1, NULL)")
        let s = try db.prepare("SELECT b.id AS b_id, a.name, a.id, a.score, b.note FROM a JOIN b ON b.a = a.id")
        #expect(try s.step())
        #expect(s.int("b_id") == 7 && s.int("id") == 1)
        #expect(s.text("name") == "first" && s.double("score") == 0.5)
        #expect(s.optionalText("note") == nil && s.isNull("note") && s.optionalDouble("note") == nil)
        #expect(s.column("note") == 4)
    }
}
