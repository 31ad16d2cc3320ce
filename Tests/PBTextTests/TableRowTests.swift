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

    /// The cell under the column the question names most: "rear ... at full load" is "Full load
    /// Rear", though "Up to 3 people Rear" and "Full load Front" each share a word with it.
    @Test func theColumnNamedMostIsTheAnswer() {
        let header = "Tyre size | Up to 3 people Front | Up to 3 people Rear | Full load Front | Full load Rear"
        let row = "205/55 R16 91V | 2.3 bar (33 psi) | 2.1 bar (30 psi) | 2.5 bar (36 psi) | 2.9 bar (42 psi)"
        let asked: Set<String> = ["rear", "full", "load"]
        #expect(TableRow.labelled(row, header: header, csv: false, naming: share(asked))
                == "Tyre size: 205/55 R16 91V; Full load Rear: 2.9 bar (42 psi)")
        // Two columns named whole are both the answer.
        let budget = "Category | Monthly budget | January | February | March | Notes"
        #expect(TableRow.labelled("Groceries | 520 | 561.84 | 498.1 | 414.24 | Freshways mostly", header: budget, csv: false,
                                  naming: share(["march", "grocery", "spending", "monthly", "budget"]))
                == "Category: Groceries; Monthly budget: 520; March: 414.24")
    }

    func share(_ asked: Set<String>) -> (String) -> Double {
        { name in
            let words = Set(name.lowercased().split(separator: " ").map(String.init))
            return Double(words.intersection(asked).count) / Double(words.count)
        }
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
