import Testing
@testable import PBText

@Suite struct LayoutTablesTests {
    func render(_ text: String) -> String? { LayoutTables.render(Array(text.utf8)[...]).map { String(decoding: $0, as: UTF8.self) } }

    @Test func aLaidOutTableKeepsEachCellUnderItsColumn() {
        // pdftotext -layout of an energy bill's table: the total row has no quantity or rate.
        let page = """
        2. Electricity
              Meter serial E19K 44120, reading type: actual (smart meter).

         Description                                 Quantity      Rate               Amount
         Reading 7 Feb 2025 42,219                   337 kWh       24.86p per kWh      £83.78
         Standing charge                              31 days      53.35p per day      £16.54
         Electricity total                                                            £100.32
        """
        #expect(render(page) == """
        2. Electricity
        Meter serial E19K 44120, reading type: actual (smart meter).

        Description | Quantity | Rate | Amount
        Reading 7 Feb 2025 42,219 | 337 kWh | 24.86p per kWh | £83.78
        Standing charge | 31 days | 53.35p per day | £16.54
        Electricity total |  |  | £100.32
        """)
    }

    @Test func columnNamesSetAboveTheRowsBecomeItsHeader() {
        // pdftotext -layout of a car handbook's tyre table (groff/tbl): the names are centred over
        // their columns on three lines, two groups of two columns above "Front  Rear".
        let page = """
        Tyre pressures

                                            Up to 3 people                             Full load
              Tyre size
                                       Front              Rear                 Front                Rear
         205/55 R16 91V           2.3 bar (33 psi)   2.1 bar (30 psi)     2.5 bar (36 psi)     2.9 bar (42 psi)
         225/45 R17 94W           2.5 bar (36 psi)   2.3 bar (33 psi)     2.7 bar (39 psi)     3.1 bar (45 psi)
        """
        #expect(render(page) == """
        Tyre pressures

        Tyre size | Up to 3 people Front | Up to 3 people Rear | Full load Front | Full load Rear
        205/55 R16 91V | 2.3 bar (33 psi) | 2.1 bar (30 psi) | 2.5 bar (36 psi) | 2.9 bar (42 psi)
        225/45 R17 94W | 2.5 bar (36 psi) | 2.3 bar (33 psi) | 2.7 bar (39 psi) | 3.1 bar (45 psi)
        """)
        let header = "Tyre size | Up to 3 people Front | Up to 3 people Rear | Full load Front | Full load Rear"
        #expect(TableRow.header(prefix: nil, text: header + "\n205/55 R16 91V | 2.3 bar | 2.1 bar | 2.5 bar | 2.9 bar\n225/45 R17 94W | 2.5 bar | 2.3 bar | 2.7 bar | 3.1 bar", csv: false) == header)
        // Prose just above a table is not its header.
        let prose = """
        The pressures below are for cold tyres, checked at least once a month.
         205/55 R16 91V           2.3 bar (33 psi)   2.1 bar (30 psi)     2.5 bar (36 psi)
         225/45 R17 94W           2.5 bar (36 psi)   2.3 bar (33 psi)     2.7 bar (39 psi)
        """
        #expect(render(prose)?.hasPrefix("The pressures below are for cold tyres, checked at least once a month.\n205/55") == true)
    }

    @Test func aWrappedCellGoesOnInItsRow() {
        let page = """
         Code      Meaning                    What to do
         E10       Water is not filling       Open the tap fully and clean the
                                              inlet hose filter.
         E20       Water is not draining      Clean the drain pump filter.
        """
        #expect(render(page) == """
        Code | Meaning | What to do
        E10 | Water is not filling | Open the tap fully and clean the inlet hose filter.
        E20 | Water is not draining | Clean the drain pump filter.
        """)
    }

    @Test func aNumberedListAndProseAreNotTables() {
        #expect(render("1.   Unscrew the four transit bolts.\n2.   Fit the hole caps.\n3.   Keep the bolts.") == nil)
        #expect(render("The boiler was serviced in April.  It is due again next year.\nNothing else was found.") == nil)
    }

    @Test func proseInTwoColumnsIsFound() {
        let line = "The school fair raised more money than ever    Parents' evenings will be held on the second"
        let page = Array(repeating: line, count: 8).joined(separator: "\n")
        #expect(LayoutTables.isMultiColumnProse(Array(page.utf8)[...]))
        #expect(!LayoutTables.isMultiColumnProse(Array("Code   Meaning\nE10   Not filling\nE20   Not draining\nE30   Door\nE40   Heat\nE50   Motor\n".utf8)[...]))
    }
}
