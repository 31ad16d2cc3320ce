import Foundation
import Testing
import PBCore
@testable import PBAgent


@Suite struct UndoPropertyTests {
    static let words = ["call", "mom", "cake", "dentist", "bulbs", "garden", "boiler", "bill", "water", "plant"]

    /// One random step: a tool with arguments that are sometimes valid, sometimes not.
    func randomStep(_ g: inout SeededGenerator, icsPath: String) -> String {
        func word() -> String { Self.words.randomElement(using: &g)! }
        func task() -> String { Bool.random(using: &g) ? "task:\(Int.random(in: 1...8, using: &g))" : word() }
        func day() -> String { String(format: "2026-%02d-%02d", Int.random(in: 11...12, using: &g), Int.random(in: 1...28, using: &g)) }
        switch Int.random(in: 0..<19, using: &g) {
        case 0, 1: return #"{"tool":"create_task","args":{"title":"\#(word()) \#(word())","due":"\#(day())","priority":\#(Int.random(in: 0...3, using: &g))}}"#
        case 2: return #"{"tool":"update_task","args":{"id":"\#(task())","new_title":"\#(word())","due":null}}"#
        case 3: return #"{"tool":"complete_task","args":{"title":"\#(task())"}}"#
        case 4: return #"{"tool":"reopen_task","args":{"title":"\#(task())"}}"#
        case 5: return #"{"tool":"delete_task","args":{"title":"\#(task())"}}"#
        case 6: return #"{"tool":"reschedule_task","args":{"title":"\#(task())","due":"\#(day())T10:00:00Z"}}"#
        case 7: return #"{"tool":"snooze_task","args":{"title":"\#(task())","days":\#(Int.random(in: 1...5, using: &g))}}"#
        case 8: return #"{"tool":"set_priority","args":{"title":"\#(task())","priority":\#(Int.random(in: 0...3, using: &g))}}"#
        case 9: return #"{"tool":"set_recurrence","args":{"title":"\#(task())","rule":"\#(["daily", "FREQ=WEEKLY;INTERVAL=2", "none"].randomElement(using: &g)!)"}}"#
        case 10: return #"{"tool":"add_dependency","args":{"task":"\#(task())","blocked_by":"\#(task())"}}"#
        case 11: return #"{"tool":"create_project","args":{"title":"\#(word())"}}"#
        case 12: return #"{"tool":"add_milestone","args":{"project":"project:\#(Int.random(in: 1...3, using: &g))","title":"\#(word())","due":"\#(day())"}}"#
        case 13: return #"{"tool":"complete_milestone","args":{"id":"milestone:\#(Int.random(in: 1...3, using: &g))"}}"#
        case 14: return #"{"tool":"create_note","args":{"title":"\#(word())","body":"\#(word()) \#(word())"}}"#
        case 15: return #"{"tool":"append_note","args":{"id":"note:\#(Int.random(in: 1...3, using: &g))","text":"\#(word())"}}"#
        case 16: return #"{"tool":"link_items","args":{"from":"task:\#(Int.random(in: 1...6, using: &g))","to":"note:\#(Int.random(in: 1...3, using: &g))"}}"#
        case 17: return #"{"tool":"export_ics","args":{"path":"\#(icsPath)"}}"#
        default: return #"{"tool":"agenda","args":{"range":"week"}}"#
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func undoingEveryGroupInReverseRestoresTheStore(seed: UInt64) throws {
        let fx = try AgentFixture()
        var g = SeededGenerator(seed: seed)
        let ics = fx.path("export.ics")
        // A starting state that is not empty.
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"Garden"}},{"tool":"create_task","args":{"title":"Plant bulbs","project":"$1","due":"2026-11-20"}},{"tool":"set_recurrence","args":{"id":"$2","rule":"weekly"}},{"tool":"create_note","args":{"title":"Bulbs","body":"tulips"}}]}"#)
        let start = try fx.store.canonicalDump()
        var groups = 0
        for _ in 0..<40 {
            let steps = (0..<Int.random(in: 1...3, using: &g)).map { _ in randomStep(&g, icsPath: ics) }
            let r = try fx.exec(#"{"steps":[\#(steps.joined(separator: ","))]}"#)
            if r.group != nil { groups += 1 }
        }
        #expect(groups > 5)
        for _ in 0..<groups {
            let u = try fx.undo()
            #expect(u.status == .reverted, "seed \(seed): \(u.message)")
        }
        #expect(try fx.store.canonicalDump() == start, "seed \(seed)")
        #expect(!FileManager.default.fileExists(atPath: ics), "seed \(seed): the export file should be gone")
        // Only the starting group is left.
        #expect(try fx.store.lastOpenGroup() == "g-1")
    }
}
