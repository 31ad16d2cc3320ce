import Testing
@testable import PBText

/// A start tag's attributes, as the HTML and XML readers share them.
@Suite struct MarkupAttributesTests {
    func scan(_ tag: String, unquoted: Bool) -> (pairs: [String], selfClosing: Bool, rest: String) {
        let bytes = Array(tag.utf8)
        let t = MarkupAttributes(bytes, from: 0, unquotedValues: unquoted)
        let pairs = t.pairs.map { String(decoding: $0.name, as: UTF8.self) + ($0.value.map { "=" + String(decoding: $0, as: UTF8.self) } ?? "") }
        return (pairs, t.selfClosing, String(decoding: bytes[t.end...], as: UTF8.self))
    }

    @Test func quotesHoldAClosingBracketAndTheTagEndsAfterIt() {
        let r = scan(#" title="a > b" alt='x' hidden>rest"#, unquoted: true)
        #expect(r.pairs == ["title=a > b", "alt=x", "hidden"] && !r.selfClosing && r.rest == "rest")
    }

    @Test func unquotedValuesOnlyWhereAsked() {
        #expect(scan(" width=100 height = 20>", unquoted: true).pairs == ["width=100", "height=20"])
        #expect(scan(" width=100>", unquoted: false).pairs == ["width=", "100"])
    }

    @Test func selfClosingIsASlashBeforeTheEnd() {
        #expect(scan(#" r:id="x"/>"#, unquoted: false).selfClosing)
        #expect(scan(" / >", unquoted: false).selfClosing)
        #expect(!scan(" / >", unquoted: true).selfClosing, "HTML: only a '/' right before the '>'")
        #expect(scan("/>", unquoted: true).selfClosing)
        #expect(!scan(" a/b>", unquoted: false).selfClosing)
        #expect(scan(#" a="unterminated"#, unquoted: true).rest == "")
    }
}
