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

    @Test("a clock time is a moment, due to the minute, though the phrase names only the hour")
    func clockTime() {
        let c = slot.cut("call the bank at 3pm")
        #expect(c.due == "2026-11-26T15:00:00+00:00")
        #expect(c.grain == "minute")
    }

    @Test("a span already under way is due from today and keeps its grain")
    func spanUnderWay() {
        // The fixed now is Thursday 26 November 2026.
        let this = slot.cut("send the cards this week")
        #expect(this.due == "2026-11-26")
        #expect(this.grain == "week")
        let month = slot.cut("pay the nursery this month")
        #expect(month.due == "2026-11-26")
        #expect(month.grain == "month")
        let next = slot.cut("send the cards next week")
        #expect(next.due == "2026-11-30")
        #expect(next.grain == "week")
    }
}
