import Testing
@testable import PBText

@Suite struct CSVDocumentTests {
    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let csv = "name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\nthen left\"\r\nlast,row\n"
        let layer = try CSVDocument.textLayer(Array(csv.utf8), path: "t.csv")
        #expect(layer.blocks.count == 1)
        let t = layer.blocks[0]
        #expect(t.kind == .table)
        #expect(String(decoding: layer.bytes[t.header!], as: UTF8.self) == "name,note")
        #expect(t.parts.map { String(decoding: layer.bytes[$0], as: UTF8.self) } ==
                ["\"Smith, J\",\"said \"\"hi\"\"\nthen left\"", "last,row"])
    }

    @Test func unclosedQuoteIsMalformed() {
        #expect(throws: DocumentError.self) { try CSVDocument.textLayer(Array("a,b\n\"x,y\n".utf8), path: "t.csv") }
    }
}
