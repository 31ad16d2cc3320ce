import Foundation

/// Whether and how pages without a text layer are read by OCR (tesseract).
///
/// On by default: a scan that yields nothing is worse than one that takes two seconds a page.
/// `--no-ocr` turns it off, and then such a page is named in a warning (or, when nothing else
/// in the document has text, the document is an error), never dropped without a word.
public struct OCRSettings: Sendable, Equatable {
    public var enabled: Bool
    /// Where tesseract's output is kept by content hash, so a re-ingest does no OCR twice
    /// (nil: no cache).
    public var cacheDirectory: URL?
    /// How long tesseract may take over one page before it is stopped.
    public var timeout: Double
    /// Resolution a PDF page is rendered at for OCR; tesseract reads best at about 300 dpi.
    public var resolution: Int
    /// tesseract's language (its traineddata name).
    public var language: String
    /// A word read below this confidence (tesseract's 0-100) is marked in the chunk record.
    public var lowConfidence: Double
    /// Pages of one PDF that OCR reads; the rest are named in a warning (`--ocr-pages`).
    public var maximumPages: Int
    /// At 2.5 s a page here, 800 pages take about half an hour: a 10,000-page scan is read that
    /// far, with a warning naming the pages left, rather than for seven hours. Memory stays that
    /// of one page whatever the count, as pages are rendered and read one at a time.
    public static let defaultMaximumPages = 800

    public static let defaultTimeout: Double = 120

    public init(enabled: Bool = true, cacheDirectory: URL? = nil, timeout: Double = defaultTimeout,
                resolution: Int = 300, language: String = "eng", lowConfidence: Double = 60, maximumPages: Int = defaultMaximumPages) {
        self.enabled = enabled
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
        self.resolution = resolution
        self.language = language
        self.lowConfidence = lowConfidence
        self.maximumPages = maximumPages
    }

    public static let off = OCRSettings(enabled: false)
}
