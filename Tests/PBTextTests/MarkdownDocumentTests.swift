import Foundation
import Testing
@testable import PBText

@Suite struct MarkdownDocumentTests {
    func blocks(_ md: String) -> [(Block.Kind, String)] {
        let layer = MarkdownDocument.textLayer(Array(md.utf8), path: "t.md")
        return layer.blocks.map { ($0.kind, String(decoding: layer.bytes[$0.range], as: UTF8.self)) }
    }

    @Test func headingsParagraphsListsTablesCode() {
        let md = """
        ---
        title: Front Title
        ---
        # Top

        Para one
        continues here.

        Setext
        ------

        - a
        - b
          more b
        1. c

        | h1 | h2 |
        |----|:--:|
        | x  | y  |

        ```swift
        let x = 1
        ```
        """
        let b = blocks(md)
        #expect(b.map(\.0) == [.heading(level: 1), .paragraph, .heading(level: 2), .list, .table, .code])
        #expect(b[0].1 == "Top")
        #expect(b[1].1 == "Para one\ncontinues here.")
        #expect(b[2].1 == "Setext")
        #expect(b[3].1 == "- a\n- b\n  more b\n1. c")
        #expect(b[4].1 == "| h1 | h2 |\n|----|:--:|\n| x  | y  |")
        #expect(MarkdownDocument.textLayer(Array(md.utf8), path: "t.md").title == "Front Title")
    }

    @Test func listItemsAreParts() {
        let layer = MarkdownDocument.textLayer(Array("- one\n- two\n\n- three\n".utf8), path: "t.md")
        #expect(layer.blocks.count == 1)
        #expect(layer.blocks[0].parts.map { String(decoding: layer.bytes[$0], as: UTF8.self) } == ["- one", "- two", "- three"])
    }

    @Test func titleFromFirstH1AndHashesKeptInCSharp() {
        let layer = MarkdownDocument.textLayer(Array("Intro\n\n# Learning C#\n\ntext".utf8), path: "t.md")
        #expect(layer.title == "Learning C#")
    }

    @Test func plainTextHeadingsAreCapitalLinesAndDatedEntries() throws {
        // The bundled car log: a title in capitals, dated entries, an UPCOMING list.
        let bytes = try Array(Data(contentsOf: TestSupport.samples.appendingPathComponent("car-maintenance-log.txt")))
        let layer = MarkdownDocument.plainTextLayer(bytes, path: "car-maintenance-log.txt")
        let headings = layer.blocks.filter { if case .heading = $0.kind { return true }; return false }
            .map { String(decoding: bytes[$0.range], as: UTF8.self) }
        #expect(headings.first == "CAR MAINTENANCE LOG")
        #expect(headings.contains("2023-06-27  76,890 km  Garage: Hollis Motors"))
        #expect(headings.last == "UPCOMING")
        #expect(headings.count == 14) // the title, 12 entries, UPCOMING
        // Not headings: a dated line that ends a sentence, a capital line with nothing under it,
        // a line inside a paragraph, a dated line alone.
        let plain = "2024-01-02 we paid the rent.\nmore text\n\nNOTE\n\nfirst line\nSECOND LINE\nthird\n\n2024-01-03 Garage"
        let kinds = MarkdownDocument.plainTextLayer(Array(plain.utf8), path: "p.txt").blocks.map(\.kind)
        #expect(!kinds.contains { if case .heading = $0 { return true }; return false }, "\(kinds)")
    }

    @Test func plainTextHasNoMarkdownHeadings() {
        let layer = MarkdownDocument.plainTextLayer(Array("# not a heading\n\nbody".utf8), path: "t.txt")
        #expect(layer.blocks.map(\.kind) == [.paragraph, .paragraph])
    }
}
