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

    @Test func plainTextHasNoMarkdownHeadings() {
        let layer = MarkdownDocument.plainTextLayer(Array("# not a heading\n\nbody".utf8), path: "t.txt")
        #expect(layer.blocks.map(\.kind) == [.paragraph, .paragraph])
    }
}
