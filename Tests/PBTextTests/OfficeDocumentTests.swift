import Foundation
import Testing
@testable import PBText

/// The office readers on files LibreOffice wrote (Tests/Fixtures/office/make.sh), and their
/// bounds on hostile input.
@Suite struct OfficeDocumentTests {
    static let office = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/office")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: office.appendingPathComponent(name)))
    }

    static func text(_ layer: TextLayer) -> String {
        String(decoding: layer.bytes, as: UTF8.self)
    }

    @Test func workbookAndSpreadsheetGiveTheSameSheets() throws {
        let xlsx = try XLSXDocument.textLayer(try Self.bytes("budget.xlsx"), path: "budget.xlsx")
        let ods = try OpenDocument.textLayer(try Self.bytes("budget.ods"), path: "budget.ods", format: .ods)
        #expect(Self.text(xlsx) == Self.text(ods))
        #expect(xlsx.title == "Household budget 2026")
        let text = Self.text(xlsx)
        // Row numbers lead, blank rows keep the numbering (the total is row 9), dates are ISO.
        #expect(text.contains("3 | Electricity | Utilities | 86.4 | 2026-12-15"))
        #expect(text.contains("9 | Total |  | 1760.89"))
        #expect(text.contains("5 | Groceries | Food | 420\n"))
        let headings = xlsx.blocks.compactMap { block -> String? in
            guard case .heading = block.kind else { return nil }
            return String(decoding: xlsx.bytes[block.range], as: UTF8.self)
        }
        #expect(headings == ["Sheet: Monthly", "Sheet: Savings"])
        let tables = xlsx.blocks.filter { $0.kind == .table }
        #expect(tables.count == 2)
        #expect(tables[0].header.map { String(decoding: xlsx.bytes[$0], as: UTF8.self) } == "1 | Item | Category | Amount | Due")
    }

    @Test func serialNumbersAreDates() {
        typealias X = XLSXDocument
        #expect(X.date(serial: 1, kind: .date, date1904: false) == "1900-01-01")
        #expect(X.date(serial: 59, kind: .date, date1904: false) == "1900-02-28")
        // Lotus 1-2-3's leap day, kept by Excel; the next day is 1 March.
        #expect(X.date(serial: 60, kind: .date, date1904: false) == "1900-02-29")
        #expect(X.date(serial: 61, kind: .date, date1904: false) == "1900-03-01")
        #expect(X.date(serial: 46357, kind: .date, date1904: false) == "2026-12-01")
        #expect(X.date(serial: 46357.75, kind: .dateTime, date1904: false) == "2026-12-01 18:00")
        #expect(X.date(serial: 0.5, kind: .time, date1904: false) == "12:00")
        #expect(X.date(serial: 0, kind: .date, date1904: true) == "1904-01-01")
        #expect(X.date(serial: 44895, kind: .date, date1904: true) == "2026-12-01")
        #expect(X.date(serial: -1, kind: .date, date1904: false) == nil)
        #expect(X.date(serial: .infinity, kind: .date, date1904: false) == nil)
    }

    @Test func dateFormatsAreToldFromNumberFormats() {
        typealias K = XLSXDocument.DateStyles
        #expect(K.kind(ofFormat: "yyyy-mm-dd") == .date)
        #expect(K.kind(ofFormat: "[$-409]h:mm AM/PM") == .time)
        #expect(K.kind(ofFormat: "dd/mm/yyyy hh:mm") == .dateTime)
        #expect(K.kind(ofFormat: "#,##0.00 [$€-407]") == nil)
        #expect(K.kind(ofFormat: "0 \"days\"") == nil)
        #expect(K.kind(ofFormat: "[Red]0.00") == nil)
        #expect(K.builtIn(14) == .date)
        #expect(K.builtIn(2) == nil)
    }

    @Test func numbersShowAsExcelShowsThem() {
        #expect(XLSXDocument.number("0.30000000000000004") == "0.3")
        #expect(XLSXDocument.number("1150") == "1150")
        #expect(XLSXDocument.number("39.99") == "39.99")
        #expect(XLSXDocument.number("1E-3") == "0.001")
        #expect(XLSXDocument.number("n/a") == "n/a")
    }

    @Test func cellReferences() {
        #expect(SheetTable.cellReference("B7")! == (7, 2))
        #expect(SheetTable.cellReference("AA10")! == (10, 27))
        #expect(SheetTable.cellReference("$C$3")! == (3, 3))
        #expect(SheetTable.cellReference("7B") == nil)
        #expect(SheetTable.cellReference("B") == nil)
        #expect(SheetTable.cellReference("ABCD1") == nil)
    }

    @Test func slidesAreSectionsWithTheirNotes() throws {
        let layer = try PPTXDocument.textLayer(try Self.bytes("deck.pptx"), path: "deck.pptx")
        let text = Self.text(layer)
        #expect(layer.title == "Garden club: spring plan")
        #expect(text.hasPrefix("Slide 1: Garden club: spring plan\n\nMembers' meeting, 14 January 2027\n\nNotes: Welcome everyone"))
        #expect(text.contains("Slide 3: Work days\n\n- Saturday 6 March: clear the beds and spread compost\n"))
        #expect(text.contains("Notes: If it rains on 6 March, the work day moves to 13 March."))
        // The slide-number placeholder of the notes page is not text.
        #expect(!text.contains("<number>"))
    }

    @Test func letterKeepsItsHeadingsListsAndTable() throws {
        let layer = try OpenDocument.textLayer(try Self.bytes("letter.odt"), path: "letter.odt", format: .odt)
        let text = Self.text(layer)
        #expect(layer.title == "Letter to the landlord about the boiler")
        #expect(text.contains("What I have done so far\n\n1. Reported the fault by phone on 2 November.\n2. Let the engineer in"))
        #expect(text.contains("Date | Event\n2 November | Boiler stopped heating water"))
        #expect(layer.blocks.contains { $0.kind == .heading(level: 1) })
        #expect(layer.blocks.contains { $0.kind == .table && $0.header != nil })
    }

    // MARK: - Hostile and locked input

    @Test func entityBombIsNotExpanded() {
        var xml = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for i in 1 ... 9 { xml += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1 == 0 ? "" : String(i - 1));", count: 10) + "\">" }
        xml += "]><office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        xml += "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text><text:p>&lol9;</text:p>"
        xml += "</office:text></office:body></office:document-content>"
        var reader = OpenDocument.TextReader()
        reader.read(Array(xml.utf8))
        #expect(reader.drafts == [.paragraph("&lol9;")])
    }

    @Test func repeatedRowsStopAtTheBound() {
        let xml = """
        <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
        xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">\
        <office:body><office:spreadsheet><table:table table:name="Big">\
        <table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384">\
        <text:p>x</text:p></table:table-cell></table:table-row>\
        <table:table-row table:number-rows-repeated="1000000000"><table:table-cell/></table:table-row>\
        </table:table></office:spreadsheet></office:body></office:document-content>
        """
        var reader = OpenDocument.SpreadsheetReader()
        reader.read(Array(xml.utf8))
        #expect(reader.sheets.count == 1)
        // 1,024 columns a row (the column bound), so the cell bound ends the sheet first.
        #expect(reader.sheets[0].rows[0].cells.count == SheetTable.maximumColumns)
        #expect(reader.sheets[0].rows.count == (SheetTable.maximumCells + SheetTable.maximumColumns - 1) / SheetTable.maximumColumns)
        #expect(reader.sheets[0].truncated)
    }

    @Test func oversizedAndLyingEntriesAreRefused() throws {
        let bytes = try DocumentFixtures.bytes("sample.docx")
        let archive = try ZipArchive(bytes)
        var entry = try #require(archive.entry(named: "word/document.xml"))
        let real = entry.uncompressedSize
        entry.uncompressedSize = ZipArchive.maximumEntrySize + 1
        #expect(throws: ZipArchive.Failure.unsupported("word/document.xml inflates to \(ZipArchive.maximumEntrySize + 1) bytes")) {
            try archive.contents(of: entry)
        }
        // An entry that inflates past what it declares is stopped at the declared size.
        entry.uncompressedSize = real / 2
        #expect(throws: ZipArchive.Failure.damaged("word/document.xml inflates past its declared \(real / 2) bytes")) {
            try archive.contents(of: entry)
        }
        entry.uncompressedSize = real
        entry.flags |= 1
        #expect(throws: ZipArchive.Failure.encrypted("word/document.xml")) { try archive.contents(of: entry) }
    }

    @Test func lockedFilesSayWhy() throws {
        #expect(throws: OfficePackage.encrypted("locked/letter.odt")) {
            try OpenDocument.textLayer(try Self.bytes("locked/letter.odt"), path: "locked/letter.odt", format: .odt)
        }
        let ole = OfficePackage.compoundFileMagic + [UInt8](repeating: 0, count: 504)
        do {
            _ = try XLSXDocument.textLayer(ole, path: "old.xlsx")
            Issue.record("an OLE file was read as a workbook")
        } catch let DocumentError.unsupported(path, reason) {
            #expect(path == "old.xlsx")
            #expect(reason.contains("password-protected"))
        }
        #expect(throws: DocumentError.self) { try DocumentReader.format(path: "old", bytes: ole) }
    }

    @Test func zipFilesAreToldApartByContent() throws {
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("budget.ods")) == .ods)
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("budget.xlsx")) == .xlsx)
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("deck.pptx")) == .pptx)
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("letter.odt")) == .odt)
        #expect(try DocumentReader.format(path: "a", bytes: try DocumentFixtures.bytes("sample.docx")) == .docx)
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("club.mbox")) == .mbox)
        #expect(try DocumentReader.format(path: "a", bytes: try Self.bytes("repair-quote.eml")) == .email)
    }

    @Test func hostileNumbersDoNotTrap() {
        // A row number past Int's range less one, then a row without one.
        var table = SheetTable(name: "x")
        let sheet = "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
            + "<row r=\"9223372036854775807\"><c t=\"inlineStr\"><is><t>a</t></is></c></row><row><c t=\"inlineStr\"><is><t>b</t>"
            + "<rPh><t>phonetic</t></rPh></is></c></row></sheetData></worksheet>"
        XLSXDocument.readSheet(Array(sheet.utf8), into: &table, strings: [], dates: .init(), date1904: false)
        #expect(table.rows.count == 2)
        #expect(!table.rows.contains { $0.cells.values.contains("phonetic") })
        #expect(PDFDocument.resolution(for: (1e-15, 1e-15), wanted: 300) == 300)
        // PNG and netpbm headers claiming sizes whose product passes Int's range.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 0, 0, 0, 0]
        #expect(throws: DocumentError.self) { try OCRDocument.textLayer(path: "x.png", bytes: png, settings: OCRSettings()) }
        let pnm = Array("P6 1099511627775 1099511627775 255\n".utf8)
        #expect(throws: DocumentError.self) { try OCRDocument.textLayer(path: "x.ppm", bytes: pnm, settings: OCRSettings()) }
    }

    @Test func repeatedRowsThatAddNothingEnd() {
        // Whitespace-only cells and cells past the column bound, repeated Int.max times.
        let xml = """
        <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
        xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">\
        <office:body><office:spreadsheet><table:table table:name="S">\
        <table:table-row table:number-rows-repeated="9223372036854775807"><table:table-cell><text:p> </text:p></table:table-cell></table:table-row>\
        <table:table-row table:number-rows-repeated="9223372036854775807"><table:table-cell table:number-columns-repeated="2000"/>\
        <table:table-cell><text:p>far</text:p></table:table-cell></table:table-row>\
        <table:table-row><table:table-cell><text:p>last</text:p></table:table-cell></table:table-row>\
        </table:table></office:spreadsheet></office:body></office:document-content>
        """
        var reader = OpenDocument.SpreadsheetReader()
        reader.read(Array(xml.utf8))
        #expect(reader.sheets[0].rows.count == 1)
        #expect(reader.sheets[0].rows[0].cells[1] == "last")
    }

    @Test func manySheetsShareOneBudget() {
        var xml = "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
            + "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\">"
            + "<office:body><office:spreadsheet>"
        for i in 0 ..< 40 {
            xml += "<table:table table:name=\"S\(i)\"><table:table-row table:number-rows-repeated=\"100000\">"
                + "<table:table-cell table:number-columns-repeated=\"1024\"><text:p>x</text:p></table:table-cell></table:table-row></table:table>"
        }
        xml += "</office:spreadsheet></office:body></office:document-content>"
        var reader = OpenDocument.SpreadsheetReader()
        reader.read(Array(xml.utf8))
        let cells = reader.sheets.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.cells.count } }
        #expect(cells <= SheetTable.maximumCells + SheetTable.maximumColumns)
    }
}
