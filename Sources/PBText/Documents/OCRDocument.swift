import Foundation
import PBCore

/// Reads text from pictures of pages with tesseract (Debian's tesseract-ocr): images are
/// documents of one page, and PDF pages without a text layer are rendered by pdftoppm and read
/// the same way (PDFDocument). tesseract's TSV output keeps every word's box and confidence.
///
/// OCR is slow (one to two seconds a page here), so its output is kept by content hash: the
/// image's bytes (or the PDF's and the page's number), tesseract's version and the settings.
/// A re-ingest of an unchanged scan runs no OCR.
public enum OCRDocument {
    public static let missingToolMessage = "tesseract not found: install tesseract-ocr and tesseract-ocr-eng (make deps)"
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "gif", "pnm", "pbm", "pgm", "ppm"]

    /// The first line of `tesseract --version`, once per process (part of every cache key).
    static let version: String? = {
        guard let tesseract = ExternalProgram.find("tesseract"),
              let out = try? ExternalProgram(executable: tesseract, timeout: 30).run(["--version"]), out.status == 0 else { return nil }
        return String(decoding: out.stdout + out.stderr, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
    }()

    /// Why OCR cannot run (nil when it can): turned off, or tesseract missing.
    static func unavailable(_ settings: OCRSettings) -> String? {
        if !settings.enabled { return "OCR is off (--no-ocr)" }
        if version == nil { return missingToolMessage }
        return nil
    }

    /// The text layer of an image: one page, read by OCR. `owner` is the document it is (a
    /// mail's attachment read from a temporary file is "inbox.eml#scan.png"), as the cache
    /// knows it.
    static func textLayer(path: String, bytes: [UInt8], settings: OCRSettings, owner: String? = nil) throws -> TextLayer {
        var layer = TextLayer(bytes: [], format: .image)
        if let why = unavailable(settings) {
            layer.emptyReason = "an image has no text layer, and \(why)"
            layer.unreadScans = true
            return layer
        }
        if let size = ImageSize(bytes), size.megapixels * 1_000_000 > Double(ImageSize.maximumPixels) {
            throw DocumentError.unsupported(path: path, reason: "the image is \(size.width)×\(size.height) pixels "
                + "(\(Int(size.megapixels.rounded())) megapixels), over the \(ImageSize.maximumPixels / 1_000_000) megapixels OCR reads; "
                + "scale it down first (convert IN -resize 50% OUT)")
        }
        let key = SHA256.hex(bytes)
        let argument = path.hasPrefix("-") ? "./" + path : path
        let words = try self.words(key: key, path: path, owner: owner, settings: settings) { try tesseract(argument, path: path, settings: settings) }
        var page = OCRPageLayout()
        page.append(words, page: 1)
        layer.bytes = page.bytes
        layer.blocks = page.blocks
        layer.ocr = page.spans.map { TextLayer.OCRSpan(range: $0.range, confidence: $0.confidence) }
        layer.ocrPages = [1]
        if words.isEmpty { layer.emptyReason = "OCR read no text in the image (a blank or unreadable picture)" }
        return layer
    }

    /// The words of one page image, from the cache when `key` is there, else from `run`; the
    /// cache notes that page `part` of the document `owner` (else `path`) uses them.
    static func words(key: String, path: String, owner: String? = nil, part: String = "", settings: OCRSettings,
                      run: () throws -> [UInt8]) throws -> [OCRWord] {
        let fullKey = SHA256.hex([key, version ?? "", settings.language, "psm3", "tsv"].joined(separator: "\u{0}"))
        let cache = settings.cacheDirectory.map { ToolOutputCache(directory: $0, suffix: "tsv") }
        if let cache, let tsv = cache.read(fullKey, for: owner ?? path, part: part) { return OCRWord.parse(tsv: tsv) }
        let tsv = try run()
        // A cache that cannot be written costs the next run its time, never this run its text.
        do { try cache?.store(tsv, key: fullKey, for: owner ?? path, part: part) } catch {
            Diagnostics.shared.warning("\(path): cannot keep the OCR result in \(cache?.directory.path ?? ""): \(error.localizedDescription)")
        }
        return OCRWord.parse(tsv: tsv)
    }

    /// tesseract's TSV for one image file.
    static func tesseract(_ image: String, path: String, settings: OCRSettings) throws -> [UInt8] {
        guard let tesseract = ExternalProgram.find("tesseract") else { throw DocumentError.unavailable(path: path, reason: missingToolMessage) }
        let result: ExternalProgram.Output
        do {
            // One thread: tesseract's OpenMP threads spin against each other on two cores, and a
            // page took 13 s instead of 2.6 s here (AMD EPYC, 300 dpi A4 page).
            result = try ExternalProgram(executable: tesseract, timeout: settings.timeout, environment: ["OMP_THREAD_LIMIT": "1"])
                .run([image, "stdout", "-l", settings.language, "--psm", "3", "tsv"])
        } catch {
            throw DocumentError.unavailable(path: path, reason: "cannot run tesseract: \(error.localizedDescription)")
        }
        guard !result.timedOut else {
            throw DocumentError.timedOut(path: path, reason: "tesseract did not finish a page in \(PDFDocument.seconds(settings.timeout)) and was stopped (a larger --tool-timeout gives it longer)")
        }
        guard result.status == 0 else {
            let lines = String(decoding: result.stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("Estimating resolution") && !$0.hasPrefix("Warning") }
            let reason = lines.first.map { "tesseract cannot read it: \($0)" } ?? "tesseract exited with status \(result.status)"
            throw DocumentError.malformed(path: path, reason: reason)
        }
        return result.stdout
    }
}
