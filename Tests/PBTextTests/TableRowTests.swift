import Testing
@testable import PBText

@Suite struct TableRowTests {
    @Test func csvRowUnderItsHeader() {
        let header = "Month,Category,Item,Amount (EUR),Paid by,Notes"
        let row = "2024-03,Household,\"Dishwasher repair (drain pump, E24)\",129.00,Joint account,"
        #expect(TableRow.labelled(row, header: header, csv: true)
                == "Month: 2024-03; Category: Household; Item: Dishwasher repair (drain pump, E24); Amount (EUR): 129.00; Paid by: Joint account")
        #expect(TableRow.labelled(header, header: header, csv: true) == nil)
    }

    @Test func tabAndPipeRows() {
        #expect(TableRow.cells("Escape of water\t£500\t£350", csv: false) == ["Escape of water", "£500", "£350"])
        #expect(TableRow.cells("| Valve | £38.50 |", csv: false) == ["Valve", "£38.50"])
        #expect(TableRow.cells("|---|:---:|", csv: false) == nil)
        #expect(TableRow.cells("just prose", csv: false) == nil)
    }

    @Test func headerFromPrefixOrFirstRow() {
        #expect(TableRow.header(prefix: "budget\nMonth,Item,Amount", text: "2024-02,Rent,1150.00\n", csv: true) == "Month,Item,Amount")
        #expect(TableRow.header(prefix: "budget", text: "Month,Item,Amount\r\n2024-01,Rent,1150.00\r\n", csv: true) == "Month,Item,Amount")
        #expect(TableRow.header(prefix: "notes", text: "Just one line of prose.", csv: false) == nil)
    }
}
