import Foundation
import PBAgent
import PBCore
@testable import PBMemory
import Testing
@testable import PBDates

/// pb-remember --endpoint checks the model's items against the message: its words, or nothing.
@Suite struct EndpointExtractorTests {
    let reader = try! ItemExtractor()
    let zone = TimeZone(secondsFromGMT: 3600)!
    var said: Date { DateValueFormat(timeZone: zone).parseInstant("2026-03-04T18:30:00+01:00")! }
    let message = "Hi! We decided on the blue tiles for the bathroom. The plumber comes on Monday. Should we book the ferry?"

    func align(_ reply: String) -> Result<EndpointExtractor.Aligned, ExtractionFailure> {
        EndpointExtractor.align(reply, to: message, said: said, zone: zone, reader: reader)
    }

    func texts(_ r: Result<EndpointExtractor.Aligned, ExtractionFailure>) -> [String] {
        guard case .success(let a) = r else { return [] }
        return a.items.map(\.text)
    }

    /// The model's types win where its text is the message's; its cut is checked by bytes.
    @Test func itemsAreTheMessagesOwnWords() throws {
        let r = align("""
            ```json
            {"items": [{"text": "the plumber comes on monday.", "type": "event"},
                       {"text": "We decided on the blue tiles for the bathroom.", "type": "decision"},
                       {"text": "Book the ferry, should we", "type": "question"},
                       {"text": "The dentist is on Friday.", "type": "event"}]}
            ```
            """)
        guard case .success(let a) = r else { Issue.record("no items: \(r)"); return }
        #expect(a.items.map(\.text) == ["We decided on the blue tiles for the bathroom.", "The plumber comes on Monday.", "Should we book the ferry?"])
        #expect(a.items.map(\.type) == [.decision, .event, .question])
        #expect(a.unplaced == 1)
        // Subject, values and the time are read here, not taken from the model.
        let plumber = a.items[1]
        #expect(plumber.time?.phrase == "on Monday" || plumber.time?.phrase == "Monday")
        #expect(plumber.subject.contains("plumber"))
        for item in a.items { #expect(Array(Array(message.utf8)[item.range]) == Array(item.text.utf8)) }
    }

    /// A sentence the model left out that says something is kept, as the reader types it; a
    /// wrong type or an invented text places nothing.
    @Test func nothingSaidIsLeftOut() {
        #expect(texts(align(#"{"items": [{"text": "We decided on the blue tiles for the bathroom.", "type": "decision"}]}"#))
                == ["We decided on the blue tiles for the bathroom.", "The plumber comes on Monday.", "Should we book the ferry?"])
        #expect(texts(align(#"{"items": [{"text": "The plumber comes on Monday.", "type": "appointment"}]}"#)).isEmpty)
    }

    @Test func aReplyThatIsNotItemsFallsBack() {
        for reply in ["Sure! Here are the items.", #"{"things": []}"#, #"{"items": []}"#,
                      #"{"items": [{"text": "Nothing like the message at all.", "type": "fact"}]}"#] {
            guard case .failure(let why) = align(reply) else { Issue.record("accepted: \(reply)"); continue }
            #expect(!why.reason.isEmpty)
        }
    }

    /// Two items over the same words: the first stands.
    @Test func overlappingItemsAreKeptOnce() {
        let r = align(#"{"items": [{"text": "The plumber comes on Monday.", "type": "event"}, {"text": "The plumber comes", "type": "fact"}]}"#)
        guard case .success(let a) = r else { Issue.record("no items"); return }
        #expect(a.items.filter { $0.text.hasPrefix("The plumber") }.map(\.type) == [.event] && a.unplaced == 1)
    }
}
