import Testing
@testable import PBSQLite

/// Text goes in and comes out by its length: a NUL inside it is kept, not where the text ends.
@Suite struct StatementTextTests {
    @Test func aNulInTextRoundTrips() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x TEXT)")
        let values = ["gate code 5190\u{0} alarm 2231", "", "\u{0}", "café \u{0}\u{0} ☕"]
        for v in values { try db.run("INSERT INTO t(x) VALUES (?)", [.text(v)]) }
        let s = try db.prepare("SELECT x, length(CAST(x AS BLOB)), x IS NULL FROM t ORDER BY rowid")
        var got: [String] = []
        while try s.step() {
            got.append(s.text(0))
            #expect(s.int(2) == 0)
        }
        #expect(got == values)
    }
}
