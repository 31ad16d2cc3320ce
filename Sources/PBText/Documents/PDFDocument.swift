import Foundation
import PBCore

/// Reads a PDF's text layer through poppler's `pdftotext`, the one dependency outside Swift that
/// the document formats need: PDF text extraction (fonts, encodings, content streams) is a project
/// of its own, and poppler does it well.
///
/// The layer is pdftotext's output byte for byte, except that each form feed (its page separator)
/// becomes a blank line, so chunks quote exactly what the tool printed and every block knows its page.
public enum PDFDocument {
    public static let missingToolMessage = "pdftotext not found: install poppler-utils (make deps)"

    /// How long pdftotext may take over one document unless `--tool-timeout` says otherwise: a
    /// 10,000-page PDF takes well under a minute on these machines, a hung tool forever.
    public static let defaultTimeout: Double = 120
    /// pdfinfo only reads the title; it gets at most this long, and the title is dropped if it hangs.
    public static let defaultTitleTimeout: Double = 10

    /// The text layer of the PDF at `path`. `searchPath` replaces PATH for finding poppler (tests).
    /// Pages with no text layer (a scan) are rendered by pdftoppm and read by OCR (`ocr`);
    /// `bytes`, the file's content when the caller has read it, keys the OCR cache, which knows
    /// the document as `owner` (a mail's attachment read from a temporary file), else `path`.
    public static func textLayer(path: String, bytes: [UInt8]? = nil, timeout: Double = defaultTimeout, titleTimeout: Double = defaultTitleTimeout,
                                 searchPath: String? = nil, ocr: OCRSettings = OCRSettings(), owner: String? = nil) throws -> TextLayer {
        guard let pdftotext = ExternalProgram.find("pdftotext", searchPath: searchPath) else {
            throw DocumentError.unavailable(path: path, reason: missingToolMessage)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw DocumentError.cannotOpen(path: path, reason: "no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw DocumentError.cannotOpen(path: path, reason: "permission denied")
        }
        // A path starting with "-" would be read as an option.
        let argument = path.hasPrefix("-") ? "./" + path : path
        let result: ExternalProgram.Output
        do {
            result = try ExternalProgram(executable: pdftotext, timeout: timeout).run(["-enc", "UTF-8", "-eol", "unix", argument, "-"])
        } catch {
            throw DocumentError.unavailable(path: path, reason: "cannot run pdftotext: \(error.localizedDescription)")
        }
        guard !result.timedOut else {
            throw DocumentError.timedOut(path: path, reason: "pdftotext did not finish in \(seconds(timeout)) and was stopped (a larger --tool-timeout gives it longer)")
        }
        guard result.status == 0 else {
            let message = String(decoding: result.stderr, as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) }
            if message?.localizedCaseInsensitiveContains("incorrect password") == true {
                throw DocumentError.unsupported(path: path, reason: "the PDF is password-protected; save a copy without the password "
                    + "(qpdf --decrypt --password=PASSWORD in.pdf out.pdf)")
            }
            let reason = message.map { "pdftotext failed: \($0)" } ?? "pdftotext exited with status \(result.status)"
            throw DocumentError.malformed(path: path, reason: reason)
        }
        // The same pages laid out (-layout), where tables keep their rows (LayoutTables).
        let laidOut = try? ExternalProgram(executable: pdftotext, timeout: timeout).run(["-layout", "-enc", "UTF-8", "-eol", "unix", argument, "-"])
        let text = merged(plain: result.stdout, layout: laidOut.flatMap { $0.status == 0 && !$0.timedOut ? $0.stdout : nil })
        let title = self.title(argument, path: path, timeout: min(timeout, titleTimeout), searchPath: searchPath)
        let pages = self.pages(result.stdout)
        let scans = pages.indices.filter { !pages[$0].contains(where: { !isBlank($0) }) }
        var read: [Int: [OCRWord]] = [:]
        var layer: TextLayer
        if !scans.isEmpty, OCRDocument.unavailable(ocr) == nil {
            let key = SHA256.hex(try bytes ?? DocumentReader.readRegularFile(path))
            let reading = Array(scans.prefix(ocr.maximumPages))
            if reading.count < scans.count {
                Diagnostics.shared.warning("\(path): \(pageList(Array(scans.dropFirst(reading.count)))) not read by OCR: OCR reads at most "
                    + "\(ocr.maximumPages == 1 ? "1 page" : "\(ocr.maximumPages) pages") of one document (--ocr-pages); split the PDF (pdfseparate) to read the rest")
            }
            let sizes = pageSizes(argument, last: (reading.last ?? 0) + 1, timeout: min(timeout, titleTimeout), searchPath: searchPath)
            let progress = Progress("pages read by OCR", total: reading.count)
            defer { progress.finish() }
            for i in reading {
                let dpi = resolution(for: sizes[i + 1], wanted: ocr.resolution)
                read[i + 1] = try OCRDocument.words(key: key + "\u{0}page \(i + 1)\u{0}\(dpi) dpi", path: path, owner: owner,
                                                    part: "page \(i + 1)", settings: ocr) {
                    try render(argument, page: i + 1, dpi: dpi, path: path, timeout: timeout, searchPath: searchPath, ocr: ocr)
                }
                progress.advance()
            }
            layer = self.layer(pdftotextOutput: text, title: title, ocr: read)
        } else {
            layer = self.layer(pdftotextOutput: text, title: title)
        }
        if !scans.isEmpty {
            let count = pages.count == 1 ? "its page" : scans.count == pages.count ? "any of its \(pages.count) pages" : nil
            if let why = OCRDocument.unavailable(ocr) {
                if layer.blocks.isEmpty {
                    layer.emptyReason = "no text layer on \(count ?? "its pages"), and \(why)"
                    layer.unreadScans = true
                } else {
                    Diagnostics.shared.warning("\(path): \(pageList(scans)) \(scans.count == 1 ? "has" : "have") no text layer and \(scans.count == 1 ? "was" : "were") not read: \(why)")
                }
            } else if layer.blocks.isEmpty {
                let readCount = min(scans.count, ocr.maximumPages)
                let on = readCount < scans.count ? "the \(readCount == 1 ? "page" : "\(readCount) pages") it read (--ocr-pages)"
                    : scans.count == 1 ? "it" : "them"
                layer.emptyReason = "no text layer on \(count ?? "its pages"), and OCR read nothing on \(on) (a blank or unreadable scan)"
                // Pages past --ocr-pages were never read: that is not a document known to be empty.
                layer.unreadScans = readCount < scans.count
            }
        } else if layer.blocks.isEmpty {
            layer.emptyReason = "pdftotext found no text in it"
        }
        return layer
    }

    /// The text of every page: where the laid-out page has a table (and is not prose in two
    /// columns), the laid-out page with its tables as rows (LayoutTables); otherwise the plain
    /// output with its column-wise tables put back into rows (ColumnTables). Pages stay ended by
    /// form feeds; a layout of a different page count is not used.
    static func merged(plain: [UInt8], layout: [UInt8]?) -> [UInt8] {
        let plainPages = plain.split(separator: 0x0C, omittingEmptySubsequences: false)
        let layoutPages = layout?.split(separator: 0x0C, omittingEmptySubsequences: false) ?? []
        var out: [UInt8] = []
        for (i, page) in plainPages.enumerated() {
            if i > 0 { out.append(0x0C) }
            if layoutPages.count == plainPages.count, !LayoutTables.isMultiColumnProse(layoutPages[i]),
               let rows = LayoutTables.render(layoutPages[i]) {
                out += rows
            } else {
                out += ColumnTables.rows(page)
            }
        }
        return out
    }

    /// pdftotext's pages: it ends every page with a form feed.
    static func pages(_ output: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts = output.split(separator: 0x0C, omittingEmptySubsequences: false)
        if parts.count > 1, parts.last!.allSatisfy(isBlank) { parts.removeLast() }
        return parts
    }

    /// "page 2", "pages 2 and 5", "pages 2-4 and 7".
    static func pageList(_ indices: [Int]) -> String {
        var runs: [String] = []
        var i = 0
        while i < indices.count {
            var j = i
            while j + 1 < indices.count, indices[j + 1] == indices[j] + 1 { j += 1 }
            runs.append(j == i ? "\(indices[i] + 1)" : "\(indices[i] + 1)-\(indices[j] + 1)")
            i = j + 1
        }
        let list = runs.count == 1 ? runs[0] : runs.dropLast().joined(separator: ", ") + " and " + runs.last!
        return (indices.count == 1 ? "page " : "pages ") + list
    }

    /// One page rendered in grey at the OCR resolution by pdftoppm, then read by tesseract.
    static func render(_ argument: String, page: Int, dpi: Int, path: String, timeout: Double, searchPath: String?, ocr: OCRSettings) throws -> [UInt8] {
        guard let pdftoppm = ExternalProgram.find("pdftoppm", searchPath: searchPath) else {
            throw DocumentError.unavailable(path: path, reason: "pdftoppm not found: install poppler-utils (make deps)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-ocr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("page")
        let result = try ExternalProgram(executable: pdftoppm, timeout: timeout)
            .run(["-f", "\(page)", "-l", "\(page)", "-r", "\(dpi)", "-gray", "-png", "-singlefile", argument, image.path])
        guard !result.timedOut else {
            throw DocumentError.timedOut(path: path, reason: "pdftoppm did not render page \(page) in \(seconds(timeout)) and was stopped")
        }
        guard result.status == 0 else {
            throw DocumentError.malformed(path: path, reason: "pdftoppm cannot render page \(page) (status \(result.status))")
        }
        return try OCRDocument.tesseract(image.path + ".png", path: path, settings: ocr)
    }

    /// The resolution a page is rendered at for OCR: the one asked for, lowered for a page so
    /// large that its picture would pass `ImageSize.maximumPixels` (a poster, a plan), so no page
    /// renders to gigabytes.
    static func resolution(for size: (width: Double, height: Double)?, wanted: Int) -> Int {
        guard let size, size.width > 0, size.height > 0 else { return wanted }
        let inches = size.width / 72 * size.height / 72
        let fit = (Double(ImageSize.maximumPixels) / inches).squareRoot()
        // Compared as a Double: a tiny page would give a resolution past Int's range.
        return fit >= Double(wanted) || !fit.isFinite ? wanted : max(1, Int(fit))
    }

    /// Page sizes in points from `pdfinfo -f 1 -l LAST` ("Page    2 size: 595.276 x 841.89 pts (A4)").
    static func pageSizes(_ argument: String, last: Int, timeout: Double, searchPath: String?) -> [Int: (width: Double, height: Double)] {
        guard let pdfinfo = ExternalProgram.find("pdfinfo", searchPath: searchPath),
              let result = try? ExternalProgram(executable: pdfinfo, timeout: timeout).run(["-f", "1", "-l", "\(last)", argument]),
              !result.timedOut, result.status == 0 else { return [:] }
        var sizes: [Int: (Double, Double)] = [:]
        for line in String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("Page ") {
            let words = line.split(separator: " ")
            guard words.count >= 6, words[2] == "size:", let page = Int(words[1]),
                  let width = Double(words[3]), words[4] == "x", let height = Double(words[5]) else { continue }
            sizes[page] = (width, height)
        }
        return sizes
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Builds the layer from pdftotext's output: pages split at form feeds, paragraphs at blank
    /// lines. Separate from running the tool so it can be tested on any bytes.
    /// Pages in `ocr` (1-based) are laid out from the words OCR read on them instead.
    public static func layer(pdftotextOutput output: [UInt8], title: String?, ocr: [Int: [OCRWord]] = [:]) -> TextLayer {
        let text = String(validating: output, as: UTF8.self) != nil ? output : Array(String(decoding: output, as: UTF8.self).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count + 64)
        var blocks: [Block] = []
        var spans: [TextLayer.OCRSpan] = []
        let newline = UInt8(ascii: "\n")

        for (index, page) in text.split(separator: 0x0C, omittingEmptySubsequences: false).enumerated() {
            if let words = ocr[index + 1], !words.isEmpty {
                var laid = OCRPageLayout()
                laid.append(words, page: index + 1)
                if !bytes.isEmpty {
                    let trailing = bytes.reversed().prefix { $0 == newline }.count
                    if trailing < 2 { bytes.append(contentsOf: repeatElement(newline, count: 2 - trailing)) }
                }
                let base = bytes.count
                bytes.append(contentsOf: laid.bytes)
                for var b in laid.blocks {
                    b.range = (b.range.lowerBound + base)..<(b.range.upperBound + base)
                    b.parts = b.parts.map { ($0.lowerBound + base)..<($0.upperBound + base) }
                    blocks.append(b)
                }
                spans += laid.spans.map { TextLayer.OCRSpan(range: ($0.range.lowerBound + base)..<($0.range.upperBound + base), confidence: $0.confidence) }
                continue
            }
            guard page.contains(where: { !isBlank($0) }) else { continue }
            if !bytes.isEmpty {
                let trailing = bytes.reversed().prefix { $0 == newline }.count
                if trailing < 2 { bytes.append(contentsOf: repeatElement(newline, count: 2 - trailing)) }
            }
            let base = bytes.count - page.startIndex
            bytes.append(contentsOf: page)

            var paragraphStart: Int?
            var paragraphEnd = 0
            var lineStart = page.startIndex
            while lineStart < page.endIndex {
                let lineEnd = page[lineStart...].firstIndex(of: newline) ?? page.endIndex
                let line = page[lineStart ..< lineEnd]
                if let first = line.firstIndex(where: { !isBlank($0) }) {
                    if paragraphStart == nil { paragraphStart = first }
                    paragraphEnd = line.lastIndex(where: { !isBlank($0) })! + 1
                } else if let start = paragraphStart {
                    blocks.append(Block(kind: .paragraph, range: (base + start) ..< (base + paragraphEnd), page: index + 1))
                    paragraphStart = nil
                }
                lineStart = lineEnd + 1
            }
            if let start = paragraphStart {
                blocks.append(Block(kind: .paragraph, range: (base + start) ..< (base + paragraphEnd), page: index + 1))
            }
        }
        var layer = TextLayer(bytes: bytes, format: .pdf, title: title, blocks: blocks)
        layer.ocr = spans
        layer.ocrPages = ocr.filter { !$0.value.isEmpty }.keys.sorted()
        return layer
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The document's Title from `pdfinfo`, when poppler's pdfinfo is there and the PDF has one;
    /// a missing title is not an error, so every failure here is just nil (a hang says so).
    private static func title(_ argument: String, path: String, timeout: Double, searchPath: String?) -> String? {
        guard let pdfinfo = ExternalProgram.find("pdfinfo", searchPath: searchPath),
              let result = try? ExternalProgram(executable: pdfinfo, timeout: timeout).run(["-enc", "UTF-8", argument]) else { return nil }
        if result.timedOut {
            Diagnostics.shared.warning("\(path): pdfinfo did not answer in \(seconds(timeout)) and was stopped; the title is left out")
            return nil
        }
        guard result.status == 0 else { return nil }
        for line in String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
        where line.hasPrefix("Title:") {
            let value = line.dropFirst("Title:".count).trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        return nil
    }

    static func executable(named name: String) -> URL? { ExternalProgram.find(name) }
}
