/// How sure OCR was of a chunk's words: present on chunks whose text OCR read (a scan, a photo).
///
/// `confidence` is the mean of tesseract's word confidences (0-100) over the chunk; `low` lists
/// the words read below the threshold (60), in order, so a reader can check them against the
/// page before trusting a figure read from a receipt.
public struct OCRQuality: Codable, Equatable, Sendable {
    public var confidence: Double
    public var words: Int
    public var low: [String]

    public init(confidence: Double, words: Int, low: [String]) {
        self.confidence = confidence
        self.words = words
        self.low = low
    }
}
