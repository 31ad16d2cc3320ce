import Foundation
import PBCore

/// Reads mail: one message (an .eml file, RFC 5322 with MIME) or a mailbox (mbox, as Thunderbird,
/// mutt and `formail` keep them), into a text layer.
///
/// Each message gives its header fields as lines ("From: ...", "To: ...", "Date: ...",
/// "Subject: ...", encoded words decoded), then its text: the plain-text part of an alternative,
/// else the HTML part through the HTML reader. Attachments in a format pb-chunk reads (PDF, office
/// files, text, HTML; images through OCR when it is on) are documents of their own, at the mail's
/// path with the attachment's name after a '#' ("inbox.mbox#3/quote.pdf" for message 3), titled
/// "NAME, attached to SUBJECT", so they keep their pages and are cited with the message they came
/// with; a forwarded message is read as part of the one that forwards it. In a mailbox every
/// message is a section "Message N: Subject".
///
/// Not read: attachments in other formats (named in the text, so nothing goes missing unseen),
/// S/MIME or PGP encrypted bodies (said so in the text), and headers other than the five above.
public enum MailDocument {
    /// How deep multiparts and forwarded messages may nest before the rest is left out: real mail
    /// stays under ten; a hostile one could otherwise recurse without end.
    static let maximumDepth = 24
    /// Attachments read per document; the rest are listed by name only.
    static let maximumAttachments = 200

    public static func textLayer(_ data: [UInt8], path: String, mailbox: Bool, toolTimeout: Double = PDFDocument.defaultTimeout,
                                 ocr: OCRSettings = OCRSettings(), audio: AudioSettings = .off, now: Date = Date()) throws -> TextLayer {
        var reader = Reader(path: path, toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
        let messages = mailbox ? Self.split(mailbox: data) : [ArraySlice(data)]
        var title: String?
        for (index, raw) in messages.enumerated() {
            let message = Message(raw)
            let subject = message.header("subject").map(decodeWords).map(TextLayer.oneLine) ?? ""
            reader.anchor = mailbox ? "\(index + 1)/" : ""
            reader.subject = subject.isEmpty ? (mailbox ? "message \(index + 1)" : "the message") : "\u{201C}\(subject)\u{201D}"
            if mailbox {
                reader.drafts.append(.heading(level: 1, text: "Message \(index + 1)" + (subject.isEmpty ? "" : ": " + subject)))
            } else if title == nil, !subject.isEmpty {
                title = subject
            }
            reader.message(message, level: mailbox ? 2 : 1, depth: 0)
        }
        var layer = TextLayer(format: mailbox ? .mbox : .email, title: title, markup: reader.drafts)
        layer.attachments = reader.attachments
        if layer.blocks.isEmpty { layer.emptyReason = mailbox ? "no messages in the mailbox" : "the message has no headers or text" }
        return layer
    }

    // MARK: - Recognising mail

    /// A mailbox starts with a "From " separator line followed by header fields.
    static func looksLikeMbox(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: Array("From ".utf8)), let newline = bytes.prefix(1024).firstIndex(of: 0x0A) else { return false }
        return looksLikeMessage(Array(bytes[(newline + 1)...].prefix(4096)))
    }

    /// A message starts with header fields, at least two of those every mail has.
    static func looksLikeMessage(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        var fields = Set<String>()
        for line in head.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t" { continue }
            guard let colon = line.firstIndex(of: ":"), !line[..<colon].contains(" ") else { return false }
            fields.insert(line[..<colon].lowercased())
        }
        return fields.intersection(["from", "to", "subject", "date", "message-id", "received", "mime-version", "return-path"]).count >= 2
    }

    /// The messages of an mbox: a line starting "From " at the start of the file or after a blank
    /// line begins a message. Lines escaped as ">From " (mboxrd) lose one ">".
    static func split(mailbox data: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var lineStart = 0
        var previousBlank = true
        let from = Array("From ".utf8)
        while lineStart < data.count {
            let end = data[lineStart...].firstIndex(of: 0x0A) ?? data.count
            let line = data[lineStart ..< end]
            if previousBlank, line.starts(with: from) { starts.append(lineStart) }
            previousBlank = line.allSatisfy { $0 == 0x0D }
            lineStart = end + 1
        }
        return starts.indices.map { i in
            let begin = data[starts[i]...].firstIndex(of: 0x0A).map { $0 + 1 } ?? data.count
            let end = i + 1 < starts.count ? starts[i + 1] : data.count
            return ArraySlice(unescapeFrom(data[begin ..< max(begin, end)]))
        }
    }

    private static func unescapeFrom(_ body: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var atLineStart = true
        var i = body.startIndex
        while i < body.endIndex {
            if atLineStart, body[i] == UInt8(ascii: ">") {
                var j = i
                while j < body.endIndex, body[j] == UInt8(ascii: ">") { j += 1 }
                if body[j...].starts(with: "From ".utf8) { i += 1 }
            }
            let byte = body[i]
            out.append(byte)
            atLineStart = byte == 0x0A
            i += 1
        }
        return out
    }

    // MARK: - Messages and MIME parts

    /// A message or a MIME part: unfolded header fields and the raw body.
    struct Message {
        var headers: [(name: String, value: String)] = []
        var body: ArraySlice<UInt8>

        init(_ raw: ArraySlice<UInt8>) {
            var at = raw.startIndex
            var fields: [(String, String)] = []
            while at < raw.endIndex {
                let end = raw[at...].firstIndex(of: 0x0A) ?? raw.endIndex
                var line = raw[at ..< end]
                if line.last == 0x0D { line = line.dropLast() }
                at = min(end + 1, raw.endIndex)
                if line.isEmpty { break }
                let text = String(decoding: line, as: UTF8.self)
                if text.first == " " || text.first == "\t", !fields.isEmpty {
                    fields[fields.count - 1].1 += " " + text.trimmingCharacters(in: .whitespaces)
                } else if let colon = text.firstIndex(of: ":") {
                    fields.append((text[..<colon].trimmingCharacters(in: .whitespaces).lowercased(),
                                   text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                } else {
                    // Not a header line: the part has no header block, all of it is body.
                    fields = []
                    at = raw.startIndex
                    break
                }
                if fields.count > 1000 { break }
            }
            headers = fields
            body = raw[at...]
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name == name }?.value
        }

        /// "text/plain" and its parameters (lowercased names, unquoted values).
        var contentType: (type: String, parameters: [String: String]) {
            Self.parameterised(header("content-type") ?? "text/plain")
        }

        var disposition: (type: String, parameters: [String: String]) {
            Self.parameterised(header("content-disposition") ?? "")
        }

        /// The attachment's file name: the disposition's filename, else the type's name.
        var fileName: String? {
            let name = disposition.parameters["filename"] ?? contentType.parameters["name"]
            return name.map(MailDocument.decodeWords).map { ($0 as NSString).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The body with its transfer encoding undone.
        var decodedBody: [UInt8] {
            switch (header("content-transfer-encoding") ?? "").lowercased().trimmingCharacters(in: .whitespaces) {
            case "base64": return MailDocument.base64(body)
            case "quoted-printable": return MailDocument.quotedPrintable(body, header: false)
            default: return Array(body)
            }
        }

        /// `type/subtype; name=value; name="quoted; value"`, with RFC 2231's `name*=charset''text`.
        static func parameterised(_ value: String) -> (type: String, parameters: [String: String]) {
            var pieces: [String] = []
            var current = ""
            var quoted = false
            for ch in value {
                if ch == "\"" { quoted.toggle(); continue }
                if ch == ";", !quoted { pieces.append(current); current = ""; continue }
                current.append(ch)
            }
            pieces.append(current)
            var parameters: [String: String] = [:]
            // RFC 2231: "name*" is one encoded value, "name*0", "name*1*" ... are sections of one
            // (a trailing "*" marks an encoded section); they win over a plain "name" beside them.
            var sections: [String: [(Int, String)]] = [:]
            for piece in pieces.dropFirst() {
                guard let eq = piece.firstIndex(of: "=") else { continue }
                let name = piece[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
                var text = piece[piece.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                guard let star = name.firstIndex(of: "*") else {
                    parameters[name] = text
                    continue
                }
                let base = String(name[..<star])
                let rest = name[name.index(after: star)...]
                let encoded = rest.isEmpty || rest.hasSuffix("*")
                let number = Int(rest.hasSuffix("*") ? rest.dropLast() : rest) ?? 0
                if encoded {
                    if number == 0, let tick = text.range(of: "''") { text = String(text[tick.upperBound...]) }
                    text = String(decoding: MailDocument.percentDecoded(text), as: UTF8.self)
                }
                if sections[base, default: []].count < 1000 { sections[base, default: []].append((number, text)) }
            }
            for (base, parts) in sections {
                parameters[base] = parts.sorted { $0.0 < $1.0 }.map(\.1).joined()
            }
            return (pieces[0].trimmingCharacters(in: .whitespaces).lowercased(), parameters)
        }
    }

    /// Walks a message's MIME tree into drafts.
    struct Reader {
        let path: String
        let toolTimeout: Double
        let ocr: OCRSettings
        /// How an attached recording (a voicemail) is heard.
        let audio: AudioSettings
        /// When an attached calendar's next occurrences are listed from.
        let now: Date
        var drafts: [TextLayer.MarkupDraft] = []
        var attachments: [TextLayer.Attachment] = []
        /// The current message's place in the mailbox ("3/"; empty for one message) and its
        /// subject as an attachment's title names it.
        var anchor = ""
        var subject = ""
        /// Attachments tried (read or not): every one may start a tool, so all count.
        private var tried = 0
        /// OCR pages the whole mail file may still use, shared by its attachments.
        private var ocrPagesLeft: Int

        init(path: String, toolTimeout: Double, ocr: OCRSettings, audio: AudioSettings = .off, now: Date = Date()) {
            self.path = path
            self.toolTimeout = toolTimeout
            self.ocr = ocr
            self.audio = audio
            self.now = now
            ocrPagesLeft = ocr.maximumPages
        }

        /// A whole message: its fields, then its content.
        mutating func message(_ message: Message, level: Int, depth: Int) {
            var fields: [String] = []
            for name in ["from", "to", "cc", "date", "subject"] {
                if let value = message.header(name) {
                    let clean = TextLayer.oneLine(decodeWords(value))
                    if !clean.isEmpty { fields.append(name.prefix(1).uppercased() + name.dropFirst() + ": " + clean) }
                }
            }
            if !fields.isEmpty { drafts.append(.paragraph(fields.joined(separator: "\n"))) }
            part(message, level: level, depth: depth)
        }

        mutating func part(_ part: Message, level: Int, depth: Int) {
            guard depth < MailDocument.maximumDepth else { return }
            let (type, parameters) = part.contentType
            let disposition = part.disposition.type
            if type.hasPrefix("multipart/") {
                let parts = MailDocument.parts(of: part.body, boundary: parameters["boundary"] ?? "")
                if parts.isEmpty {
                    // No line is the declared boundary: what the body says is still text.
                    drafts += MailDocument.plainText(decodeCharset(part.decodedBody, parameters["charset"]), flowed: false)
                    return
                }
                if type == "multipart/alternative" {
                    // The plain text if it says anything, else the richest part that does.
                    let chosen = parts.first { $0.contentType.type == "text/plain" && !isBlank($0.decodedBody) }
                        ?? parts.last { $0.contentType.type == "text/html" || $0.contentType.type.hasPrefix("multipart/") }
                        ?? parts.first
                    if let chosen { self.part(chosen, level: level, depth: depth + 1) }
                } else if type == "multipart/encrypted" {
                    drafts.append(.paragraph("[This message is encrypted (\(parameters["protocol"] ?? "unknown protocol")) and was not read.]"))
                } else {
                    for child in parts { self.part(child, level: level, depth: depth + 1) }
                }
                return
            }
            let name = part.fileName
            let isAttachment = disposition == "attachment" || (name != nil && !(type == "text/plain" || type == "text/html"))
            if !isAttachment {
                switch type {
                case "text/plain", "text/enriched", "":
                    drafts += MailDocument.plainText(decodeCharset(part.decodedBody, parameters["charset"]), flowed: parameters["format"] == "flowed")
                    return
                case "text/html":
                    // A heading in a mail's HTML is styling, not structure: as a section it would
                    // hide the message it belongs to from the citation.
                    drafts += HTMLDocument.markup(decodeCharset(part.decodedBody, parameters["charset"])).drafts.map { draft in
                        if case let .heading(_, text) = draft { return .paragraph(text) }
                        return draft
                    }
                    return
                case "message/rfc822":
                    drafts.append(.heading(level: min(level, 6), text: "Forwarded message"))
                    message(Message(ArraySlice(part.decodedBody)), level: level + 1, depth: depth + 1)
                    return
                case "application/pkcs7-mime", "application/x-pkcs7-mime":
                    drafts.append(.paragraph("[This message is encrypted (S/MIME) and was not read.]"))
                    return
                case "application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature":
                    return
                default:
                    break
                }
            }
            attachment(part, name: name ?? "part", type: type, level: level, depth: depth)
        }

        /// An attachment in a format pb-chunk reads becomes a document of its own, named in the
        /// message; another is named too, so the reader knows it is there.
        mutating func attachment(_ part: Message, name: String, type: String, level: Int, depth: Int) {
            if type == "message/rfc822" {
                drafts.append(.heading(level: min(level, 6), text: "Attachment: " + name))
                message(Message(ArraySlice(part.decodedBody)), level: level + 1, depth: depth + 1)
                return
            }
            var bytes = part.decodedBody
            let format = try? DocumentReader.format(path: name, bytes: bytes)
            // An attached message or mailbox is read as part of this one, as a forwarded
            // message is: within this mail's depth bound, its own attachments kept.
            if format == .email || format == .mbox {
                drafts.append(.heading(level: min(level, 6), text: "Attachment: " + name))
                let inner = format == .mbox ? MailDocument.split(mailbox: bytes) : [ArraySlice(bytes)]
                for raw in inner.prefix(MailDocument.maximumAttachments) {
                    message(Message(raw), level: level + 1, depth: depth + 1)
                }
                return
            }
            tried += 1
            guard let format, tried <= MailDocument.maximumAttachments, format != .image || OCRDocument.unavailable(ocr) == nil,
                  format != .audio || (audio.transcriber != nil && audio.transcriber?.unavailable == nil) else {
                drafts.append(.paragraph("[Attachment \(name) (\(type.isEmpty ? "unknown type" : type), \(bytes.count) bytes) was not read.]"))
                return
            }
            // Text attachments are UTF-8 for the readers, whatever charset the part declares.
            if [.text, .markdown, .csv].contains(format) { bytes = MailDocument.decodeCharset(bytes, part.contentType.parameters["charset"]) }
            var settings = ocr
            settings.maximumPages = max(1, ocrPagesLeft)
            if ocrPagesLeft <= 0 { settings.enabled = false }
            // Names are unique within a message: a second "scan.pdf" is "scan-2.pdf".
            var unique = name.replacingOccurrences(of: "/", with: "-")
            var n = 2
            while attachments.contains(where: { $0.anchor == anchor + unique }) {
                unique = ((name as NSString).deletingPathExtension + "-\(n)") + ((name as NSString).pathExtension.isEmpty ? "" : "." + (name as NSString).pathExtension)
                n += 1
            }
            do {
                let layer = try DocumentReader.layer(bytes: bytes, path: path + "#" + anchor + unique, format: format,
                                                     toolTimeout: toolTimeout, ocr: settings, audio: audio, onDisk: false, now: now)
                ocrPagesLeft -= layer.ocrPages.count
                guard !layer.blocks.isEmpty else { throw DocumentError.empty(path: name, reason: layer.emptyReason ?? "no text") }
                attachments.append(TextLayer.Attachment(anchor: anchor + unique, layer: layer, source: bytes,
                                                        title: unique + ", attached to " + subject))
                drafts.append(.paragraph("[Attachment \(unique): read as a document of its own, \((path as NSString).lastPathComponent)#\(anchor + unique).]"))
            } catch {
                Diagnostics.shared.warning("\(path): attachment \(name) was not read: \(error)")
                drafts.append(.paragraph("[Attachment \(name) could not be read.]"))
            }
        }

        private func isBlank(_ bytes: [UInt8]) -> Bool {
            bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        }
    }

    /// The parts between `--boundary` lines, up to `--boundary--`.
    static func parts(of body: ArraySlice<UInt8>, boundary: String) -> [Message] {
        guard !boundary.isEmpty else { return [Message(body)] }
        let marker = Array(("--" + boundary).utf8)
        var parts: [Message] = []
        var partStart: Int?
        var at = body.startIndex
        while at < body.endIndex {
            let end = body[at...].firstIndex(of: 0x0A) ?? body.endIndex
            let line = body[at ..< end]
            // A boundary line is the marker, "--" after it on the last, then only white space.
            let after = line.dropFirst(marker.count)
            let closing = after.starts(with: "--".utf8)
            if line.starts(with: marker), (closing ? after.dropFirst(2) : after).allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                if let start = partStart {
                    // The line break before the boundary belongs to the boundary.
                    var stop = at
                    if stop > start, body[stop - 1] == 0x0A { stop -= 1 }
                    if stop > start, body[stop - 1] == 0x0D { stop -= 1 }
                    parts.append(Message(body[start ..< max(start, stop)]))
                }
                if closing { return parts }
                partStart = min(end + 1, body.endIndex)
                if parts.count > 10_000 { return parts }
            }
            at = end + 1
        }
        if let start = partStart, start < body.endIndex { parts.append(Message(body[start...])) }
        return parts
    }

    /// Plain text as paragraphs at blank lines; format=flowed lines ending in a space continue.
    static func plainText(_ bytes: [UInt8], flowed: Bool) -> [TextLayer.MarkupDraft] {
        var text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        if flowed { text = text.replacingOccurrences(of: " \n", with: " ") }
        var drafts: [TextLayer.MarkupDraft] = []
        for block in text.components(separatedBy: "\n\n") {
            let clean = block.trimmingCharacters(in: .whitespacesAndNewlines)
            if !clean.isEmpty { drafts.append(.paragraph(clean)) }
        }
        return drafts
    }

    // MARK: - Encodings

    /// Text in a declared charset as UTF-8: UTF-8 and ASCII as they are, anything else (Latin-1,
    /// Windows-1252, ISO-8859-15, the bulk of older mail) the way browsers read "latin1".
    static func decodeCharset(_ bytes: [UInt8], _ charset: String?) -> [UInt8] {
        let name = (charset ?? "").lowercased()
        if name.hasPrefix("utf-16") || name.hasPrefix("utf16") {
            let big = name != "utf-16le"
            var units: [UInt16] = []
            var i = 0
            while i + 1 < bytes.count {
                units.append(big ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
                i += 2
            }
            return Array(String(decoding: units, as: UTF16.self).utf8)
        }
        return HTMLDocument.decode(bytes)
    }

    /// RFC 2047 encoded words (`=?utf-8?B?...?=`, `=?iso-8859-1?Q?...?=`) in a header value;
    /// the space between two encoded words is not text.
    static func decodeWords(_ value: String) -> String {
        guard value.contains("=?") else { return value }
        var out = ""
        var rest = Substring(value)
        var lastWasEncoded = false
        while let start = rest.range(of: "=?") {
            let between = rest[..<start.lowerBound]
            let tail = rest[start.upperBound...]
            let pieces = tail.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            guard pieces.count == 4, pieces[3].hasPrefix("="), pieces[1].count == 1 else {
                out += between + "=?"
                rest = tail
                lastWasEncoded = false
                continue
            }
            if !(lastWasEncoded && between.allSatisfy(\.isWhitespace)) { out += between }
            let charset = String(pieces[0].prefix { $0 != "*" })
            let encoded = Array(pieces[2].utf8)
            let raw = pieces[1].uppercased() == "B" ? base64(encoded[...]) : quotedPrintable(encoded[...], header: true)
            out += String(decoding: decodeCharset(raw, charset), as: UTF8.self)
            rest = pieces[3].dropFirst()
            lastWasEncoded = true
        }
        return out + rest
    }

    static func base64(_ body: ArraySlice<UInt8>) -> [UInt8] {
        let clean = body.filter { !($0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09) }
        var padded = clean
        while padded.count % 4 != 0 { padded.append(UInt8(ascii: "=")) }
        if let data = Data(base64Encoded: Data(padded)) { return [UInt8](data) }
        // Damaged base64: decode what can be decoded, quartet by quartet.
        var out: [UInt8] = []
        var quartet: [UInt8] = []
        for byte in clean {
            quartet.append(byte)
            if quartet.count == 4 {
                if let data = Data(base64Encoded: Data(quartet)) { out += data }
                quartet = []
            }
        }
        return out
    }

    static func quotedPrintable(_ body: ArraySlice<UInt8>, header: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var i = body.startIndex
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        while i < body.endIndex {
            let byte = body[i]
            if byte == UInt8(ascii: "=") {
                if i + 1 < body.endIndex, body[i + 1] == 0x0A { i += 2; continue }
                if i + 2 < body.endIndex, body[i + 1] == 0x0D, body[i + 2] == 0x0A { i += 3; continue }
                if i + 2 < body.endIndex, let high = hex(body[i + 1]), let low = hex(body[i + 2]) {
                    out.append(high << 4 | low)
                    i += 3
                    continue
                }
            }
            out.append(header && byte == UInt8(ascii: "_") ? 0x20 : byte)
            i += 1
        }
        return out
    }

    static func percentDecoded(_ text: String) -> [UInt8] {
        quotedPrintable(ArraySlice(Array(text.replacingOccurrences(of: "%", with: "=").utf8)), header: false)
    }
}
