import Foundation
import Testing
import PBCore
@testable import PBAgent

@Suite struct ItemToolsTests {
    func roundTrip(_ fx: AgentFixture, _ body: () throws -> Void) throws {
        let before = try fx.store.canonicalDump()
        try body()
        #expect(try fx.store.canonicalDump() != before)
        #expect(try fx.undo().status == .reverted)
        #expect(try fx.store.canonicalDump() == before)
    }

    @Test func projectsAndMilestones() throws {
        let fx = try AgentFixture()
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("create_project", #"{"title":"Garden","due":"2027-03-01"}"#).summary == #"created project:1 "Garden""#)
        }
        try fx.step("create_project", #"{"title":"Garden"}"#)
        try roundTrip(fx) { () throws -> Void in
            let s = try fx.step("add_milestone", #"{"project":"garden","title":"Beds dug","due":"2026-12-01"}"#)
            #expect(s.summary == #"added milestone:1 "Beds dug" to project:2 "Garden" due 2026-12-01"#)
        }
        try fx.step("add_milestone", #"{"project":"project:2","title":"Beds dug"}"#)
        try roundTrip(fx) { () throws -> Void in
            #expect(try fx.step("complete_milestone", #"{"title":"beds dug","project":"Garden"}"#).status == .ok)
            #expect(try fx.store.milestone(2)?.status == "done")
        }
        #expect(try fx.step("add_milestone", #"{"project":"Kitchen","title":"x"}"#).error == "no project matches 'Kitchen'")
    }

    @Test func notesAndAppending() throws {
        let fx = try AgentFixture()
        try roundTrip(fx) { () throws -> Void in
            let s = try fx.step("create_note", #"{"body":"Boiler code is 4471\nservice in March","tags":["home","boiler"]}"#)
            #expect(s.ref?["title"] == .string("Boiler code is 4471"))
            #expect(try fx.store.note(1)?.tags == ["home", "boiler"])
        }
        try fx.step("create_note", #"{"title":"Boiler","body":"code 4471"}"#)
        try roundTrip(fx) { () throws -> Void in
            try fx.step("append_note", #"{"title":"boiler","text":"serviced 2026-11-20"}"#)
            #expect(try fx.store.note(2)?.body == "code 4471\n\nserviced 2026-11-20")
        }
        #expect(try fx.step("create_note", #"{}"#).error == "missing argument 'title or body'")
    }

    @Test func linksBetweenAnyItems() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"Service boiler"}},{"tool":"create_note","args":{"title":"Boiler manual notes"}}]}"#)
        try roundTrip(fx) { () throws -> Void in
            let s = try fx.step("link_items", #"{"from":"task:1","to":"manual notes","kind":"Reference"}"#)
            #expect(s.summary == "linked task:1 to note:1 (reference)")
        }
        #expect(try fx.step("link_items", #"{"from":"task:1","to":"task:1"}"#).status == .failed)
        // "boiler" fits the task and the note equally: never guess.
        #expect(try fx.step("link_items", #"{"from":"boiler","to":"note:1"}"#).error?.contains("fits more than one item") == true)
    }
}
