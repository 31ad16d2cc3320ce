import Foundation
import PBCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads a document from disk or from inline text into its text layer: the format is chosen by
/// extension, then by content; an unreadable or unsupported file is a clear error naming it.
public enum DocumentReader {
    static let extensions: [String: DocumentFormat] = [
        "txt": .text, "text": .text, "log": .text, "rst": .text, "org": .text,
        "md": .markdown, "markdown": .markdown, "mdown": .markdown, "mkd": .markdown,
        "html": .html, "htm": .html, "xhtml": .html,
        "csv": .csv, "pdf": .pdf, "docx": .docx, "docm": .docx, "odt": .odt, "ods": .ods,
        "xlsx": .xlsx, "xlsm": .xlsx, "pptx": .pptx, "pptm": .pptx,
        "eml": .email, "mbox": .mbox, "mbx": .mbox,
        "ics": .calendar, "ifb": .calendar, "vcf": .contacts, "vcard": .contacts,
    ].merging(OCRDocument.imageExtensions.map { ($0, .image) }) { a, _ in a }
        .merging(AudioDocument.extensions.map { ($0, .audio) }) { a, _ in a }
    /// Formats people will try that pb-chunk does not read, with what to do instead.
    static let refused: [String: String] = [
        "doc": "legacy Word .doc is not supported; save it as .docx or .odt",
        "xls": "legacy Excel .xls is not supported; save it as .xlsx or .ods",
        "ppt": "legacy PowerPoint .ppt is not supported; save it as .pptx",
        "odp": "OpenDocument presentations are not supported; save it as .pptx or export it as PDF",
        "msg": "Outlook .msg files are not supported; save the message as .eml",
        "zip": "archives are not documents; unpack them first", "gz": "compressed files are not documents; decompress them first",
    ].merging(AudioDocument.refused) { a, _ in a }

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
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return try package(path: path, bytes: bytes) }
        if bytes.starts(with: OfficePackage.compoundFileMagic) {
            throw DocumentError.unsupported(path: path, reason: "an OLE compound file: a legacy .doc/.xls/.ppt or a password-protected Office file; save a copy without a password as .docx, .xlsx or .pptx")
        }
        // Before mail: "BEGIN:VCALENDAR" and the lines after it look like header fields.
        if let f = calendarOrContacts(bytes) { return f }
        if MailDocument.looksLikeMbox(bytes) { return .mbox }
        if MailDocument.looksLikeMessage(bytes) { return .email }
        if isImage(bytes) { return .image }
        if AudioDocument.isAudio(bytes) { return .audio }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        let stripped = head.drop { $0.isWhitespace }
        if stripped.hasPrefix("<!doctype html") || stripped.hasPrefix("<html") { return .html }
        if bytes.prefix(8192).contains(0), TextEncoding.detect(bytes) == .utf8 {
            throw DocumentError.unsupported(path: path, reason: "binary file with no known text format")
        }
        return .text
    }

    /// A file that starts (after a byte-order mark and blank lines) with BEGIN:VCALENDAR or
    /// BEGIN:VCARD, as every iCalendar and vCard file does.
    static func calendarOrContacts(_ bytes: [UInt8]) -> DocumentFormat? {
        var head = bytes.prefix(64)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let text = String(decoding: head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }, as: UTF8.self).uppercased()
        if text.hasPrefix("BEGIN:VCALENDAR") { return .calendar }
        if text.hasPrefix("BEGIN:VCARD") { return .contacts }
        return nil
    }

    /// Which office format a ZIP file is: OpenDocument names its type in a first `mimetype`
    /// entry; Office Open XML by where its main part lives.
    static func package(path: String, bytes: [UInt8]) throws -> DocumentFormat {
        guard let archive = try? ZipArchive(bytes) else {
            throw DocumentError.unsupported(path: path, reason: "a ZIP file that is not an office document; unpack it first")
        }
        if let mimetype = try? archive.contents(named: "mimetype") {
            switch String(decoding: mimetype, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) {
            case "application/vnd.oasis.opendocument.text": return .odt
            case "application/vnd.oasis.opendocument.spreadsheet": return .ods
            default: break
            }
        }
        let names = archive.entries.map(\.name)
        if names.contains(where: { $0.hasPrefix("word/") }) { return .docx }
        if names.contains(where: { $0.hasPrefix("xl/") }) { return .xlsx }
        if names.contains(where: { $0.hasPrefix("ppt/") }) { return .pptx }
        throw DocumentError.unsupported(path: path, reason: "a ZIP file that is not an office document; unpack it first")
    }

    /// PNG, JPEG, TIFF, GIF, WebP and BMP by their first bytes: what tesseract reads.
    static func isImage(_ b: [UInt8]) -> Bool {
        b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) || b.starts(with: [0xFF, 0xD8, 0xFF])
            || b.starts(with: Array("II*\u{0}".utf8)) || b.starts(with: Array("MM\u{0}*".utf8))
            || b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8))
            || (b.count >= 12 && b.starts(with: Array("RIFF".utf8)) && b[8..<12].elementsEqual("WEBP".utf8))
            || b.starts(with: Array("BM".utf8)) && b.count > 26 && b[14] >= 12 && b[15] == 0
    }

    /// A document's bytes. Only a regular file (or a link to one) is read: a FIFO would block
    /// and a device never end. Each failure says what it is, from stat and open's own errno
    /// (a FIFO is not "permission denied", a symbolic-link loop not "no such file").
    static func readRegularFile(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DocumentError.cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw DocumentError.unsupported(path: path, reason: "is a directory (pass its files, e.g. with find)")
        case S_IFIFO: throw DocumentError.unsupported(path: path, reason: "is a FIFO, not a regular file")
        case S_IFSOCK: throw DocumentError.unsupported(path: path, reason: "is a socket, not a regular file")
        case S_IFCHR, S_IFBLK: throw DocumentError.unsupported(path: path, reason: "is a device, not a regular file")
        default: throw DocumentError.unsupported(path: path, reason: "is not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentError.cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        defer { close(fd) }
        var out: [UInt8] = []
        out.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { out.append(contentsOf: buffer[0..<n]); continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            throw DocumentError.cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        return out
    }

    /// The text layer of a document given by path (read from disk) or by inline text.
    /// `now` is the time a calendar's next occurrences are listed from.
    public static func read(path: String, inlineText: String? = nil, declaredFormat: String? = nil,
                            toolTimeout: Double = PDFDocument.defaultTimeout, ocr: OCRSettings = OCRSettings(),
                            audio: AudioSettings = .off, now: Date = Date()) throws -> (TextLayer, [UInt8]) {
        let bytes: [UInt8]
        if let inlineText {
            bytes = Array(inlineText.utf8)
        } else {
            bytes = try readRegularFile(path)
        }
        let format = try self.format(path: path, bytes: bytes, declared: declaredFormat ?? (inlineText != nil && extensions[(path as NSString).pathExtension.lowercased()] == nil ? "text" : nil))
        if inlineText != nil, [.pdf, .image, .audio].contains(format) {
            throw DocumentError.unsupported(path: path, reason: format == .pdf ? "a PDF cannot be given as inline text"
                                            : format == .image ? "an image cannot be given as inline text" : "a recording cannot be given as inline text")
        }
        let layer = try self.layer(bytes: bytes, path: path, format: format, toolTimeout: toolTimeout, ocr: ocr, audio: audio,
                                   isUnicode: inlineText != nil, now: now)
        return (layer, bytes)
    }

    /// The text layer of a document's bytes in a known format. A PDF, an image or a recording is
    /// read from `path` (the tools read files), so bytes that are not on disk there (a mail
    /// attachment) are written to a temporary file first.
    public static func layer(bytes: [UInt8], path: String, format: DocumentFormat, toolTimeout: Double = PDFDocument.defaultTimeout,
                      ocr: OCRSettings = OCRSettings(), audio: AudioSettings = .off, onDisk: Bool = true, isUnicode: Bool = false,
                      now: Date = Date()) throws -> TextLayer {
        switch format {
        case .text, .markdown, .csv:
            // Offsets index into the text as UTF-8: a UTF-16 or UTF-32 file is converted first
            // (inline text is already Unicode, whatever its NULs).
            let encoding: TextEncoding = isUnicode ? .utf8 : TextEncoding.detect(bytes)
            guard let bytes = encoding.utf8Bytes(bytes) else {
                if encoding == .utf8 {
                    throw DocumentError.malformed(path: path, reason: "not valid UTF-8 at byte \(firstInvalidUTF8(bytes)) (convert it with iconv)")
                }
                throw DocumentError.malformed(path: path, reason: "looks like \(encoding.name) but is not valid in it (convert it with iconv)")
            }
            switch format {
            case .markdown: return MarkdownDocument.textLayer(bytes, path: path)
            case .csv: return try CSVDocument.textLayer(bytes, path: path)
            default: return MarkdownDocument.plainTextLayer(bytes, path: path)
            }
        case .html: return try HTMLDocument.textLayer(bytes, path: path)
        case .docx: return try DOCXDocument.textLayer(bytes, path: path)
        case .odt, .ods: return try OpenDocument.textLayer(bytes, path: path, format: format)
        case .xlsx: return try XLSXDocument.textLayer(bytes, path: path)
        case .pptx: return try PPTXDocument.textLayer(bytes, path: path)
        case .email: return try MailDocument.textLayer(bytes, path: path, mailbox: false, toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
        case .mbox: return try MailDocument.textLayer(bytes, path: path, mailbox: true, toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
        case .calendar: return try ICSDocument.textLayer(bytes, path: path, now: now)
        case .contacts: return try VCFDocument.textLayer(bytes, path: path)
        case .image, .pdf, .audio:
            // pdftotext, pdftoppm, tesseract and sox read files.
            func read(_ file: String) throws -> TextLayer {
                // The caches know the document by its own path, not the temporary file's.
                switch format {
                case .pdf: return try PDFDocument.textLayer(path: file, bytes: bytes, timeout: toolTimeout, ocr: ocr, owner: path)
                case .audio: return try AudioDocument.textLayer(path: file, bytes: bytes, settings: audio, owner: path)
                default: return try OCRDocument.textLayer(path: file, bytes: bytes, settings: ocr, owner: path)
                }
            }
            if onDisk { return try read(path) }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-part-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // sox tells most formats by their content, but MP3 only by its name.
            let file = folder.appendingPathComponent(format == .audio ? "part." + (AudioDocument.soxType(firstBytes: Array(bytes.prefix(64))) ?? "wav") : "part").path
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            do {
                return try read(file)
            } catch let error as DocumentError {
                throw error.renamed(file, to: path)
            }
        }
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

extension DocumentError {
    /// The same error about another path (a temporary file stands for a part of a document).
    func renamed(_ from: String, to path: String) -> DocumentError {
        func fix(_ text: String) -> String { text.replacingOccurrences(of: from, with: path) }
        switch self {
        case let .cannotOpen(_, reason): return .cannotOpen(path: path, reason: fix(reason))
        case let .unsupported(_, reason): return .unsupported(path: path, reason: fix(reason))
        case let .malformed(_, reason): return .malformed(path: path, reason: fix(reason))
        case let .unavailable(_, reason): return .unavailable(path: path, reason: fix(reason))
        case let .timedOut(_, reason): return .timedOut(path: path, reason: fix(reason))
        case let .empty(_, reason): return .empty(path: path, reason: fix(reason))
        case let .notRead(_, reason): return .notRead(path: path, reason: fix(reason))
        }
    }
}

extension DocumentError {
    /// Read, and nothing in it to index.
    public var holdsNoText: Bool {
        if case .empty = self { return true }
        return false
    }
}

extension DocumentError: ExitStatusProviding {
    public var exitCode: ExitCode {
        switch self {
        case .cannotOpen: return .cannotOpen
        // A timed-out helper fails this document only, so --keep-going goes on to the next.
        case .unsupported, .malformed, .timedOut, .empty, .notRead: return .badInput
        case .unavailable: return .unavailable
        }
    }
}
