import Testing
@testable import PBAgent

@Suite("CaptureLines")
struct PlannerCaptureLinesTests {
    @Test("bullets, numbers and check boxes start items and are dropped")
    func markers() {
        let items = CaptureLines.items(of: "- buy milk\n2) call mum\n[ ] book flights\n[x] pack")
        #expect(items.map(\.text) == ["buy milk", "call mum", "book flights", "pack"])
    }

    @Test("short lines are a list; a long line without an end mark wraps into the next")
    func wrapping() {
        #expect(CaptureLines.items(of: "buy milk\ncall mum").count == 2)
        let long = "Amara and Lucia will walk round all the plots in the last week of April and"
        #expect(CaptureLines.items(of: long + "\nsend the list round.").map(\.text) == [long + " send the list round."])
    }

    @Test("headings are kept apart and emphasis is dropped")
    func headings() {
        let items = CaptureLines.items(of: "## Actions\n**Joe:** book the plumber")
        #expect(items == [.init(text: "## Actions", heading: true), .init(text: "Joe: book the plumber", heading: false)])
    }
}
