import Foundation
import Testing
@testable import PBText

/// Fixture files under Tests/Fixtures/documents (made by make-fixtures.sh there) and the checks
/// every extracted text layer must pass, shared by the HTML, DOCX and PDF suites.
enum DocumentFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/documents")

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/samples")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ layer: TextLayer, _ range: Range<Int>) -> String {
        String(decoding: layer.bytes[range], as: UTF8.self)
    }

    static func texts(_ layer: TextLayer) -> [String] {
        layer.blocks.map { text(layer, $0.range) }
    }

    /// The layer contract: valid UTF-8, ranges on character boundaries, in order, not overlapping,
    /// never ending in a newline, parts and header inside their block, blocks split by blank lines.
    static func expectWellFormed(_ layer: TextLayer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(String(validating: layer.bytes, as: UTF8.self) != nil, sourceLocation: sourceLocation)
        func onBoundary(_ offset: Int) -> Bool {
            offset == layer.bytes.count || (offset >= 0 && offset < layer.bytes.count && layer.bytes[offset] & 0xC0 != 0x80)
        }
        var previousEnd = 0
        for (index, block) in layer.blocks.enumerated() {
            let range = block.range
            #expect(range.lowerBound >= previousEnd && range.upperBound <= layer.bytes.count, "block \(index) out of order or bounds", sourceLocation: sourceLocation)
            #expect(onBoundary(range.lowerBound) && onBoundary(range.upperBound), "block \(index) splits a character", sourceLocation: sourceLocation)
            #expect(!range.isEmpty, "block \(index) is empty", sourceLocation: sourceLocation)
            if let last = range.last { #expect(layer.bytes[last] != UInt8(ascii: "\n"), "block \(index) ends in a newline", sourceLocation: sourceLocation) }
            if index > 0 {
                let gap = String(decoding: layer.bytes[previousEnd ..< range.lowerBound], as: UTF8.self)
                #expect(gap.contains("\n\n"), "block \(index) is not separated by a blank line", sourceLocation: sourceLocation)
            }
            for part in block.parts + (block.header.map { [$0] } ?? []) {
                #expect(part.lowerBound >= range.lowerBound && part.upperBound <= range.upperBound, "block \(index) has a part outside it", sourceLocation: sourceLocation)
                #expect(onBoundary(part.lowerBound) && onBoundary(part.upperBound), sourceLocation: sourceLocation)
            }
            previousEnd = range.upperBound
        }
    }
}

@Suite struct HTMLDocumentTests {
    private func layer(_ html: String) throws -> TextLayer {
        try HTMLDocument.textLayer(Array(html.utf8), path: "inline.html")
    }

    @Test func fixtureRendersBlocksInReadingOrder() throws {
        let layer = try HTMLDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.format == .html)
        #expect(layer.title == "Garden & Balcony Notes")
        #expect(DocumentFixtures.texts(layer) == [
            "Home",
            "Spring Planting",
            "Tomatoes need full sun and warm soil \u{2014} at least 16 \u{B0}C.",
            "Quotes: \u{201C}water early\u{201D} & \u{2018}mulch\u{2019} \u{2026} 5\u{2013}7 days \u{A9} 2024 \u{E9}t\u{E9} <tag> \"q\" 'a'",
            "Seeds to buy",
            "- Tomato San Marzano\n- Basil\n- Sweet pea\n  1. early sowing\n  2. late sowing",
            "Steps",
            "3. Soak the seeds\n4. Sow 5 mm deep",
            "Watering schedule",
            "Plant | Litres | Days\nTomato | 2 | Mon, Thu\nBasil | 0.5 | daily",
            "water(plant)\n  if dry: repeat",
            "First line\nsecond line\nthird line",
            "Loose text in a div ends here.",
        ])
        #expect(layer.blocks.map(\.kind) == [
            .paragraph, .heading(level: 1), .paragraph, .paragraph, .heading(level: 2), .list, .heading(level: 3), .list,
            .paragraph, .table, .code, .paragraph, .paragraph,
        ])
    }

    @Test func hiddenContentNeverReachesTheLayer() throws {
        let layer = try HTMLDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        let text = String(decoding: layer.bytes, as: UTF8.self)
        for hidden in ["not text", "alert", "font-family", "comment", "hidden cdata", "template text", "enable javascript", "icon title", "svg text"] {
            #expect(!text.contains(hidden), "\(hidden) leaked into the layer")
        }
    }

    @Test func listPartsAreTheItems() throws {
        let layer = try HTMLDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        let list = try #require(layer.blocks.first { $0.kind == .list })
        #expect(list.parts.map { DocumentFixtures.text(layer, $0) } == [
            "- Tomato San Marzano", "- Basil", "- Sweet pea", "  1. early sowing", "  2. late sowing",
        ])
    }

    @Test func tableHeaderIsTheRowOfHeaderCells() throws {
        let layer = try HTMLDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        let table = try #require(layer.blocks.first { $0.kind == .table })
        #expect(table.header.map { DocumentFixtures.text(layer, $0) } == "Plant | Litres | Days")
        #expect(table.parts.map { DocumentFixtures.text(layer, $0) } == ["Tomato | 2 | Mon, Thu", "Basil | 0.5 | daily"])
    }

    @Test func codeBlockPartsAreItsLines() throws {
        let layer = try HTMLDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        let code = try #require(layer.blocks.first { $0.kind == .code })
        #expect(code.parts.map { DocumentFixtures.text(layer, $0) } == ["water(plant)", "  if dry: repeat"])
    }

    @Test func windows1252IsDecodedWhenBytesAreNotUTF8() throws {
        let bytes = try DocumentFixtures.bytes("sample-cp1252.html")
        #expect(String(validating: bytes, as: UTF8.self) == nil)
        let layer = try HTMLDocument.textLayer(bytes, path: "sample-cp1252.html")
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.title == "Caf\u{E9} menu")
        #expect(DocumentFixtures.texts(layer) == ["Caf\u{E9} \u{201C}Le Coin\u{201D}", "Cr\u{E8}me br\u{FB}l\u{E9}e \u{2013} \u{20AC}4.50"])
    }

    @Test func firstH1IsTheTitleWithoutATitleElement() throws {
        let layer = try layer("<h2>Intro</h2><h1>Main  <b>Title</b></h1><h1>Other</h1>")
        #expect(layer.title == "Main Title")
        let untitled = try self.layer("<p>no headings</p>")
        #expect(untitled.title == nil)
    }

    @Test func unclosedAndUppercaseTagsAreTolerated() throws {
        let layer = try layer("<P>one<P>two & three < four<DIV>five</div><ul><li>a<li>b</ul><p>six")
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["one", "two & three < four", "five", "- a\n- b", "six"])
    }

    @Test func numericReferencesAndLegacyEntities() throws {
        let layer = try layer("<p>&#65;&#x42;&#X63; &#150; &#0; &#xD800; &amp &copy 1&frac12; &unknown; & alone</p>")
        #expect(DocumentFixtures.texts(layer) == ["ABc \u{2013} \u{FFFD} \u{FFFD} & \u{A9} 1\u{BD} &unknown; & alone"])
    }

    @Test func tableWithoutHeaderCellsUsesItsFirstRow() throws {
        let layer = try layer("<table><tr><td>Day</td><td>Task</td></tr><tr><td>Mon</td><td>Bins</td></tr></table><table><tr><td>lonely</td></tr></table>")
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.blocks.count == 2)
        #expect(layer.blocks[0].header.map { DocumentFixtures.text(layer, $0) } == "Day | Task")
        #expect(layer.blocks[0].parts.map { DocumentFixtures.text(layer, $0) } == ["Mon | Bins"])
        // One row is data, not a header with nothing under it.
        #expect(layer.blocks[1].header == nil)
        #expect(layer.blocks[1].parts.map { DocumentFixtures.text(layer, $0) } == ["lonely"])
    }

    @Test func nestedStructuresFlattenIntoTheirContainer() throws {
        let layer = try layer("<table><tr><th>A</th><th>B</th></tr><tr><td><ul><li>x</li><li>y</li></ul></td><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></table>")
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["A | B\nx y | in ner"])
        let inList = try self.layer("<ul><li>item<table><tr><td>c1</td><td>c2</td></tr></table></li></ul>")
        #expect(DocumentFixtures.texts(inList) == ["- item c1 c2"])
    }

    @Test func doubleBreakStartsANewParagraph() throws {
        let layer = try layer("<p>line one<br>line two<br><br>after the gap<br></p>")
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["line one\nline two", "after the gap"])
    }

    @Test func preKeepsSpacingAndDropsTheLeadingNewline() throws {
        let layer = try layer("<pre>\n  a  b\n\n\tc &lt;d&gt;\n</pre>")
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["  a  b\n\n\tc <d>"])
        #expect(layer.blocks[0].parts.map { DocumentFixtures.text(layer, $0) } == ["  a  b", "\tc <d>"])
    }

    @Test func textBeforeAMissingBodyIsKept() throws {
        let layer = try layer("<html><head><title>T</title>Stray words<p>More</p>")
        #expect(DocumentFixtures.texts(layer) == ["Stray words", "More"])
    }

    @Test func bundledItinerarySample() throws {
        let url = DocumentFixtures.samples.appendingPathComponent("lisbon-itinerary.html")
        let layer = try HTMLDocument.textLayer([UInt8](try Data(contentsOf: url)), path: url.path)
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.title == "Lisbon & Sintra: 5-Day Itinerary (May 2024)")
        let table = try #require(layer.blocks.first { $0.kind == .table })
        #expect(table.header.map { DocumentFixtures.text(layer, $0) } == "Day | Date | Plan | Dinner")
        #expect(table.parts.count == 5)
        #expect(table.parts.map { DocumentFixtures.text(layer, $0) }.first?.hasPrefix("1 | Thu 16 May | Aerobus to Alfama") == true)
        #expect(layer.blocks.filter { $0.kind == .list }.map(\.parts.count) == [4, 4])
    }

    /// Every prefix of a page is itself a (broken) page; none may trap or break the layer contract.
    @Test func everyTruncationStaysWellFormed() throws {
        let bytes = try DocumentFixtures.bytes("sample.html")
        for end in stride(from: 0, through: bytes.count, by: 7) {
            DocumentFixtures.expectWellFormed(try HTMLDocument.textLayer(Array(bytes.prefix(end)), path: "cut.html"))
        }
    }

    @Test func emptyAndMarkupOnlyInputGiveAnEmptyLayer() throws {
        for html in ["", "<html><head></head><body>  </body></html>", "<!-- only a comment", "<script>never closed"] {
            let layer = try layer(html)
            #expect(layer.blocks.isEmpty)
            #expect(layer.bytes.isEmpty)
        }
    }
}
