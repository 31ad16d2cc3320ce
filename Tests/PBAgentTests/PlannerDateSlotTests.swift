import Testing
@testable import PBAgent

@Suite("DateSlot")
struct PlannerDateSlotTests {
    let slot = fixedPlanner().dates

    @Test("cuts the phrase and its lead-in out of the text")
    func cut() {
        let c = slot.cut("book the hotel by next friday")
        #expect(c.rest == "book the hotel")
        #expect(c.due == "2026-12-04")
        #expect(c.grain == "day")
    }

    @Test("times are instants with a grain word the tools accept")
    func instant() {
        let c = slot.cut("Call Mom tonight")
        #expect(c.due == "2026-11-26T18:00:00+00:00")
        #expect(c.grain == "part_of_day")
    }

    @Test("no phrase leaves the text tidied")
    func none() {
        #expect(slot.cut("buy milk, ").rest == "buy milk")
        #expect(slot.cut("buy milk").due == nil)
    }
}
