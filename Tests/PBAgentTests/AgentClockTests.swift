import Foundation
import Testing
@testable import PBAgent
@testable import PBDates

/// pb-exec's clock reads a wall time without an offset in the local zone, as date(1) does.
@Suite struct AgentClockTests {
    @Test func agentClockReadsAWallTimeInTheLocalZone() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let c = try AgentClock(text: "2026-07-01T23:30:00", local: tokyo)
        #expect(c.today == "2026-07-01")
        #expect(c.stamp == "2026-07-01T14:30:00Z")
        let z = try AgentClock(text: "2026-07-01T23:30:00Z", local: tokyo)
        #expect(z.today == "2026-07-01")
        #expect(z.zone.secondsFromGMT() == 0, "an offset written wins")
    }

    @Test func aWallTimeIsReadInTZAsPbDateReadsIt() throws {
        let c = try AgentClock(text: "2026-12-03T10:00:00", local: DateValueFormat.localTimeZone(environment: ["TZ": "UTC+2"]))
        #expect(c.stamp == "2026-12-03T12:00:00Z")
    }
}
