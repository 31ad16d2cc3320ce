import Testing
@testable import PBText

@Suite struct SentenceSegmenterTests {
    func split(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try SentenceSegmenter().sentences(in: bytes, range: 0..<bytes.count).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func abbreviationsDoNotEndSentences() throws {
        #expect(try split("Dr. Smith saw Mr. Jones, e.g. at noon. Then he left.") ==
                ["Dr. Smith saw Mr. Jones, e.g. at noon.", "Then he left."])
        #expect(try split("See Fig. 3 and J. R. R. Tolkien. Done!") == ["See Fig. 3 and J. R. R. Tolkien.", "Done!"])
    }

    @Test func ordinarySentencesSplit() throws {
        #expect(try split("One. Two? Three!  Four") == ["One.", "Two?", "Three!", "Four"])
    }

    @Test func offsetsAreBytesEvenWithNonASCII() throws {
        let text = "Café au lait coûte 3 €. Ça va? Oui."
        let bytes = Array(text.utf8)
        let ranges = try SentenceSegmenter().sentences(in: bytes, range: 0..<bytes.count)
        #expect(ranges.count == 3)
        #expect(String(decoding: bytes[ranges[1]], as: UTF8.self) == "Ça va?")
    }

    @Test func subrangesKeepAbsoluteOffsets() throws {
        let bytes = Array("xxxx Hello there. Bye. yyyy".utf8)
        let ranges = try SentenceSegmenter().sentences(in: bytes, range: 5..<22)
        #expect(ranges.first?.lowerBound == 5)
        #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == ["Hello there.", "Bye."])
    }
}
