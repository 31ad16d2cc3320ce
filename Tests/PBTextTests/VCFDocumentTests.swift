import Foundation
import Testing
@testable import PBText

@Suite struct VCFDocumentTests {
    func text(_ vcf: String) throws -> String {
        String(decoding: try VCFDocument.textLayer(Array(vcf.utf8), path: "t.vcf").bytes, as: UTF8.self)
    }

    func crlf(_ lines: [String]) -> String { lines.joined(separator: "\r\n") + "\r\n" }

    @Test func aVCard3IsASectionOfDetailLines() throws {
        let vcf = crlf([
            "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//GNOME//Evolution 3.46//EN", "FN:Dave Wilson", "N:Wilson;Dave;;;", "NICKNAME:Davo",
            "TEL;TYPE=CELL:+44 7700 900321", "TEL;TYPE=WORK,VOICE:+44 1235 555 0100", "TEL;TYPE=HOME,FAX:+44 1235 555 0101",
            "EMAIL;TYPE=INTERNET,HOME:dave@example.org",
            "ADR;TYPE=HOME:;;4 Orchard Close;Abingdon;Oxfordshire;OX14 3AA;United Kingdom",
            "ORG:Wilson Joinery;Workshop", "TITLE:Joiner", "BDAY:1980-03-14",
            "NOTE:Plays five-a-side on Thursdays\\, mostly.\\nKeys are with him",
            "  until the 20th.",
            "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD",
            "END:VCARD",
        ])
        let layer = try VCFDocument.textLayer(Array(vcf.utf8), path: "dave.vcf")
        #expect(String(decoding: layer.bytes, as: UTF8.self) == """
            Dave Wilson

            Nickname: Davo
            Mobile: +44 7700 900321
            Phone (work): +44 1235 555 0100
            Fax (home): +44 1235 555 0101
            Email (home): dave@example.org
            Address (home): 4 Orchard Close, Abingdon, Oxfordshire, OX14 3AA, United Kingdom
            Organisation: Wilson Joinery, Workshop
            Title: Joiner
            Birthday: 14 March 1980

            Note: Plays five-a-side on Thursdays, mostly.
            Keys are with him until the 20th.
            """)
        #expect(layer.format == .contacts)
        #expect(layer.title == "Dave Wilson")
        #expect(layer.blocks.map(\.kind) == [.heading(level: 1), .list, .paragraph])
        #expect(layer.blocks[1].parts.count == 9)
    }

    @Test func aVCard4WithURIsQuotedTypesAndDatesWithoutAYear() throws {
        let t = try text(crlf([
            "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:9a7e3c10", "N:Patel;Meera;;Dr;",
            "TEL;VALUE=uri;TYPE=\"cell,work\";PREF=1:tel:+44-7700-900789", "TEL;VALUE=uri;TYPE=\"work,voice\":tel:+44-1235-555-0199",
            "EMAIL;TYPE=work:reception@smile.example", "BDAY:--0722", "ANNIVERSARY:20090815",
            "RELATED;TYPE=colleague;VALUE=text:Ana Costa", "URL:https://smile.example/team", "END:VCARD",
        ]))
        #expect(t == """
            Dr Meera Patel

            Mobile (work): +44-7700-900789
            Phone (work): +44-1235-555-0199
            Email (work): reception@smile.example
            Birthday: 22 July
            Anniversary: 15 August 2009
            Website: https://smile.example/team
            Related (colleague): Ana Costa
            """)
    }

    @Test func aVCard21WithBareTypesQuotedPrintableAndCharsets() throws {
        let t = try text(crlf([
            "BEGIN:VCARD", "VERSION:2.1",
            "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=85str=C3=B6m;Bj=C3=B6rn;;;",
            "TEL;CELL;PREF:+46 70 123 45 67", "TEL;HOME;VOICE:+46 8 555 123",
            "NOTE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Caf=E9 owner. Has a spare key to the =",
            "garage.",
            "END:VCARD",
        ]))
        #expect(t == "Björn Åström\n\nMobile: +46 70 123 45 67\nPhone (home): +46 8 555 123\n\nNote: Café owner. Has a spare key to the garage.")
    }

    @Test func appleLabelsNameGroupedDetails() throws {
        let t = try text(crlf([
            "BEGIN:VCARD", "VERSION:3.0", "FN:John Smith",
            "item1.EMAIL;TYPE=INTERNET:john.smith@exam", " ple.com", "item1.X-ABLabel:Work",
            "item2.TEL:+1 555 0100", "item2.X-ABLabel:_$!<Mobile>!$_",
            "item3.TEL:01865 555 0142", "item3.X-ABLabel:Allotment shed", "END:VCARD",
        ]))
        #expect(t == "John Smith\n\nMobile: +1 555 0100\nPhone (Allotment shed): 01865 555 0142\nEmail (Work): john.smith@example.com")
    }

    @Test func manyCardsAreOneDocumentWithASectionEach() throws {
        let cards = (1...300).map { crlf(["BEGIN:VCARD", "VERSION:3.0", "FN:Person \($0)", "TEL:+44 7700 9\(String(format: "%05d", $0))", "END:VCARD"]) }
        let layer = try VCFDocument.textLayer(Array(cards.joined().utf8), path: "all.vcf")
        #expect(layer.blocks.filter { $0.kind == .heading(level: 1) }.count == 300)
        #expect(layer.title == nil)
        // A card with nothing but a name still has a line to find it by; no name at all is named so.
        #expect(try text(crlf(["BEGIN:VCARD", "FN:Ann Lee", "END:VCARD"])) == "Ann Lee\n\nName: Ann Lee")
        #expect(try text(crlf(["BEGIN:VCARD", "EMAIL:x@example.org", "END:VCARD"])) == "x@example.org\n\nEmail: x@example.org")
    }

    @Test func anAgentCardInsideACardIsNotItsOwnDetails() throws {
        let t = try text(crlf(["BEGIN:VCARD", "VERSION:2.1", "FN:Boss", "AGENT:", "BEGIN:VCARD", "FN:Assistant", "TEL:123", "END:VCARD",
                               "TEL;WORK:456", "END:VCARD"]))
        #expect(t == "Boss\n\nPhone (work): 456")
    }

    @Test func badFilesAreRefusedOrReadAsFarAsTheyGo() throws {
        #expect(throws: DocumentError.malformed(path: "t.vcf", reason: "no BEGIN:VCARD line: not a vCard file")) {
            try VCFDocument.textLayer(Array("Dave: 07700 900321\n".utf8), path: "t.vcf")
        }
        #expect(throws: DocumentError.self) { try VCFDocument.textLayer([0, 1, 2, 3, 0xFF, 0xFE, 0x00, 0x80], path: "t.vcf") }
        #expect(try text("BEGIN:VCARD\nFN:Cut Off\nTEL;TYPE=cell:0770") == "Cut Off\n\nMobile: 0770")
        // Empty parameters, a lone backslash, a group with no name, a 10 MB photo.
        let odd = crlf(["BEGIN:VCARD", "FN:Odd \\", "TEL;;=;TYPE=:123", "item1.:x", ";:y", "PHOTO:" + String(repeating: "A", count: 10_000_000), "END:VCARD"])
        #expect(try text(odd) == "Odd \\\n\nPhone: 123")
        let empty = try VCFDocument.textLayer(Array("BEGIN:VCARD\nEND:VCARD\n".utf8), path: "t.vcf")
        #expect(String(decoding: empty.bytes, as: UTF8.self) == "Unnamed contact\n\nName: Unnamed contact")
    }

    @Test func utf16FilesAsWindowsWritesThemAreRead() throws {
        let vcf = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Ng\r\nTEL;TYPE=CELL:07700 900555\r\nEND:VCARD\r\n"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in vcf.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(String(decoding: try VCFDocument.textLayer(bytes, path: "t.vcf").bytes, as: UTF8.self) == "Zoë Ng\n\nMobile: 07700 900555")
    }
}
