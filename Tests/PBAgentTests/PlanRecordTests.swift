import Foundation
import Testing
import PBCore
@testable import PBAgent

/// The plan's own fields (`message`, `confirm`, `confirmed`, `review`) are typed: read as what
/// they are, written in key order with the rest of the record, and carried on to the result.
@Suite struct PlanRecordTests {
    let line = #"{"confirm":"delete \"milk\"?","confirmed":true,"kind":"plan","message":"left out: \"it\"","review":[{"outcome":"rejected","proposal":1,"rules":["R9"],"tool":"delete_task"}],"steps":[],"text":"delete milk","x-mine":1}"#

    @Test("read typed, and written back byte for byte in key order, an unknown field last")
    func roundTrip() throws {
        let codec = RecordCodec()
        let plan = try codec.decode(PlanRecord.self, from: Data(line.utf8))
        #expect(plan.message == "left out: \"it\"")
        #expect(plan.confirm == "delete \"milk\"?")
        #expect(plan.confirmed == true)
        #expect(plan.review == [PlanReview(proposal: 1, tool: "delete_task", outcome: .rejected, rules: [.target])])
        #expect(plan.extra == ["x-mine": .number(1)])
        #expect(String(decoding: try codec.encode(plan), as: UTF8.self) == line)
    }

    @Test("a field of the wrong type is bad input naming the field, not a field ignored")
    func wrongType() {
        #expect(throws: RecordError.self) {
            try RecordCodec().decode(PlanRecord.self, from: Data(#"{"kind":"plan","steps":[],"confirmed":"yes"}"#.utf8))
        }
    }

    @Test("a result carries the plan's question, confirmation, review and unknown fields on, not its message")
    func carriedOn() throws {
        let plan = try RecordCodec().decode(PlanRecord.self, from: Data(line.utf8))
        let carried = plan.carriedOn
        #expect(Set(carried.keys) == ["confirm", "confirmed", "review", "x-mine"])
    }

    @Test("a plan with no steps that says why gets the executor's 'nothing was changed' after its own word, without 'the plan has no steps'")
    func emptyPlanKeepsThePlannersWord() throws {
        let fx = try AgentFixture()
        for said in ["nothing matched: no rule reads this", "left out: \"it\"; " + PlanRecord.nothingLeft] {
            let json = #"{"steps":[],"message":"\#(said.replacingOccurrences(of: "\"", with: "\\\""))"}"#
            #expect(try fx.exec(json).message == said + "; nothing was changed")
            #expect(try fx.exec(json, dryRun: true).message == said + "; dry run: nothing was written")
        }
        #expect(try fx.exec(#"{"steps":[]}"#).message == "the plan has no steps; nothing was changed")
    }
}
