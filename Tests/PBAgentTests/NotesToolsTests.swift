import Foundation
import Testing
import PBCore
import PBIndex
import PBText
@testable import PBAgent

@Suite struct NotesToolsTests {
    @Test func asksTheNotesWithCitationsAndFollowsEdits() throws {
        let f = try AgentFixture()
        try f.step("create_note", #"{"title":"Plumber visit","body":"The plumber said the stopcock under the sink is seized and must be replaced before winter. The quote was 85 pounds."}"#)
        try f.step("create_note", #"{"title":"Garden ideas","body":"Plant garlic in October. Cut the raspberry canes back in February."}"#)
        let answer = try f.step("ask_notes", #"{"question":"what did the plumber say about the stopcock?"}"#)
        #expect(answer.status == .ok)
        #expect(answer.refID == "note:1")
        // The citation's byte span points into the note as indexed: "# title\n\nbody".
        guard case .array(let passages)? = answer.data, case .object(let first)? = passages.first,
              case .string(let text)? = first["text"], case .number(let start)? = first["start"], case .number(let end)? = first["end"]
        else { Issue.record("no passages"); return }
        let note = try #require(try f.store.notes().first { $0.ref == "note:1" })
        let source = Array(NotesIndex.text(of: note).utf8)
        #expect(Array(text.utf8) == Array(source[Int(start)..<Int(end)]))
        #expect(text.contains("stopcock"))
        // An appended line is found on the next question: the index follows the store.
        try f.step("append_note", #"{"title":"Garden ideas","text":"The shed key is under the blue pot."}"#)
        let shed = try f.step("ask_notes", #"{"question":"where is the shed key?"}"#)
        #expect(shed.refID == "note:2")
        // Undo the append and the note as indexed loses it again.
        try f.undo()
        let again = try f.step("ask_notes", #"{"question":"shed key blue pot"}"#)
        if case .array(let hits)? = again.data, case .object(let top)? = hits.first, case .string(let t)? = top["text"] {
            #expect(!t.contains("shed key"))
        }
        #expect(try f.count("journal") >= 3)
    }

    @Test func aLibraryOfTheUsersCalledNotesIsLeftAlone() throws {
        let f = try AgentFixture()
        // The user's own library "notes" under the same PB_HOME as the store.
        let env = PBEnvironment(variables: ["PB_HOME": f.home.path])
        let chunks = try DocumentChunker(library: "notes", chunker: try Chunker(tokens: NotesIndex.RoughCounter()))
            .chunk(path: "/home/me/notes/boiler.md", text: "The boiler was serviced in March.", title: nil, format: "markdown")
        let indexer = Indexer(library: try Library(environment: env, name: "notes", create: true))
        for (i, c) in chunks.enumerated() { try indexer.consume(InputLine(data: try RecordCodec().encode(c), source: "t", number: i + 1)) }
        _ = try indexer.finish()
        try f.step("create_note", #"{"title":"Plumber visit","body":"The stopcock must be replaced."}"#)
        let r = try f.step("ask_notes", #"{"question":"what about the stopcock?"}"#)
        #expect(r.refID == "note:1")
        let mine = try Library(environment: env, name: "notes", create: false)
        #expect(try mine.document(path: "/home/me/notes/boiler.md") != nil, "the user's document survives the sync")
    }

    @Test func noNotesIsAnAnswerNotAnError() throws {
        let f = try AgentFixture()
        let r = try f.step("ask_notes", #"{"question":"anything"}"#)
        #expect(r.status == .ok)
        #expect(r.summary == "there are no notes to ask")
    }
}
