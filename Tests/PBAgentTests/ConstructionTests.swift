import Foundation
import PBCore
import Testing
@testable import PBAgent

/// Every construction of the grammar's table plans its own examples as it says, and pb-plan(1)
/// lists each one with them.
@Suite("Constructions")
struct ConstructionTests {
    @Test("each construction's examples plan the tools it names", arguments: IntentGrammar.constructions.flatMap { k in k.examples.map { (k.name, $0.request, $0.tools.map(\.rawValue)) } })
    func examples(_ name: String, _ request: String, _ tools: [String]) {
        #expect(fixedPlanner("2026-12-05T10:00:00Z").plan(request).tools == tools, "\(name)")
    }

    @Test("pb-plan(1) lists every construction with its examples")
    func documented() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/man1/pb-plan.1")
        let text = try String(contentsOf: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        for k in IntentGrammar.constructions {
            #expect(text.contains(k.name), "pb-plan(1) does not name \"\(k.name)\"")
            for e in k.examples { #expect(text.contains(e.request), "pb-plan(1) lacks the example \"\(e.request)\"") }
        }
    }

    @Test("a priority label keeps the rest's reading; a snooze to a day keeps no title of the day")
    func slots() {
        let p = fixedPlanner("2026-12-05T10:00:00Z").plan("urgent: renew the car tax by the 27th")
        #expect(p.steps.first?.args["priority"] == .string("high"))
        #expect(p.steps.first?.args["title"] == .string("renew the car tax"))
        let s = fixedPlanner("2026-12-05T10:00:00Z").plan("snooze the boiler call until tuesday")
        #expect(s.steps.first?.args["title"] == .string("the boiler call"))
        #expect(s.steps.first?.args["due"] == .string("2026-12-08"))
        #expect(fixedPlanner().plan("snooze the report for 2 days").tools == ["snooze_task"], "a duration stays a snooze")
        #expect(fixedPlanner().plan("tomorrow is a holiday").steps.isEmpty, "a day said first needs a request after it")
    }
}
