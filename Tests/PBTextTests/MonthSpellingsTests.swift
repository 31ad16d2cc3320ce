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
        #expect(MonthSpellings.terms(in: "31/13/2024 and 1/2/24 and 131/03/2025") == [])
    }

    /// Slashed dates whose order only one reading allows: the day is over 12.
    @Test func slashedDatesWithAnUnambiguousDay() {
        #expect(MonthSpellings.terms(in: "31/03/2025,BGC,FERNHILL ANALYTICS SALARY,,2566.90,2823.16") == ["march"])
        #expect(MonthSpellings.terms(in: "due 4/15/2025") == ["april"])
        #expect(MonthSpellings.terms(in: "from 14/03/2025 to 13/03/2026") == ["march"])
    }

    @Test func abbreviationsNeedANumberBeside() {
        #expect(MonthSpellings.terms(in: "due 27 Jan, then Sept 2025; Dec. 3") == ["january", "september", "december"])
        #expect(MonthSpellings.terms(in: "Jan said no; do not mar the wall") == [])
        #expect(MonthSpellings.terms(in: "Janet 12") == [])
    }
}
