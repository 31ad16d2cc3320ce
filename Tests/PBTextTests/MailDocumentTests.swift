import Foundation
import Testing
@testable import PBText

/// Mail as Python's email and mailbox packages wrote it (Tests/Fixtures/office/mail.py), and the
/// encodings and structures that real mail carries.
@Suite struct MailDocumentTests {
    static func text(_ layer: TextLayer) -> String {
        String(decoding: layer.bytes, as: UTF8.self)
    }

    static func layer(_ message: String, mailbox: Bool = false) throws -> TextLayer {
        try MailDocument.textLayer(Array(message.utf8), path: "test.eml", mailbox: mailbox, ocr: OCRSettings(enabled: false))
    }

    @Test func messageWithAlternativesAndAttachment() throws {
        let layer = try MailDocument.textLayer(try OfficeDocumentTests.bytes("repair-quote.eml"), path: "repair-quote.eml", mailbox: false)
        let text = Self.text(layer)
        #expect(layer.title == "Boiler repair in flat 3: the engineer's quote")
        #expect(text.hasPrefix("From: Anna Keller <anna.keller@example.org>\nTo: Jonas Brandt <j.brandt@example.net>\nDate: "))
        // The plain alternative is read, the HTML one is not read a second time.
        #expect(text.components(separatedBy: "The valve itself costs 190 euros.").count == 2)
        #expect(text.hasSuffix("[Attachment quote.pdf: read as a document of its own, repair-quote.eml#quote.pdf.]"))
        // The attachment is a document of its own, with its pages.
        let attachment = try #require(layer.attachments.first)
        #expect(layer.attachments.count == 1)
        #expect(attachment.anchor == "quote.pdf")
        #expect(attachment.title == "quote.pdf, attached to \u{201C}Boiler repair in flat 3: the engineer's quote\u{201D}")
        #expect(attachment.layer.format == .pdf)
        #expect(String(decoding: attachment.layer.bytes, as: UTF8.self).hasPrefix("Hollis Heating: quote 2026-118"))
        #expect(attachment.layer.blocks.first?.page == 1)
    }

    @Test func mailboxGivesOneSectionPerMessage() throws {
        let layer = try MailDocument.textLayer(try OfficeDocumentTests.bytes("club.mbox"), path: "club.mbox", mailbox: true)
        let text = Self.text(layer)
        let headings = layer.blocks.compactMap { block -> String? in
            guard case .heading = block.kind else { return nil }
            return String(decoding: layer.bytes[block.range], as: UTF8.self)
        }
        #expect(headings == ["Message 1: Hall booking für the members' meeting", "Message 2: Seeds ordered", "Message 3: Re: Seeds ordered"])
        // Quoted-printable Latin-1, an HTML-only body, and mboxo's ">From " escape undone.
        #expect(text.contains("The key is with the café next door; ask for Jürgen."))
        #expect(text.contains("172 pounds in all, paid with the club card."))
        #expect(text.contains("\nFrom now on please keep the receipts"))
        #expect(!text.contains(">From"))
    }

    @Test func encodedWords() {
        #expect(MailDocument.decodeWords("=?utf-8?q?M=C3=BCller?=, Ruth") == "Müller, Ruth")
        #expect(MailDocument.decodeWords("=?ISO-8859-1?Q?caf=E9_au?= =?ISO-8859-1?Q?_lait?=") == "café au lait")
        #expect(MailDocument.decodeWords("=?UTF-8?B?U2VlZHMgb3JkZXJlZA==?=") == "Seeds ordered")
        #expect(MailDocument.decodeWords("plain =?broken") == "plain =?broken")
    }

    @Test func quotedPrintableAndBase64() {
        #expect(MailDocument.quotedPrintable(ArraySlice(Array("a soft=\nbreak and =3D sign =E9".utf8)), header: false)
            == Array("a softbreak and = sign ".utf8) + [0xE9])
        #expect(MailDocument.base64(ArraySlice(Array("aGVs\r\nbG8=".utf8))) == Array("hello".utf8))
    }

    @Test func plainTextOverHTMLAndUnreadableAttachmentsNamed() throws {
        let message = """
        From: a@example.org
        To: b@example.org
        Subject: Photos
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="outer"

        --outer
        Content-Type: multipart/alternative; boundary="inner"

        --inner
        Content-Type: text/plain; charset=utf-8

        The photos from Sunday.
        --inner
        Content-Type: text/html; charset=utf-8

        <p>The photos from <b>Sunday</b>.</p>
        --inner--
        --outer
        Content-Type: application/octet-stream; name="trip.bin"
        Content-Disposition: attachment; filename*=utf-8''Ausflug%20S%C3%BCd.bin
        Content-Transfer-Encoding: base64

        AAECAw==
        --outer--
        """
        let text = Self.text(try Self.layer(message))
        #expect(text.components(separatedBy: "The photos from").count == 2)
        #expect(text.contains("[Attachment Ausflug Süd.bin (application/octet-stream, 4 bytes) was not read.]"))
    }

    @Test func nestingIsBounded() throws {
        var message = "From: a@example.org\nTo: b@example.org\nContent-Type: multipart/mixed; boundary=\"b0\"\n\n"
        for depth in 0 ..< 200 {
            message += "--b\(depth)\nContent-Type: multipart/mixed; boundary=\"b\(depth + 1)\"\n\n"
        }
        message += "--b200\nContent-Type: text/plain\n\ntoo deep\n"
        let text = Self.text(try Self.layer(message))
        #expect(text.hasPrefix("From: a@example.org"))
        #expect(!text.contains("too deep"))
    }

    @Test func encryptedBodiesSaySo() throws {
        let message = """
        From: a@example.org
        To: b@example.org
        Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="x"

        --x
        Content-Type: application/pgp-encrypted

        Version: 1
        --x--
        """
        #expect(Self.text(try Self.layer(message)).contains("[This message is encrypted (application/pgp-encrypted) and was not read.]"))
    }

    @Test func recognisedByContent() {
        #expect(MailDocument.looksLikeMessage(Array("Received: from x\nFrom: a@b\nSubject: hi\n\nbody".utf8)))
        #expect(!MailDocument.looksLikeMessage(Array("Note: this is a note\nTodo: more\n".utf8)))
        #expect(MailDocument.looksLikeMbox(Array("From a@b Thu Jan  1 00:00:00 2026\nFrom: a@b\nDate: x\n\nhi".utf8)))
        #expect(!MailDocument.looksLikeMbox(Array("From the desk of the editor\nDear all,\n".utf8)))
    }

    @Test func attachedMessagesNestWithinTheBound() throws {
        // Each message carries the next as an attached .eml: read inline, to the depth bound.
        var message = "From: a@example.org\nTo: b@example.org\nSubject: 0\n\ninnermost\n"
        for depth in 1 ... 300 {
            message = "From: a@example.org\nTo: b@example.org\nSubject: \(depth)\nMIME-Version: 1.0\n"
                + "Content-Type: multipart/mixed; boundary=\"b\(depth)\"\n\n--b\(depth)\nContent-Type: text/plain\n\nlevel \(depth)\n"
                + "--b\(depth)\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"m\(depth).eml\"\n\n"
                + message + "\n--b\(depth)--\n"
        }
        let layer = try Self.layer(message)
        let text = Self.text(layer)
        #expect(text.contains("level 300"))
        #expect(!text.contains("innermost"))
        #expect(layer.attachments.isEmpty)
    }

    @Test func parameterValuesFollowRFC2231() {
        typealias M = MailDocument.Message
        #expect(M.parameterised("attachment; filename=\"a.pdf\"; filename*=UTF-8''a.pdf").parameters["filename"] == "a.pdf")
        #expect(M.parameterised("attachment; filename*0*=UTF-8''Stra%C3%9Fen; filename*1=plan.pdf").parameters["filename"] == "Straßenplan.pdf")
        #expect(M.parameterised("text/plain; charset=\"iso-8859-1\"; format=flowed").parameters == ["charset": "iso-8859-1", "format": "flowed"])
    }

    @Test func bodyWithoutItsBoundaryIsStillText() throws {
        let message = "From: a@example.org\nTo: b@example.org\nContent-Type: multipart/mixed; boundary=\"missing\"\n\nThe boundary never comes.\n"
        #expect(Self.text(try Self.layer(message)).contains("The boundary never comes."))
    }

    @Test func textAttachmentsInTheirCharset() throws {
        let message = "From: a@example.org\nTo: b@example.org\nContent-Type: multipart/mixed; boundary=\"x\"\n\n--x\n"
            + "Content-Type: text/plain; charset=iso-8859-1\nContent-Disposition: attachment; filename=\"notes.txt\"\n"
            + "Content-Transfer-Encoding: quoted-printable\n\nCaf=E9 at noon.\n--x--\n"
        let layer = try Self.layer(message)
        let attachment = try #require(layer.attachments.first)
        #expect(String(decoding: attachment.layer.bytes, as: UTF8.self).contains("Café at noon."))
    }
}
