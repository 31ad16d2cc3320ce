import Foundation
import Testing
import PBCore
@testable import PBAgent

@Suite struct UndoEngineTests {
    @Test func undoesTheLastGroupThenTheOneBefore() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.step("create_task", #"{"title":"B"}"#)
        #expect(try fx.undo().group == "g-2")
        #expect(try fx.task(2) == nil)
        #expect(try fx.task(1) != nil)
        #expect(try fx.undo().group == "g-1")
        #expect(try fx.undo().status == .nothing)
    }

    @Test func allOrNothingWhenARowWasDeletedBehindTheJournalsBack() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"A"}},{"tool":"create_task","args":{"title":"B"}}]}"#)
        try fx.exec(#"{"steps":[{"tool":"set_priority","args":{"id":"task:1","priority":3}},{"tool":"set_priority","args":{"id":"task:2","priority":2}}]}"#)
        // Someone deletes task 2 with sqlite3, outside every tool.
        try fx.store.db.run("DELETE FROM tasks WHERE id = 2")
        let before = try fx.store.canonicalDump()
        let u = try fx.undo()
        #expect(u.status == .refused)
        #expect(u.problems == ["task:2 no longer exists (deleted outside this group), so its earlier state cannot be restored"])
        #expect(u.message.contains("nothing was changed"))
        #expect(try fx.store.canonicalDump() == before)
        #expect(try fx.task(1)?.priority == 3)
    }

    @Test("a turn that made a task and changed it undoes whole: each change is checked against the row as the later one's undo leaves it")
    func madeAndChangedInOneTurn() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"call mom"}},{"tool":"complete_task","args":{"id":"$1"}},{"tool":"set_priority","args":{"id":"$1","priority":3}}]}"#)
        let u = try fx.undo()
        #expect(u.status == .reverted, "\(u.message)")
        #expect(try fx.count("tasks") == 0)
        // Still refused when the row was changed outside the journal after the turn.
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"pay rent"}},{"tool":"complete_task","args":{"id":"$1"}}]}"#)
        try fx.store.db.run("UPDATE tasks SET title = 'pay the rent' WHERE title = 'pay rent'")
        #expect(try fx.undo().status == .refused)
    }

    @Test func deletingWhatIsAlreadyGoneCountsAsDone() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"A"}},{"tool":"create_task","args":{"title":"B"}}]}"#)
        try fx.store.db.run("DELETE FROM tasks WHERE id = 1")
        let u = try fx.undo()
        #expect(u.status == .reverted)
        #expect(try fx.count("tasks") == 0)
    }

    @Test func oneEntryAndANamedGroup() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"{"steps":[{"tool":"create_task","args":{"title":"A"}},{"tool":"create_task","args":{"title":"B"}}]}"#)
        try fx.step("create_task", #"{"title":"C"}"#)
        let u = try fx.undo(.entry(r.steps[0].entry!))
        #expect(u.entry == "e-1")
        #expect(try fx.task(1) == nil)
        #expect(try fx.task(2) != nil)
        // The rest of g-1, named, while g-2 stays.
        #expect(try fx.undo(.group("g-1")).reverted.map(\.entry) == ["e-2"])
        #expect(try fx.undo(.group("g-1")).status == .nothing)
        #expect(try fx.task(3) != nil)
        #expect(throws: ToolFailure.self) { try fx.undo(.group("g-9")) }
        #expect(throws: ToolFailure.self) { try fx.undo(.entry("e-99")) }
    }

    @Test func recentGroupsListNewestFirst() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.step("create_note", #"{"title":"N","body":"b"}"#)
        try fx.undo()
        let groups = try fx.store.recentGroups(limit: 10)
        #expect(groups.map(\.group) == ["g-2", "g-1"])
        #expect(groups.map(\.undone) == [true, false])
        #expect(groups[1].tools == ["create_task"])
    }

    @Test func anOlderGroupIsRefusedWhileALaterOneChangedTheSameRows() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"Alpha"}"#)
        try fx.step("update_task", #"{"id":"task:1","title":"Alpha two","notes":"the notes of g-2"}"#)
        let before = try fx.store.canonicalDump()
        let u = try fx.undo(.group("g-1"))
        #expect(u.status == .refused)
        #expect(u.message.contains("g-2"), "the refusal names the later group: \(u.message)")
        #expect(try fx.store.canonicalDump() == before)
        #expect(try fx.task(1)?.notes == "the notes of g-2")
        // One entry of the older group meets the same rule.
        #expect(try fx.undo(.entry("e-1")).status == .refused)
        // In order, both come back: g-2, then g-1.
        #expect(try fx.undo(.group("g-2")).status == .reverted)
        #expect(try fx.task(1)?.title == "Alpha")
        #expect(try fx.undo(.group("g-1")).status == .reverted)
        #expect(try fx.task(1) == nil)
    }

    @Test func aRowChangedBehindTheJournalsBackIsNotOverwritten() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"Alpha"}"#)
        try fx.step("set_priority", #"{"id":"task:1","priority":3}"#)
        try fx.store.db.run("UPDATE tasks SET title = 'Edited by hand' WHERE id = 1")
        let before = try fx.store.canonicalDump()
        let u = try fx.undo()
        #expect(u.status == .refused)
        #expect(u.problems?.contains { $0.contains("task:1") && $0.contains("outside") } == true, "\(u.problems ?? [])")
        #expect(try fx.store.canonicalDump() == before)
        // A row a group created, then changed by hand: not deleted either.
        let fy = try AgentFixture()
        try fy.step("create_task", #"{"title":"Beta"}"#)
        try fy.store.db.run("UPDATE tasks SET notes = 'mine' WHERE id = 1")
        #expect(try fy.undo().status == .refused)
        #expect(try fy.task(1)?.notes == "mine")
    }

    @Test func aDraftEditedSinceItWasWrittenIsKeptAndTheUndoRefused() throws {
        let fx = try AgentFixture()
        let plan = #"{"steps":[{"tool":"create_task","args":{"title":"send the minutes"}},{"tool":"draft_message","args":{"to":"bob@example.org","channel":"email","text":"TEXT"}}]}"#
        let r = try fx.exec(plan.replacingOccurrences(of: "TEXT", with: "The minutes"))
        let eml = try #require(r.steps[1].ref?["path"]?.stringValue)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: eml))
        handle.seekToEndOfFile()
        handle.write(Data("PS: and the slides\r\n".utf8))
        try handle.close()
        let edited = try Data(contentsOf: URL(fileURLWithPath: eml))
        let u = try fx.undo()
        #expect(u.status == .refused)
        #expect(u.problems?.contains { $0.contains(eml) && $0.contains("edited") } == true, "\(u.problems ?? [])")
        #expect(try Data(contentsOf: URL(fileURLWithPath: eml)) == edited)
        #expect(try fx.task(1) != nil)
        // Moved aside, the edited draft is the user's own; the undo then goes ahead.
        try FileManager.default.moveItem(atPath: eml, toPath: eml + ".mine")
        #expect(try fx.undo().status == .reverted)
        #expect(try fx.task(1) == nil)
        // A draft no one touched is removed.
        let again = try fx.exec(plan.replacingOccurrences(of: "TEXT", with: "The agenda"))
        let untouched = try #require(again.steps[1].ref?["path"]?.stringValue)
        #expect(try fx.undo().status == .reverted)
        #expect(!FileManager.default.fileExists(atPath: untouched))
        // A journal written before drafts carried their hash still reads (and removes as before).
        let old = try JSONDecoder().decode(InverseStep.self, from: Data(#"{"removeFile":{"path":"/tmp/x.eml"}}"#.utf8))
        #expect(old == .removeFile(path: "/tmp/x.eml", sha256: nil))
    }

    @Test func aMessageDraftEditedSinceItWasWrittenIsKeptAndTheUndoRefused() throws {
        let fx = try AgentFixture()
        let plan = #"{"steps":[{"tool":"create_task","args":{"title":"call Bob"}},{"tool":"draft_message","args":{"to":"+44 7700 900123","text":"TEXT"}}]}"#
        let first = try fx.exec(plan.replacingOccurrences(of: "TEXT", with: "Running late"))
        let id = try #require(first.steps[1].ref?["id"]?.stringValue)
        let messages = fx.path("drafts/messages.jsonl")
        let second = try fx.exec(plan.replacingOccurrences(of: "TEXT", with: "See you at six"))
        let other = try #require(second.steps[1].ref?["id"]?.stringValue)
        // The user rewrites the first draft's text (jq, an editor): that record is theirs now.
        let lines = try String(contentsOfFile: messages, encoding: .utf8).split(separator: "\n").map { line -> String in
            line.contains(id) ? line.replacingOccurrences(of: "Running late", with: "Running late, sorry") : String(line)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: messages, atomically: true, encoding: .utf8)
        let edited = try Data(contentsOf: URL(fileURLWithPath: messages))
        // The later turn's draft, untouched, is taken out.
        #expect(try fx.undo().status == .reverted)
        #expect(!(try String(contentsOfFile: messages, encoding: .utf8)).contains(other))
        let kept = try Data(contentsOf: URL(fileURLWithPath: messages))
        #expect(String(decoding: kept, as: UTF8.self) == lines[0] + "\n")
        #expect(edited.count > kept.count)
        let u = try fx.undo()
        #expect(u.status == .refused)
        #expect(u.problems?.contains { $0.contains(id) && $0.contains(messages) && $0.contains("edited") } == true, "\(u.problems ?? [])")
        #expect(try Data(contentsOf: URL(fileURLWithPath: messages)) == kept)
        #expect(try fx.task(1) != nil)
        // Written again as it was (key order and spacing aside), the draft is PocketBrains' again.
        let reformatted = try String(contentsOfFile: messages, encoding: .utf8).replacingOccurrences(of: "Running late, sorry", with: "Running late")
            .replacingOccurrences(of: "\":\"", with: "\": \"")
        try reformatted.write(toFile: messages, atomically: true, encoding: .utf8)
        #expect(try fx.undo().status == .reverted)
        #expect(!FileManager.default.fileExists(atPath: messages))
        #expect(try fx.task(1) == nil)
        // A journal written before message drafts carried their hash still reads.
        let old = try JSONDecoder().decode(InverseStep.self, from: Data(#"{"removeRecords":{"path":"/tmp/m.jsonl","ids":["a"],"createdFile":true}}"#.utf8))
        #expect(old == .removeRecords(path: "/tmp/m.jsonl", ids: ["a"], createdFile: true, sha256: nil))
    }

    @Test func redoPutsBackExactlyWhatTheUndoneTurnDidAndIsItselfATurn() throws {
        let fx = try AgentFixture()
        try fx.exec(#"{"steps":[{"tool":"create_project","args":{"title":"Garden"}},{"tool":"create_task","args":{"title":"buy seeds","project":"$1"}}]}"#)
        try fx.step("create_task", #"{"title":"call the bank","due":"2026-11-27"}"#)
        try fx.step("set_priority", #"{"id":"task:1","priority":3}"#)
        let full = try fx.store.canonicalDump()
        #expect(try fx.undo().group == "g-3")
        #expect(try fx.undo().group == "g-2")
        let afterTwoUndos = try fx.store.canonicalDump()
        // The last undone first (g-2), then the one undone before it (g-3): the same ids, the same rows.
        let r1 = try fx.redo()
        #expect(r1.status == .redone)
        #expect(r1.group == "g-2")
        #expect(r1.redoGroup == "g-4")
        #expect(try fx.task(2)?.title == "call the bank")
        let r2 = try fx.redo()
        #expect(r2.group == "g-3")
        #expect(r2.redoGroup == "g-5")
        #expect(try fx.task(1)?.priority == 3)
        #expect(try fx.store.canonicalDump() == full)
        #expect(try fx.redo().status == .nothing)
        // A redo is a turn like any other: undone, and redone again.
        #expect(try fx.undo().group == "g-5")
        #expect(try fx.task(1)?.priority == 0)
        #expect(try fx.redo().redoGroup == "g-6")
        #expect(try fx.task(1)?.priority == 3)
        #expect(try fx.undo().group == "g-6")
        #expect(try fx.undo().group == "g-4")
        #expect(try fx.store.canonicalDump() == afterTwoUndos)
    }

    @Test func aNewTurnAfterAnUndoDiscardsTheRedo() throws {
        let fx = try AgentFixture()
        #expect(try fx.redo().status == .nothing)
        try fx.step("create_task", #"{"title":"A"}"#)
        #expect(try fx.redo().status == .nothing)
        try fx.undo()
        try fx.step("create_task", #"{"title":"B"}"#)
        let r = try fx.redo()
        #expect(r.status == .nothing)
        #expect(r.message.contains("g-2"), "\(r.message)")
        #expect(try fx.count("tasks") == 1)
        // Undoing the new turn does not bring the old redo back.
        try fx.undo()
        #expect(try fx.redo().group == "g-2")
        #expect(try fx.redo().status == .nothing)
    }

    @Test func redoIsRefusedWhenWhatItWouldPutBackChangedSince() throws {
        let fx = try AgentFixture()
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.step("set_priority", #"{"id":"task:1","priority":3}"#)
        try fx.undo()
        try fx.store.db.run("UPDATE tasks SET title = 'Edited by hand' WHERE id = 1")
        let before = try fx.store.canonicalDump()
        let r = try fx.redo()
        #expect(r.status == .refused)
        #expect(r.problems?.contains { $0.contains("task:1") } == true, "\(r.problems ?? [])")
        #expect(try fx.store.canonicalDump() == before)
        // A dry run says what a redo would do, and writes nothing.
        try fx.store.db.run("UPDATE tasks SET title = 'A' WHERE id = 1")
        let dry = try fx.redo(dryRun: true)
        #expect(dry.status == .redone)
        #expect(dry.dryRun == true)
        #expect(try fx.task(1)?.priority == 0)
        #expect(try fx.redo().status == .redone)
        #expect(try fx.task(1)?.priority == 3)
    }

    @Test func redoWritesBackTheDraftTheUndoRemoved() throws {
        let fx = try AgentFixture()
        let r = try fx.exec(#"{"steps":[{"tool":"draft_message","args":{"to":"bob@example.org","channel":"email","text":"The minutes"}}]}"#)
        let eml = try #require(r.steps[0].ref?["path"]?.stringValue)
        let written = try Data(contentsOf: URL(fileURLWithPath: eml))
        try fx.undo()
        #expect(!FileManager.default.fileExists(atPath: eml))
        #expect(try fx.redo().status == .redone)
        #expect(try Data(contentsOf: URL(fileURLWithPath: eml)) == written)
        #expect(try fx.undo().status == .reverted)
        #expect(!FileManager.default.fileExists(atPath: eml))
    }

    @Test func aFullStoreIsAnIOErrorNotARefusal() throws {
        let fx = try AgentFixture()
        let notes = String(repeating: "A long note that needs pages of its own. ", count: 2_000)
        try fx.step("create_task", #"{"title":"Big","notes":"\#(notes)"}"#)
        try fx.step("delete_task", #"{"id":"task:1"}"#)
        // No room to put the row back: the database may not grow past its present size.
        let pages = try #require(try fx.store.scalarInt("PRAGMA page_count"))
        try fx.store.db.execute("PRAGMA max_page_count = \(pages)")
        #expect { try fx.undo() } throws: { error in
            guard let failure = error as? ToolFailure else { return false }
            return failure.code == .ioError && failure.message.contains("nothing was changed") && !failure.message.contains("depends")
        }
        #expect(try fx.task(1) == nil)
        try fx.store.db.execute("PRAGMA max_page_count = 1073741823")
        #expect(try fx.undo().status == .reverted)
        #expect(try fx.task(1)?.title == "Big")
    }

    @Test func refusedWhenALaterChangeStillUsesWhatTheGroupMade() throws {
        let fx = try AgentFixture()
        try fx.step("create_project", #"{"title":"Garden"}"#)
        try fx.step("create_task", #"{"title":"Dig","project":"project:1"}"#)
        let u = try fx.undo(.group("g-1"))
        #expect(u.status == .refused)
        #expect(try fx.store.project(1) != nil)
    }

    @Test func aDryRunMeetsTheSameRefusalAndWritesNothing() throws {
        let fx = try AgentFixture()
        try fx.step("create_project", #"{"title":"Garden"}"#)
        try fx.step("create_task", #"{"title":"Dig","project":"project:1"}"#)
        // The refusal comes from the store's foreign key, not from validation: a dry run must
        // apply the steps to see it, and then take them back.
        let dry = try UndoEngine(store: fx.store).undo(.group("g-1"), dryRun: true)
        #expect(dry.status == .refused && dry.dryRun == true)
        #expect(try fx.store.project(1) != nil)
        let ok = try UndoEngine(store: fx.store).undo(.last, dryRun: true)
        #expect(ok.status == .reverted && ok.dryRun == true)
        #expect(try fx.task(1) != nil, "a dry run writes nothing")
        #expect(try fx.store.lastOpenGroup() == "g-2")
    }

    @Test func validationSeesTheStateEarlierStepsLeave() throws {
        let fx = try AgentFixture()
        // Update then delete in one group: undo re-inserts, then restores the update.
        try fx.step("create_task", #"{"title":"A"}"#)
        try fx.exec(#"{"steps":[{"tool":"set_priority","args":{"id":"task:1","priority":2}},{"tool":"delete_task","args":{"id":"task:1"}}]}"#)
        let u = try fx.undo()
        #expect(u.status == .reverted)
        #expect(try fx.task(1)?.priority == 0)
    }
}

@Suite struct StoreCreationTests {
    @Test func firstRunsAtOnceAllOpenTheStore() throws {
        // Two (here eight) first runs racing to create and migrate the same new store.
        for attempt in 0..<5 {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-race-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            let path = home.appendingPathComponent("store.sqlite").path
            let failures = LockedList()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    let store = try AgentStore(path: path)
                    _ = try store.nextGroupID()
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.items.isEmpty, "attempt \(attempt): \(failures.items)")
            #expect(try AgentStore(path: path).schemaVersion == StoreSchema.latest)
        }
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ s: String) { lock.withLock { list.append(s) } }
    var items: [String] { lock.withLock { list } }
}
