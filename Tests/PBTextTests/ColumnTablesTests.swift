import Testing
@testable import PBText

@Suite struct ColumnTablesTests {
    func rows(_ text: String) -> String { String(decoding: ColumnTables.rows(Array(text.utf8)[...]), as: UTF8.self) }

    @Test func columnsWrittenOneAfterAnotherBecomeRows() {
        // pdftotext's reading of a three-column tbl table, a paragraph running into its first column.
        let page = """
        3. Excesses
        The excess is the first part of each claim.
        Peril
        All claims unless shown below
        Escape of water (burst pipes, leaks)

        Buildings excess
        £250
        £500

        Contents excess
        £100
        £350

        4. Endorsements
        """
        #expect(rows(page) == """
        3. Excesses
        The excess is the first part of each claim.
        Peril | Buildings excess | Contents excess
        All claims unless shown below | £250 | £100
        Escape of water (burst pipes, leaks) | £500 | £350

        4. Endorsements
        """)
    }

    @Test func twoColumnsOfLabelsAndFigures() {
        #expect(rows("Cover\nBuildings\nContents\n\nLimit\n£385,000\n£60,000\n") == "Cover | Limit\nBuildings | £385,000\nContents | £60,000\n")
    }

    @Test func listsOfSentencesAreLeftAlone() {
        let text = "Unplug the machine.\nOpen the flap.\nDrain the water.\n\nClean the filter.\nRefit the cap.\nClose the flap.\n"
        #expect(rows(text) == text)
        // Two equal lists of words without figures: not a table either.
        let words = "apples\npears\nplums\n\ncarrots\nleeks\nonions\n"
        #expect(rows(words) == words)
    }

    @Test func pagesKeepTheirFormFeeds() {
        let out = ColumnTables.pages(Array("a\u{0C}Cover\nA\nB\n\nLimit\n£1\n£2\u{0C}".utf8))
        #expect(String(decoding: out, as: UTF8.self) == "a\u{0C}Cover | Limit\nA | £1\nB | £2\u{0C}")
    }
}
