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
    public static func textLayer(path: String, timeout: Double = defaultTimeout, titleTimeout: Double = defaultTitleTimeout,
                                 searchPath: String? = nil) throws -> TextLayer {
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
            let reason = message.map { "pdftotext failed: \($0)" } ?? "pdftotext exited with status \(result.status)"
            throw DocumentError.malformed(path: path, reason: reason)
        }
        let title = self.title(argument, path: path, timeout: min(timeout, titleTimeout), searchPath: searchPath)
        return layer(pdftotextOutput: result.stdout, title: title)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Builds the layer from pdftotext's output: pages split at form feeds, paragraphs at blank
    /// lines. Separate from running the tool so it can be tested on any bytes.
    public static func layer(pdftotextOutput output: [UInt8], title: String?) -> TextLayer {
        let text = String(validating: output, as: UTF8.self) != nil ? output : Array(String(decoding: output, as: UTF8.self).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count + 64)
        var blocks: [Block] = []
        let newline = UInt8(ascii: "\n")

        for (index, page) in text.split(separator: 0x0C, omittingEmptySubsequences: false).enumerated() {
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
        return TextLayer(bytes: bytes, format: .pdf, title: title, blocks: blocks)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
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
