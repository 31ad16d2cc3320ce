import Foundation
import Testing
@testable import PBText

@Suite struct OCRDocumentTests {
    static let scans = DocumentFixtures.directory.deletingLastPathComponent().appendingPathComponent("scans")
    static let tesseractInstalled = OCRDocument.version != nil
    static let popplerInstalled = PDFDocument.executable(named: "pdftoppm") != nil

    static func word(_ text: String, line: Int, left: Int, width: Int, block: Int = 1, height: Int = 20, conf: Double = 95) -> OCRWord {
        OCRWord(text: text, block: block, paragraph: 1, line: line, left: left, top: line * 40, width: width, height: height, confidence: conf)
    }

    @Test func tsvKeepsLevelFiveWordsWithText() {
        let tsv = """
        level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
        1\t1\t0\t0\t0\t0\t0\t0\t1240\t1755\t-1\t
        4\t1\t1\t1\t1\t0\t508\t161\t185\t14\t-1\t
        5\t1\t1\t1\t1\t1\t508\t161\t89\t14\t96.692963\tCORNER
        5\t1\t3\t1\t1\t1\t406\t476\t388\t7\t95.000000\t 
        5\t1\t1\t1\t1\t2\t603\t161\t90\t14\t41.5\tGROCER
        """
        let words = OCRWord.parse(tsv: Array(tsv.utf8))
        #expect(words.map(\.text) == ["CORNER", "GROCER"])
        #expect(words[0] == OCRWord(text: "CORNER", block: 1, paragraph: 1, line: 1, left: 508, top: 161, width: 89, height: 14, confidence: 96.692963))
        #expect(words[1].confidence == 41.5)
    }

    @Test func columnsOfConsecutiveLinesAreTableRows() {
        // Two lines whose price stands far right of the item (gap 3x the height), then prose
        // whose word spaces are under half the height.
        let words = [
            Self.word("Cheddar", line: 1, left: 400, width: 100), Self.word("400g", line: 1, left: 508, width: 50),
            Self.word("4.10", line: 1, left: 740, width: 50),
            Self.word("TOTAL", line: 2, left: 400, width: 90), Self.word("13.98", line: 2, left: 730, width: 60),
            Self.word("Thank", line: 3, left: 400, width: 70, block: 2), Self.word("you", line: 3, left: 478, width: 40, block: 2),
        ]
        var page = OCRPageLayout()
        page.append(words, page: 3)
        let layer = TextLayer(bytes: page.bytes, format: .image, blocks: page.blocks)
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["Cheddar 400g | 4.10\nTOTAL | 13.98", "Thank you"])
        #expect(layer.blocks.map(\.kind) == [.table, .paragraph])
        #expect(layer.blocks[0].parts.map { DocumentFixtures.text(layer, $0) } == ["Cheddar 400g | 4.10", "TOTAL | 13.98"])
        #expect(layer.blocks.map(\.page) == [3, 3])
        #expect(page.spans.map { DocumentFixtures.text(layer, $0.range) } == words.map(\.text))
    }

    @Test func oneLineWithAGapIsNotATable() {
        let words = [Self.word("Invoice", line: 1, left: 100, width: 100), Self.word("2024-03-14", line: 1, left: 600, width: 150),
                     Self.word("Dear", line: 2, left: 100, width: 60), Self.word("Sam,", line: 2, left: 168, width: 60)]
        var page = OCRPageLayout()
        page.append(words, page: 1)
        let layer = TextLayer(bytes: page.bytes, format: .image, blocks: page.blocks)
        #expect(DocumentFixtures.texts(layer) == ["Invoice 2024-03-14\nDear Sam,"])
        #expect(layer.blocks.map(\.kind) == [.paragraph])
    }

    @Test func pagesAreListedAsRuns() {
        #expect(PDFDocument.pageList([1]) == "page 2")
        #expect(PDFDocument.pageList([0, 1, 2, 6]) == "pages 1-3 and 7")
        #expect(PDFDocument.pageList([0, 2, 4]) == "pages 1, 3 and 5")
    }

    @Test func imagesAreKnownByExtensionAndContent() throws {
        #expect(try DocumentReader.format(path: "receipt.JPG", bytes: []) == .image)
        #expect(try DocumentReader.format(path: "scan", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .image)
        #expect(try DocumentReader.format(path: "photo", bytes: [0xFF, 0xD8, 0xFF, 0xE0]) == .image)
    }

    @Test func anImageWithOCROffSaysWhyItHasNoText() throws {
        let (layer, _) = try DocumentReader.read(path: Self.scans.appendingPathComponent("receipt.png").path, ocr: .off)
        #expect(layer.blocks.isEmpty)
        #expect(layer.emptyReason == "an image has no text layer, and OCR is off (--no-ocr)")
    }

    @Test(.enabled(if: tesseractInstalled, "needs tesseract (tesseract-ocr)"))
    func receiptPhotoIsReadWithItsRows() throws {
        let (layer, _) = try DocumentReader.read(path: Self.scans.appendingPathComponent("receipt.png").path, ocr: OCRSettings())
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.format == .image && layer.ocrPages == [1])
        let table = try #require(layer.blocks.first { $0.kind == .table })
        let rows = table.parts.map { DocumentFixtures.text(layer, $0) }
        #expect(rows.contains("Cheddar 400g | 4.10"))
        #expect(rows.contains("TOTAL | 13.98"))
        #expect(layer.ocr.count >= 30 && layer.ocr.allSatisfy { $0.confidence > 0 && $0.confidence <= 100 })
    }

    @Test(.enabled(if: tesseractInstalled && popplerInstalled, "needs tesseract and poppler-utils"))
    func mixedPDFReadsOnlyItsScannedPageByOCRAndCachesIt() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let path = Self.scans.appendingPathComponent("mixed-manual.pdf").path
        let settings = OCRSettings(cacheDirectory: cache)
        let (layer, _) = try DocumentReader.read(path: path, ocr: settings)
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.ocrPages == [2])
        #expect(Set(layer.blocks.compactMap(\.page)) == [1, 2])
        let page2 = layer.blocks.filter { $0.page == 2 }.map { DocumentFixtures.text(layer, $0.range) }.joined(separator: "\n")
        #expect(page2.contains("E27"))
        let first = try #require(layer.ocr.first?.range.lowerBound)
        #expect(layer.blocks.filter { $0.page == 1 }.allSatisfy { $0.range.upperBound <= first })
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".tsv") }
        #expect(entries.count == 1)
        // The cached page gives the same layer.
        let (again, _) = try DocumentReader.read(path: path, ocr: settings)
        #expect(again.bytes == layer.bytes && again.blocks == layer.blocks)
    }
}
