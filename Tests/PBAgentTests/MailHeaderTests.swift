import Foundation
import PBCore
import Testing
@testable import PBAgent

/// The header fields of e-mail drafts: RFC 5322 line lengths, RFC 2047 encoded words, and no
/// value that could end its line and start another field.
@Suite struct MailHeaderTests {
    /// A field's value as a mail reader sees it: unfolded (CRLF before a space removed) and its
    /// encoded words decoded (the space between two of them is not part of the text).
    static func decoded(_ field: String) -> String {
        let unfolded = field.replacingOccurrences(of: "\r\n", with: "")
        let value = String(unfolded[unfolded.index(after: unfolded.firstIndex(of: ":")!)...].dropFirst())
        var out = ""
        var previousEncoded = false
        for (i, piece) in value.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let encoded = piece.hasPrefix("=?UTF-8?B?") && piece.hasSuffix("?=")
            if i > 0, !(encoded && previousEncoded) { out += " " }
            if encoded, let bytes = Data(base64Encoded: String(piece.dropFirst(10).dropLast(2))) {
                out += String(decoding: bytes, as: UTF8.self)
            } else {
                out += piece
            }
            previousEncoded = encoded
        }
        return out
    }

    static func lines(_ field: String) -> [String] { field.components(separatedBy: "\r\n") }

    static func encodedWords(_ field: String) -> [String] {
        field.replacingOccurrences(of: "\r\n", with: "").split(separator: " ").map(String.init).filter { $0.hasPrefix("=?") }
    }

    @Test func aShortPlainSubjectIsWrittenAsItIs() {
        #expect(MailHeader.field("Subject", unstructured: "The report is ready") == "Subject: The report is ready")
    }

    @Test func aLongPlainSubjectIsFoldedAtItsSpaces() {
        let subject = Array(repeating: "the quarterly report", count: 12).joined(separator: " and ")
        let field = MailHeader.field("Subject", unstructured: subject)
        let lines = Self.lines(field)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        // Unfolding takes out the line breaks only: the text comes back whole.
        #expect(field.replacingOccurrences(of: "\r\n", with: "") == "Subject: " + subject)
    }

    @Test func aSubjectOutsideASCIIIsEncodedWordsOfAtMost75CharactersOnLinesOfAtMost78() {
        let subject = "Réunion du comité — ordre du jour, procès-verbal et budget prévisionnel pour l’année 2027 ✓"
        let field = MailHeader.field("Subject", unstructured: subject)
        #expect(Self.lines(field).allSatisfy { $0.utf8.count <= 78 })
        let words = Self.encodedWords(field)
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.count <= 75 })
        // No character is cut between two words: each decodes on its own.
        #expect(words.allSatisfy { w in
            Data(base64Encoded: String(w.dropFirst(10).dropLast(2))).map { String(data: $0, encoding: .utf8) != nil } ?? false
        })
        #expect(Self.decoded(field) == subject)
    }

    @Test func anASCIIWordThatLooksEncodedIsEncodedSoItIsReadAsWritten() {
        let subject = "see =?UTF-8?B?SGk=?= here"
        let field = MailHeader.field("Subject", unstructured: subject)
        #expect(field != "Subject: " + subject)
        #expect(Self.decoded(field) == subject)
    }

    @Test func aVeryLongWordIsEncodedInPiecesRatherThanLeftOverLong() {
        let subject = String(repeating: "x", count: 200)
        let field = MailHeader.field("Subject", unstructured: subject)
        #expect(Self.lines(field).allSatisfy { $0.utf8.count <= 78 })
        #expect(Self.decoded(field) == subject)
    }

    @Test func aMailboxQuotesAPlainNameAndEncodesAnotherOne() {
        #expect(MailHeader.field("To", mailbox: "John Smith", address: "john.smith@example.com") == "To: \"John Smith\" <john.smith@example.com>")
        #expect(MailHeader.field("To", mailbox: "Ann \"Nan\" Lee", address: "ann@example.org") == "To: \"Ann \\\"Nan\\\" Lee\" <ann@example.org>")
        #expect(MailHeader.field("To", mailbox: "", address: "ann@example.org") == "To: <ann@example.org>")
        let field = MailHeader.field("To", mailbox: "José Núñez", address: "jose@example.org")
        #expect(field.hasPrefix("To: =?UTF-8?B?"))
        #expect(field.hasSuffix(" <jose@example.org>"))
        // In a name, plain ASCII words stay plain between encoded ones, so that every reader
        // keeps the spaces around them (some keep the space between two encoded words too).
        let mixed = MailHeader.field("To", mailbox: "José Núñez-Fernández de la Peña y Montealegre", address: "jose@example.org")
        #expect(mixed.replacingOccurrences(of: "\r\n", with: "").contains("?= de la =?UTF-8?B?"))
        #expect(mixed.replacingOccurrences(of: "\r\n", with: "").hasSuffix(" y Montealegre <jose@example.org>"))
        #expect(Self.decoded(mixed) == "José Núñez-Fernández de la Peña y Montealegre <jose@example.org>")
        let long = MailHeader.field("To", mailbox: String(repeating: "Ñandú ", count: 20) + "Pérez", address: "np@example.org")
        #expect(Self.lines(long).allSatisfy { $0.utf8.count <= 78 })
        #expect(Self.encodedWords(long).allSatisfy { $0.count <= 75 })
    }

    @Test("a control character is refused in an address, with the field and the character named", arguments: [
        ("b@x\r\nBcc: spy@y", "to: control character U+000D in an address"),
        ("b@x\nBcc:spy@y", "to: control character U+000A in an address"),
        ("b@x\u{0}", "to: control character U+0000 in an address"),
        ("b@x\u{7F}", "to: control character U+007F in an address"),
        ("b@x\u{85}Bcc:spy@y", "to: control character U+0085 in an address"),
        ("b@x\tc", "to: control character U+0009 in an address"),
    ])
    func controlsInAnAddress(value: String, message: String) {
        #expect(throws: UnsafeInput(field: "to", reason: String(message.dropFirst(4)))) {
            try MailHeader.checkAddress(value, field: "to", what: "an address")
        }
    }

    @Test func anAddressCannotCarryASecondRecipientOrAnAngleBracket() {
        for value in ["b@x,spy@y", "b@x>, <spy@y", "b@x;spy@y", "b@x spy@y"] {
            #expect(throws: UnsafeInput.self) { try MailHeader.checkAddress(value, field: "to", what: "an address") }
        }
        #expect(throws: Never.self) { try MailHeader.checkAddress("john.smith+news@example.com", field: "to", what: "an address") }
    }

    @Test func textAllowsATabButNoOtherControlCharacter() {
        #expect(throws: Never.self) { try MailHeader.checkText("Report\tready — ✓", field: "subject", what: "a header") }
        #expect(throws: UnsafeInput(field: "subject", reason: "control character U+000A in a header")) {
            try MailHeader.checkText("hi\nBcc: spy@y", field: "subject", what: "a header")
        }
        #expect(throws: UnsafeInput(field: "from", reason: "control character U+009B in a name")) {
            try MailHeader.checkText("Ada\u{9B}", field: "from", what: "a name")
        }
    }

    @Test func unsafeInputSaysTheFieldFirst() {
        #expect(UnsafeInput(field: "to", reason: "control character U+000A in an address").description == "to: control character U+000A in an address")
    }
}
