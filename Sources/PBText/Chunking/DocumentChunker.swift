import Foundation
import PBCore

/// Turns one document into its chunk records: reads the text layer, chunks it, and gives every
/// chunk its identity (stable `doc_id` from library and path, `chunk_id` from `doc_id` and
/// sequence, hashes of content) and position (byte span, lines, pages).
public final class DocumentChunker {
    public let library: String
    let chunker: Chunker
    /// Seconds a helper program (pdftotext) may take over one document.
    let toolTimeout: Double
    /// Whether pages without a text layer are read by OCR, and where its results are kept.
    let ocr: OCRSettings
    /// Whether recordings are heard, and where their transcripts are kept.
    let audio: AudioSettings
    /// When a calendar's next occurrences are listed from (PB_NOW, else the clock).
    let now: Date

    public init(library: String, chunker: Chunker, toolTimeout: Double = PDFDocument.defaultTimeout, ocr: OCRSettings = OCRSettings(),
                audio: AudioSettings = .off, now: Date = Date()) {
        self.library = library
        self.chunker = chunker
        self.toolTimeout = toolTimeout
        self.ocr = ocr
        self.audio = audio
        self.now = now
    }

    /// Absolute, normalised path: the same file gets the same id whatever the working directory.
    public static func canonicalPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    public static func docID(library: String, path: String) -> String {
        String(SHA256.hex(library + "\u{0}" + path).prefix(16))
    }

    /// Chunks of a document given by path and/or inline text.
    public func chunk(path givenPath: String?, text: String?, title givenTitle: String?, format: String?) throws -> [ChunkRecord] {
        let path: String
        if let givenPath, !givenPath.isEmpty {
            path = text == nil ? Self.canonicalPath(givenPath) : givenPath
        } else if let text {
            path = "inline:" + String(SHA256.hex(text).prefix(16))
        } else {
            throw RecordError.missingField("path")
        }
        let (layer, source) = try DocumentReader.read(path: path, inlineText: text, declaredFormat: format, toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
        let title = givenTitle ?? layer.title.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultTitle(path)
        var out = records(layer: layer, source: source, path: path, title: title)
        // Nothing vanishes silently: a document that yields no chunk is an error naming why.
        if out.isEmpty {
            let reason = layer.emptyReason ?? (source.isEmpty ? "the file is empty" : "it holds no words")
            throw layer.unreadScans ? DocumentError.notRead(path: path, reason: reason) : DocumentError.empty(path: path, reason: reason)
        }
        // A mail's attachments follow it as documents of their own ("inbox.mbox#3/quote.pdf").
        for attachment in layer.attachments {
            let title = attachment.layer.title.map { "\($0) (\(attachment.title))" } ?? attachment.title
            out += records(layer: attachment.layer, source: attachment.source, path: path + "#" + attachment.anchor, title: title)
        }
        return out
    }

    func records(layer: TextLayer, source: [UInt8], path: String, title: String) -> [ChunkRecord] {
        var hasher = SHA256()
        hasher.update(source)
        hasher.update("\u{0}\(chunker.limits.fingerprint)\u{0}\(title)\u{0}\(layer.format.rawValue)")
        // Which pages OCR read: a scan chunked with --no-ocr and again with OCR are different chunks.
        if !layer.ocrPages.isEmpty { hasher.update("\u{0}ocr \(layer.ocrPages.map(String.init).joined(separator: ","))") }
        // Which model heard a recording: new weights make a memo's text new.
        if layer.format == .audio, let transcriber = audio.transcriber { hasher.update("\u{0}audio \(transcriber.identity)") }
        // What the text lists as of the day it was read: a calendar is read again once its next
        // occurrences have changed, not every day, and not never.
        if let listed = layer.timeDependent { hasher.update("\u{0}listed \(listed)") }
        let docHash = hasher.finalize().map { String($0, radix: 16).leftPadded(2) }.joined()
        let docID = Self.docID(library: library, path: path)
        let planned = chunker.chunks(of: layer, title: title)
        let lines = LineIndex(layer.bytes)
        return planned.enumerated().map { seq, p in
            let text = String(decoding: layer.bytes[p.range], as: UTF8.self)
            let span = SourceSpan(
                chunkID: "\(docID)-\(seq)", docID: docID, path: path, title: title, section: p.section,
                start: p.range.lowerBound, end: p.range.upperBound,
                lineStart: lines.line(at: p.range.lowerBound), lineEnd: lines.line(at: max(p.range.lowerBound, p.range.upperBound - 1)),
                pageStart: p.pages?.lowerBound, pageEnd: p.pages?.upperBound)
            var record = ChunkRecord(
                library: library, span: span, format: layer.format.rawValue, seq: seq, docChunks: planned.count,
                text: text, prefix: p.prefix, words: p.words, tokens: p.tokens,
                hash: String(SHA256.hex(p.prefix + "\n" + text).prefix(16)), docHash: docHash)
            record.ocr = ocrQuality(layer, p.range)
            return record
        }
    }

    /// The OCR confidence of the words inside `range` (nil when OCR read none of them).
    func ocrQuality(_ layer: TextLayer, _ range: Range<Int>) -> OCRQuality? {
        guard !layer.ocr.isEmpty else { return nil }
        // Spans are in layer order: find the first inside the range by binary search.
        var lo = 0, hi = layer.ocr.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if layer.ocr[mid].range.lowerBound < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var sum = 0.0, n = 0
        var low: [String] = []
        for s in layer.ocr[lo...] {
            guard s.range.upperBound <= range.upperBound else { break }
            sum += s.confidence
            n += 1
            if s.confidence < ocr.lowConfidence { low.append(String(decoding: layer.bytes[s.range], as: UTF8.self)) }
        }
        guard n > 0 else { return nil }
        return OCRQuality(confidence: (sum / Double(n) * 10).rounded() / 10, words: n, low: low)
    }

    /// "meeting-notes.md" -> "meeting-notes": the file name says what the document is.
    static func defaultTitle(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        let base = (name as NSString).deletingPathExtension
        return base.isEmpty ? name : base
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
