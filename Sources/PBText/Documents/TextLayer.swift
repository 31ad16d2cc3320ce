import Foundation

/// The text a document's chunks point into, with its block structure.
///
/// For plain text, Markdown and CSV the layer is the file's own bytes, so chunk offsets are file
/// offsets. For HTML, PDF, DOCX, calendars and contacts it is the extracted text (`pb-chunk --text-layer FILE` prints
/// it), because their raw bytes are markup, not prose a citation can quote.
public struct TextLayer: Sendable {
    /// UTF-8 bytes of the layer; every `Block` range indexes into these.
    public var bytes: [UInt8]
    public var format: DocumentFormat
    /// A title found in the document itself (Markdown H1, HTML <title>, DOCX core title, PDF info).
    public var title: String?
    public var blocks: [Block]
    /// The words read by OCR: where each sits in `bytes` and tesseract's confidence in it.
    public var ocr: [OCRSpan] = []
    /// The pages (1-based) whose text OCR read.
    public var ocrPages: [Int] = []
    /// Why nothing was read, when the layer has no text: the reader says what it saw ("a PDF of
    /// 2 pages with no text layer, and OCR is off"), so no document yields nothing in silence.
    public var emptyReason: String?
    /// The text is there but was not read (scans with OCR off or unavailable): a document without
    /// text for this reason is a failure, not an empty document.
    public var unreadScans = false
    /// What in the text depends on the day it was read (the next occurrences listed for a
    /// calendar's repeating events), nil when nothing does. Part of the document's hash, so that
    /// an ingest on a later day reads the document again once what it lists has changed.
    public var timeDependent: String?

    /// Documents carried inside this one (a mail's attachments), each chunked as a document of
    /// its own at this document's path followed by "#" and its anchor.
    public var attachments: [Attachment] = []

    public struct Attachment: Sendable {
        /// "quote.pdf", or "3/quote.pdf" for message 3 of a mailbox.
        public var anchor: String
        public var layer: TextLayer
        /// The attachment's own bytes (its doc_hash).
        public var source: [UInt8]
        /// "quote.pdf, attached to “Boiler repair in flat 3”".
        public var title: String
    }

    public struct OCRSpan: Sendable, Equatable {
        public var range: Range<Int>
        public var confidence: Double
    }

    public init(bytes: [UInt8], format: DocumentFormat, title: String? = nil, blocks: [Block] = []) {
        self.bytes = bytes
        self.format = format
        self.title = title
        self.blocks = blocks
    }
}

/// What a document is read as. The order is the one `pb-chunk --format` lists them in.
public enum DocumentFormat: String, Sendable, Codable, CaseIterable {
    case text, markdown, html, csv, pdf, docx, odt, ods, xlsx, pptx, email, mbox, calendar, contacts, image, audio

    /// "text, markdown, ... or image": the formats, for help and messages.
    public static var listed: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// One structural unit of a document, in reading order.
public struct Block: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A heading of level 1...6; its text (the range) becomes part of the section path.
        case heading(level: Int)
        /// Prose: split into sentences by the chunker.
        case paragraph
        /// A list: atomic; `parts` are the items (split between items only when too long).
        case list
        /// A table: atomic; `parts` are the data rows, `header` the header row if any.
        case table
        /// Preformatted text (code): atomic; `parts` are its lines.
        case code
    }

    public var kind: Kind
    /// Byte range of the whole block in `TextLayer.bytes` (trailing newline excluded).
    public var range: Range<Int>
    /// Sub-ranges an atomic block may be split at (list items, table rows, code lines).
    public var parts: [Range<Int>]
    /// The header row of a table; repeated in the prefix of every chunk that continues the table.
    public var header: Range<Int>?
    /// 1-based page number, for paginated formats (PDF).
    public var page: Int?

    public init(kind: Kind, range: Range<Int>, parts: [Range<Int>] = [], header: Range<Int>? = nil, page: Int? = nil) {
        self.kind = kind
        self.range = range
        self.parts = parts
        self.header = header
        self.page = page
    }
}

/// A domain error for reading documents; messages are lowercase and name what is wrong.
public enum DocumentError: Error, CustomStringConvertible, Equatable {
    /// The file does not exist or cannot be read.
    case cannotOpen(path: String, reason: String)
    /// The format is not one pb-chunk reads.
    case unsupported(path: String, reason: String)
    /// The bytes are not what the format requires.
    case malformed(path: String, reason: String)
    /// A helper program (pdftotext) is missing.
    case unavailable(path: String, reason: String)
    /// A helper program ran past its time limit and was stopped.
    case timedOut(path: String, reason: String)
    /// The document was read and holds no text (an empty file, a blank page or scan): nothing to
    /// index, which pb-chunk reports and skips.
    case empty(path: String, reason: String)
    /// The document's text could not be read here: scans or images with OCR off or tesseract
    /// missing. A failure of this document, unlike `empty`.
    case notRead(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open: \(reason)"
        case let .unsupported(path, reason): return "\(path): unsupported document: \(reason)"
        case let .malformed(path, reason): return "\(path): malformed document: \(reason)"
        case let .unavailable(path, reason): return "\(path): \(reason)"
        case let .timedOut(path, reason): return "\(path): \(reason)"
        case let .empty(path, reason), let .notRead(path, reason): return "\(path): no text read: \(reason)"
        }
    }
}
