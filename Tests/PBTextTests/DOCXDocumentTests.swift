import Foundation
import Testing
@testable import PBText

@Suite struct DOCXDocumentTests {
    private func layer(_ name: String) throws -> TextLayer {
        try DOCXDocument.textLayer(try DocumentFixtures.bytes(name), path: name)
    }

    @Test func pythonDocxFixtureRendersEveryBlock() throws {
        let layer = try layer("sample.docx")
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.format == .docx)
        #expect(layer.title == "Quarterly Safety Checklist")
        #expect(DocumentFixtures.texts(layer) == [
            "Safety Checklist",
            "Fire exits",
            "Keep corridors clear & doors unlocked <always>.",
            "Extinguisher:\tchecked monthly\ntag signed by the warden",
            "- Exit signs lit\n- Fire doors close on their own\n- Assembly point marked",
            "Drill schedule",
            "1. Announce the drill\n2. Time the evacuation",
            "Floor | Warden | Drill date\nGround | A. Okafor | 12 March\nFirst | J. Lindqvist | 19 March",
            "End of checklist.",
        ])
        #expect(layer.blocks.map(\.kind) == [
            .heading(level: 1), .heading(level: 1), .paragraph, .paragraph, .list, .heading(level: 2), .list, .table, .paragraph,
        ])
    }

    @Test func listPartsAreTheItems() throws {
        let layer = try layer("sample.docx")
        let lists = layer.blocks.filter { $0.kind == .list }
        #expect(lists.map { $0.parts.map { DocumentFixtures.text(layer, $0) } } == [
            ["- Exit signs lit", "- Fire doors close on their own", "- Assembly point marked"],
            ["1. Announce the drill", "2. Time the evacuation"],
        ])
    }

    @Test func firstTableRowIsTheHeader() throws {
        let layer = try layer("sample.docx")
        let table = try #require(layer.blocks.first { $0.kind == .table })
        #expect(table.header.map { DocumentFixtures.text(layer, $0) } == "Floor | Warden | Drill date")
        #expect(table.parts.map { DocumentFixtures.text(layer, $0) } == ["Ground | A. Okafor | 12 March", "First | J. Lindqvist | 19 March"])
    }

    /// Stored entries, and no styles part: headings still come from the style ids.
    @Test func storedEntriesWithoutStylesStillRead() throws {
        let layer = try layer("sample-stored.docx")
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.title == "Quarterly Safety Checklist")
        let headings = layer.blocks.filter { if case .heading = $0.kind { true } else { false } }
        #expect(headings.map { DocumentFixtures.text(layer, $0.range) } == ["Safety Checklist", "Fire exits", "Drill schedule"])
        #expect(headings.map(\.kind) == [.heading(level: 1), .heading(level: 1), .heading(level: 2)])
        #expect(layer.blocks.contains { $0.kind == .table })
    }

    @Test func bundledTenancySample() throws {
        let url = DocumentFixtures.samples.appendingPathComponent("tenancy-agreement.docx")
        let layer = try DOCXDocument.textLayer([UInt8](try Data(contentsOf: url)), path: url.path)
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.title == "Assured Shorthold Tenancy Agreement: Flat 3, 41 Harrow Lane")
        let headings = layer.blocks.filter { $0.kind == .heading(level: 1) }.map { DocumentFixtures.text(layer, $0.range) }
        #expect(headings.count == 8)
        #expect(headings.contains("3. Rent and deposit"))
        let lists = layer.blocks.filter { $0.kind == .list }
        #expect(lists.map(\.parts.count) == [8, 5])
        #expect(lists.last.map { DocumentFixtures.text(layer, $0.parts[0]) }?.hasPrefix("1. to keep the structure") == true)
        let table = try #require(layer.blocks.first { $0.kind == .table })
        #expect(table.header.map { DocumentFixtures.text(layer, $0) } == "Payment | Amount | Due")
        #expect(table.parts.map { DocumentFixtures.text(layer, $0) }.contains("Tenancy deposit | \u{A3}1,325 | Before keys are released"))
    }

    @Test func notAZipIsMalformed() throws {
        #expect(throws: DocumentError.malformed(path: "sample.html", reason: "not a docx file: not a zip archive (no end of central directory record)")) {
            try DOCXDocument.textLayer(try DocumentFixtures.bytes("sample.html"), path: "sample.html")
        }
    }

    @Test func zipWithoutDocumentPartIsMalformed() throws {
        #expect(throws: DocumentError.malformed(path: "no-document.docx", reason: "no word/document.xml in the archive (not a docx file)")) {
            try layer("no-document.docx")
        }
    }

    @Test func damagedEntryFailsItsChecksum() throws {
        var bytes = try DocumentFixtures.bytes("sample-stored.docx")
        let archive = try ZipArchive(bytes)
        let entry = try #require(archive.entry(named: "word/document.xml"))
        // Flip a byte inside the stored document text (30-byte local header, then the name).
        let data = entry.localHeaderOffset + 30 + entry.name.utf8.count + 200
        bytes[data] ^= 0x20
        #expect(throws: ZipArchive.Failure.damaged("crc mismatch for word/document.xml")) {
            try ZipArchive(bytes).contents(of: entry)
        }
        #expect(throws: DocumentError.malformed(path: "x.docx", reason: "damaged zip archive: crc mismatch for word/document.xml")) {
            try DOCXDocument.textLayer(bytes, path: "x.docx")
        }
    }

    @Test func archiveListsEntriesAndInflatesThem() throws {
        let archive = try ZipArchive(try DocumentFixtures.bytes("sample.docx"))
        #expect(archive.entries.contains { $0.name == "word/styles.xml" && $0.method == 8 })
        let document = try #require(try archive.contents(named: "word/document.xml"))
        #expect(String(decoding: document, as: UTF8.self).contains("<w:t>Fire exits</w:t>"))
        #expect(try archive.contents(named: "missing.xml") == nil)
    }

    @Test func truncatedArchiveIsRejected() throws {
        let bytes = try DocumentFixtures.bytes("sample.docx")
        #expect(throws: DocumentError.self) {
            try DOCXDocument.textLayer(Array(bytes.prefix(bytes.count / 2)), path: "half.docx")
        }
    }

    /// Damage anywhere must end in a thrown DocumentError or a layer, never in a trap.
    @Test(arguments: ["sample.docx", "sample-stored.docx"])
    func corruptedArchivesFailCleanly(name: String) throws {
        let original = try DocumentFixtures.bytes(name)
        var generator = SystemRandomNumberGenerator()
        for round in 0 ..< 200 {
            var bytes = original
            if round % 3 == 0 {
                bytes.removeLast(Int.random(in: 1 ... bytes.count, using: &generator))
            } else {
                for _ in 0 ..< 1 + round % 8 {
                    bytes[Int.random(in: 0 ..< bytes.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
                }
            }
            do {
                DocumentFixtures.expectWellFormed(try DOCXDocument.textLayer(bytes, path: "bad.docx"))
            } catch {
                #expect(error is DocumentError)
            }
        }
    }

    @Test func xmlScannerHandlesEntitiesCdataAndPrefixes() {
        let xml = #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><doc xmlns:q="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><q:t a='1 &amp; 2'>x &lt; y &#233;&#x4E2D;</q:t><q:br/><![CDATA[<raw>]]><!-- c --></doc>"#
        var scanner = XMLScanner(Array(xml.utf8))
        var events: [XMLEvent] = []
        while let event = scanner.next() { events.append(event) }
        #expect(events == [
            .start(name: "doc", attributes: [:], selfClosing: false),
            .start(name: "w:t", attributes: ["a": "1 & 2"], selfClosing: false),
            .text("x < y \u{E9}\u{4E2D}"),
            .end(name: "w:t"),
            .start(name: "w:br", attributes: [:], selfClosing: true),
            .end(name: "w:br"),
            .text("<raw>"),
            .end(name: "doc"),
        ])
    }
}
