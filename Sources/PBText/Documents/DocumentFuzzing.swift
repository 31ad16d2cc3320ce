/// Entry points for the fuzzer (PBFuzz) into readers that take one part of a document, so that
/// mutated input reaches the XML and TSV readers themselves instead of stopping at a ZIP
/// checksum or a missing file.
public enum DocumentFuzzing {
    /// One XML part through every part reader; the first byte picks the reader.
    public static func officePart(_ bytes: [UInt8]) {
        let xml = Array(bytes.dropFirst())
        switch (bytes.first ?? 0) % 6 {
        case 0:
            var reader = OpenDocument.TextReader()
            reader.listStyles.read(xml)
            reader.read(xml)
            _ = TextLayer(format: .odt, title: nil, markup: reader.drafts)
        case 1:
            var reader = OpenDocument.SpreadsheetReader()
            reader.read(xml)
            _ = TextLayer(format: .ods, title: nil, markup: reader.sheets.flatMap { $0.drafts(path: "fuzz.ods") })
        case 2:
            var table = SheetTable(name: "fuzz")
            XLSXDocument.readSheet(xml, into: &table, strings: XLSXDocument.sharedStrings(xml), dates: XLSXDocument.DateStyles(xml),
                                   date1904: XLSXDocument.Workbook(xml).date1904)
            _ = table.drafts(path: "fuzz.xlsx")
        case 3:
            var slide = PPTXDocument.SlideReader()
            slide.read(xml)
            _ = PPTXDocument.slideOrder(xml)
            _ = TextLayer(format: .pptx, title: slide.title, markup: slide.drafts)
        case 4:
            _ = OfficePackage.elementText("dc:title", in: xml)
        default:
            _ = HTMLDocument.markup(xml)
        }
    }

    /// tesseract TSV into the page layout (lines, paragraphs, columns as table rows).
    public static func ocrPage(_ bytes: [UInt8]) {
        var layout = OCRPageLayout()
        layout.append(OCRWord.parse(tsv: bytes), page: 1)
    }
}
