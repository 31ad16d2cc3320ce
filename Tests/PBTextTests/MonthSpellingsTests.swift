import Testing
@testable import PBText

@Suite struct MonthSpellingsTests {
    @Test func isoDatesNameTheirMonth() {
        #expect(MonthSpellings.terms(in: "2024-01,Utilities,Electricity,86.40") == ["january"])
        #expect(MonthSpellings.terms(in: "paid on 2023-08-02 and 2024-12-31") == ["august", "december"])
        #expect(MonthSpellings.terms(in: "starts 2024-03-01T09:00") == ["march"])
        // The month is what TermAnalyzer makes of the name, so a question's term matches it.
        #expect(MonthSpellings.terms(in: "2024-02") == TermAnalyzer.tokens("February"))
    }

    @Test func otherNumbersAreNotMonths() {
        #expect(MonthSpellings.terms(in: "2024-13 and 2024-00") == [])
        #expect(MonthSpellings.terms(in: "2024-02-30x and 12024-01") == [])
        #expect(MonthSpellings.terms(in: "call 0161-02 555") == [])
        #expect(MonthSpellings.terms(in: "pages 1990-1995") == [])
        #expect(MonthSpellings.terms(in: "01/02/2024") == [])
    }

    @Test func abbreviationsNeedANumberBeside() {
        #expect(MonthSpellings.terms(in: "due 27 Jan, then Sept 2025; Dec. 3") == ["january", "september", "december"])
        #expect(MonthSpellings.terms(in: "Jan said no; do not mar the wall") == [])
        #expect(MonthSpellings.terms(in: "Janet 12") == [])
    }
}
