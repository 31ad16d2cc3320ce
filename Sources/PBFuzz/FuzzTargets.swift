import Foundation
import PBAgent
import PBCore
import PBMemory
import PBText
import PBDates

/// The parsers of untrusted input, each as a function of raw bytes, for libFuzzer (`make fuzz`)
/// and for replaying the crashes it found (`make test`). A target must never crash, hang or
/// grow without bound on any input; throwing a domain error is the right answer to junk.
enum FuzzTargets {
    static let names = ["ndjson", "html", "markdown", "csv", "docx", "office", "officexml", "mail", "ocrtsv", "pdftext", "wordpiece",
                        "chunk", "date", "intent", "memory", "vcard", "textfile", "ics", "vcf"]

    /// The model's vocabulary (PB_MODEL_DIR), loaded once, for the targets that tokenise.
    nonisolated(unsafe) static var tokenizer: WordPieceTokenizer? = {
        try? WordPieceTokenizer(vocabularyAt: PBEnvironment().modelDirectory.appendingPathComponent("vocab.txt"))
    }()
    nonisolated(unsafe) static var chunker: DocumentChunker? = {
        guard let tokenizer else { return nil }
        return (try? Chunker(tokens: tokenizer)).map { DocumentChunker(library: "fuzz", chunker: $0) }
    }()
    static let now = Date(timeIntervalSince1970: 1_764_662_400)  // 2025-12-02T08:00:00Z: fixed, so runs repeat
    static let dates = NaturalDateParser(now: now, timeZone: TimeZone(identifier: "UTC")!)
    static let planner = Planner(parser: dates)
    nonisolated(unsafe) static let extractor = try? ItemExtractor()
    static let turns = [SessionTurn(time: "2025-12-02T08:00:00Z", text: "add 2 tasks: a and b", subject: "task:2",
                                    items: ["task:1", "task:2"], focus: "task:2")]

    static func run(_ name: String, _ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch name {
        case "ndjson":
            _ = try? RecordCodec().decodeObject(Data(bytes))
            _ = try? RecordCodec().decode(QueryRecord.self, from: Data(bytes))
        case "html": _ = try? HTMLDocument.textLayer(bytes, path: "fuzz.html")
        case "markdown": _ = MarkdownDocument.textLayer(Array(text.utf8), path: "fuzz.md")
        case "csv": _ = try? CSVDocument.textLayer(Array(text.utf8), path: "fuzz.csv")
        // A plain-text file's raw bytes: the encoding told (UTF-8, UTF-16, UTF-32) and converted.
        case "textfile": _ = try? DocumentReader.layer(bytes: bytes, path: "fuzz.txt", format: .text)
        case "docx": _ = try? DOCXDocument.textLayer(bytes, path: "fuzz.docx")
        // Calendars and address books as documents: unfolding, parameters, dates, repeat rules
        // expanded from a fixed now.
        case "ics": _ = try? ICSDocument.textLayer(bytes, path: "fuzz.ics", now: now)
        case "vcf": _ = try? VCFDocument.textLayer(bytes, path: "fuzz.vcf")
        case "office":
            // A whole package; the first byte picks the reader, the rest is the file.
            let body = Array(bytes.dropFirst())
            switch (bytes.first ?? 0) % 4 {
            case 0: _ = try? OpenDocument.textLayer(body, path: "fuzz.odt", format: .odt)
            case 1: _ = try? OpenDocument.textLayer(body, path: "fuzz.ods", format: .ods)
            case 2: _ = try? XLSXDocument.textLayer(body, path: "fuzz.xlsx")
            default: _ = try? PPTXDocument.textLayer(body, path: "fuzz.pptx")
            }
        case "officexml":
            // One part's XML straight into each part reader, past the ZIP's checksums.
            DocumentFuzzing.officePart(bytes)
        case "mail":
            _ = try? MailDocument.textLayer(Array(bytes.dropFirst()), path: "fuzz.eml", mailbox: (bytes.first ?? 0) % 2 == 1, ocr: .off)
        case "ocrtsv":
            DocumentFuzzing.ocrPage(bytes)
        case "pdftext":
            // pdftotext's output as the plain and the laid-out reading (tables as rows).
            _ = PDFDocument.layer(pdftotextOutput: bytes, title: nil)
            _ = LayoutTables.render(bytes[...])
            _ = LayoutTables.isMultiColumnProse(bytes[...])
        case "wordpiece": _ = tokenizer?.encode(text, maxTokens: 512)
        case "chunk":
            // The first byte picks the format the text is read as.
            let formats = ["text", "markdown", "html", "csv"]
            let format = formats[Int(bytes.first ?? 0) % formats.count]
            _ = try? chunker?.chunk(path: "fuzz.\(format)", text: String(decoding: bytes.dropFirst(), as: UTF8.self), title: nil, format: format)
        case "date": _ = dates.matches(in: text)
        case "vcard":
            // The parser, then a lookup of a name taken from the input against what it read.
            let book = ContactBook(contacts: VCard.parse(text))
            _ = book.lookup(String(text.prefix(12)))
        case "intent": _ = planner.plan(text)
        case "memory":
            // A message's items (sentences, types, entities, referred times) and a follow-up's
            // resolution, over what a user says.
            _ = extractor?.items(of: text, said: now, zone: TimeZone(identifier: "UTC")!)
            _ = FollowUpResolver.resolve(text, after: turns)
            _ = FollowUpResolver.subject(of: text)
        default:
            FileHandle.standardError.write(Data("PBFuzz: unknown target '\(name)'; targets: \(names.joined(separator: " "))\n".utf8))
            exit(64)
        }
    }
}
