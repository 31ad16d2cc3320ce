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

    @Test func imageSizesFromHeaders() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/scans/receipt.png")))
        let size = try #require(ImageSize(png))
        #expect(size.width > 500 && size.height > 500)
        #expect(ImageSize(Array("GIF89a".utf8) + [0x10, 0x27, 0x20, 0x4E]) == ImageSize(width: 10000, height: 20000))
        #expect(ImageSize(Array("P5\n# made by hand\n640 480\n255\n".utf8)) == ImageSize(width: 640, height: 480))
        // JPEG: SOI, an APP0 segment of 16 bytes, then SOF0 with height 3000 and width 4000.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x0B, 0xB8, 0x0F, 0xA0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(ImageSize(jpeg) == ImageSize(width: 4000, height: 3000))
        // Little-endian TIFF with ImageWidth (256) and ImageLength (257) as SHORTs.
        let tiff: [UInt8] = Array("II*\u{0}".utf8) + [8, 0, 0, 0, 2, 0,
                                                      0, 1, 3, 0, 1, 0, 0, 0, 0x10, 0x27, 0, 0,
                                                      1, 1, 3, 0, 1, 0, 0, 0, 0x20, 0x4E, 0, 0]
        #expect(ImageSize(tiff) == ImageSize(width: 10000, height: 20000))
        #expect(ImageSize(Array("not an image".utf8)) == nil)
    }

    @Test func hugeImagesAreRefusedBeforeOCR() {
        // A PNG header claiming 10,000 x 10,000 pixels: refused from the header alone.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10, 8, 0, 0, 0, 0]
        do {
            _ = try OCRDocument.textLayer(path: "huge.png", bytes: png, settings: OCRSettings())
            Issue.record("a 100-megapixel image went to OCR")
        } catch let DocumentError.unsupported(path, reason) {
            #expect(path == "huge.png")
            #expect(reason.hasPrefix("the image is 10000×10000 pixels (100 megapixels), over the 64 megapixels OCR reads"))
        } catch {
            // Without tesseract the image is refused for that reason first; both are refusals.
            #expect(OCRDocument.unavailable(OCRSettings()) != nil)
        }
    }

    @Test func largePagesRenderAtAResolutionThatFits() {
        #expect(PDFDocument.resolution(for: (595, 842), wanted: 300) == 300)
        // 800 x 1200 inches: 8 dpi keeps the picture under 64 megapixels.
        #expect(PDFDocument.resolution(for: (57600, 86400), wanted: 300) == 8)
        #expect(PDFDocument.resolution(for: nil, wanted: 300) == 300)
        let dpi = PDFDocument.resolution(for: (2384, 3370), wanted: 300)  // A0
        #expect(Double(dpi) * 2384 / 72 * Double(dpi) * 3370 / 72 <= Double(ImageSize.maximumPixels))
    }

    /// Words of one tesseract line, laid left to right from `left`, each 100 px wide.
    static func line(_ texts: [String], block: Int, line: Int, left: Int, top: Int) -> [OCRWord] {
        texts.enumerated().map { i, t in
            OCRWord(text: t, block: block, paragraph: 1, line: line, left: left + i * 110, top: top, width: 100, height: 30, confidence: 95)
        }
    }

    @Test func tableColumnsTakenForBlocksAreRowsAgain() {
        // tesseract's order for a printed sheet: the first column as block 1, the second as block 2.
        var words: [OCRWord] = []
        for row in 0 ..< 4 {
            words += Self.line(["2024-0" + String(row + 1)], block: 1, line: row + 1, left: 100, top: 100 + row * 50)
        }
        for row in 0 ..< 4 {
            words += Self.line(["Rent", String(1150 + row)], block: 2, line: row + 1, left: 400, top: 102 + row * 50)
        }
        var layout = OCRPageLayout()
        layout.append(words, page: 1)
        #expect(String(decoding: layout.bytes, as: UTF8.self) == "2024-01 | Rent 1150\n2024-02 | Rent 1151\n2024-03 | Rent 1152\n2024-04 | Rent 1153")
        #expect(layout.blocks.map(\.kind) == [.table])
    }

    @Test func twoColumnsOfProseAreNotWoven() {
        let prose = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"]
        var words: [OCRWord] = []
        for block in 1 ... 2 {
            for row in 0 ..< 4 {
                words += Self.line(prose, block: block, line: row + 1, left: block == 1 ? 100 : 1200, top: 100 + row * 50)
            }
        }
        var layout = OCRPageLayout()
        layout.append(words, page: 1)
        let text = String(decoding: layout.bytes, as: UTF8.self)
        // Column one's four lines, then column two's: the reading order tesseract gave.
        #expect(text.components(separatedBy: "\n").first == prose.joined(separator: " "))
        #expect(!text.contains("|"))
    }
}
