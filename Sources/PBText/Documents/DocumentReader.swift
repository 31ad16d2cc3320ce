import Foundation
import PBCore

/// Reads a document from disk or from inline text into its text layer: the format is chosen by
/// extension, then by content; an unreadable or unsupported file is a clear error naming it.
public enum DocumentReader {
    static let extensions: [String: DocumentFormat] = [
        "txt": .text, "text": .text, "log": .text, "rst": .text, "org": .text,
        "md": .markdown, "markdown": .markdown, "mdown": .markdown, "mkd": .markdown,
        "html": .html, "htm": .html, "xhtml": .html,
        "csv": .csv, "pdf": .pdf, "docx": .docx,
    ]
    /// Formats people will try that pb-chunk does not read, with what to do instead.
    static let refused: [String: String] = [
        "doc": "legacy Word .doc is not supported; save it as .docx",
        "xls": "spreadsheets are not supported; export the sheet as CSV", "xlsx": "spreadsheets are not supported; export the sheet as CSV",
        "ppt": "presentations are not supported; export as PDF", "pptx": "presentations are not supported; export as PDF",
        "odt": "OpenDocument text is not supported; save it as .docx",
        "png": "images have no text layer", "jpg": "images have no text layer", "jpeg": "images have no text layer", "gif": "images have no text layer",
        "zip": "archives are not documents; unpack them first", "gz": "compressed files are not documents; decompress them first",
    ]

    public static func format(path: String, bytes: [UInt8], declared: String? = nil) throws -> DocumentFormat {
        if let declared {
            guard let f = DocumentFormat(rawValue: declared) else {
                throw DocumentError.unsupported(path: path, reason: "unknown format '\(declared)' (expected one of \(DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return f
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if let f = extensions[ext] { return f }
        if let why = refused[ext] { throw DocumentError.unsupported(path: path, reason: why) }
        return try sniff(path: path, bytes: bytes)
    }

    static func sniff(path: String, bytes: [UInt8]) throws -> DocumentFormat {
        if bytes.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .docx }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        let stripped = head.drop { $0.isWhitespace }
        if stripped.hasPrefix("<!doctype html") || stripped.hasPrefix("<html") { return .html }
        if bytes.prefix(8192).contains(0) {
            throw DocumentError.unsupported(path: path, reason: "binary file with no known text format")
        }
        return .text
    }

    /// The text layer of a document given by path (read from disk) or by inline text.
    public static func read(path: String, inlineText: String? = nil, declaredFormat: String? = nil) throws -> (TextLayer, [UInt8]) {
        let bytes: [UInt8]
        if let inlineText {
            bytes = Array(inlineText.utf8)
        } else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                throw DocumentError.unsupported(path: path, reason: "is a directory (pass its files, e.g. with find)")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
                throw DocumentError.cannotOpen(path: path, reason: reason)
            }
            bytes = [UInt8](data)
        }
        let format = try self.format(path: path, bytes: bytes, declared: declaredFormat ?? (inlineText != nil && extensions[(path as NSString).pathExtension.lowercased()] == nil ? "text" : nil))
        let layer: TextLayer
        switch format {
        case .text, .markdown, .csv:
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw DocumentError.malformed(path: path, reason: "not valid UTF-8 at byte \(firstInvalidUTF8(bytes)) (convert it with iconv)")
            }
            switch format {
            case .markdown: layer = MarkdownDocument.textLayer(bytes, path: path)
            case .csv: layer = try CSVDocument.textLayer(bytes, path: path)
            default: layer = MarkdownDocument.plainTextLayer(bytes, path: path)
            }
        case .html: layer = try HTMLDocument.textLayer(bytes, path: path)
        case .docx: layer = try DOCXDocument.textLayer(bytes, path: path)
        case .pdf:
            guard inlineText == nil else { throw DocumentError.unsupported(path: path, reason: "a PDF cannot be given as inline text") }
            layer = try PDFDocument.textLayer(path: path)
        }
        return (layer, bytes)
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var lo = 0, hi = bytes.count
        // Binary search for the longest valid prefix (valid prefixes are monotone up to a split sequence).
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if String(validating: bytes[0..<mid], as: UTF8.self) != nil || (mid < bytes.count && (bytes[mid] & 0xC0) == 0x80) { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

extension DocumentError: ExitStatusProviding {
    public var exitCode: ExitCode {
        switch self {
        case .cannotOpen: return .cannotOpen
        case .unsupported, .malformed: return .badInput
        case .unavailable: return .unavailable
        }
    }
}
