import Foundation

/// An office document stored as a ZIP package: Office Open XML (DOCX, XLSX, PPTX), whose parts
/// find one another through relationship parts, and OpenDocument (ODT, ODS), whose parts have
/// fixed names. Every reader opens its file through this type, so the ZIP reader, the XML
/// tokenizer and the messages for encrypted and damaged files exist once.
struct OfficePackage {
    struct Relationship {
        var id: String
        var type: String
        var target: String
    }

    let archive: ZipArchive
    let path: String
    /// What the reader expects, for messages: "docx", "xlsx", "odt" ...
    let kind: String
    /// Bytes inflated so far, against `maximumInflated`: entries may share their data, so a
    /// small file could otherwise inflate the same 256 MiB part again and again.
    private let inflated = Counter()
    static let maximumInflated = 512 << 20

    private final class Counter {
        var bytes = 0
    }

    /// OLE compound files (Microsoft's container before 2007) begin with these bytes. Office
    /// writes a password-protected DOCX/XLSX/PPTX as one of these, with the package encrypted inside.
    static let compoundFileMagic: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    init(_ data: [UInt8], path: String, kind: String) throws {
        if data.starts(with: Self.compoundFileMagic) {
            throw DocumentError.unsupported(path: path, reason: "an OLE compound file, not \(Self.article(kind)) \(kind) package: either password-protected "
                + "(Office encrypts a protected file into one) or a legacy .doc/.xls/.ppt renamed; save a copy without a password in the current format")
        }
        do {
            archive = try ZipArchive(data)
        } catch {
            throw DocumentError.malformed(path: path, reason: "not \(Self.article(kind)) \(kind) file: \(error)")
        }
        self.path = path
        self.kind = kind
    }

    /// The inflated bytes of a part, or nil when the package has none by that name.
    func part(_ name: String) throws -> [UInt8]? {
        do {
            guard let entry = archive.entry(named: name) else { return nil }
            guard entry.uncompressedSize <= Self.maximumInflated - inflated.bytes else {
                throw DocumentError.unsupported(path: path, reason: "its parts inflate to more than \(Self.maximumInflated >> 20) MiB (a zip bomb?)")
            }
            let bytes = try archive.contents(of: entry)
            inflated.bytes += bytes.count
            return bytes
        } catch let failure as ZipArchive.Failure {
            if case .encrypted = failure { throw Self.encrypted(path) }
            throw DocumentError.malformed(path: path, reason: failure.description)
        }
    }

    /// A part the document cannot be read without.
    func requiredPart(_ name: String) throws -> [UInt8] {
        guard let bytes = try part(name) else {
            throw DocumentError.malformed(path: path, reason: "no \(name) in the archive (not \(Self.article(kind)) \(kind) file)")
        }
        return bytes
    }

    /// "an xlsx", "a docx": the names are read letter by letter or as "ex".
    static func article(_ kind: String) -> String {
        ["odt", "ods", "xlsx", "xlsm"].contains(kind) ? "an" : "a"
    }

    static func encrypted(_ path: String) -> DocumentError {
        .unsupported(path: path, reason: "the package is encrypted (password-protected); save a copy without a password")
    }

    // MARK: - Office Open XML relationships

    /// The relationships of `part` ("" for the package itself), from its `_rels/NAME.rels` part.
    func relationships(of part: String) throws -> [Relationship] {
        let directory = Self.directory(of: part)
        let file = part.split(separator: "/").last.map(String.init) ?? ""
        let relationsPart = (directory.isEmpty ? "" : directory + "/") + "_rels/" + file + ".rels"
        guard let xml = try self.part(relationsPart) else { return [] }
        var scanner = XMLScanner(xml)
        var found: [Relationship] = []
        while let event = scanner.next() {
            if case let .start(name, attributes, _) = event, Self.localName(name) == "Relationship",
               let type = attributes["Type"], let target = attributes["Target"], attributes["TargetMode"] != "External" {
                found.append(Relationship(id: attributes["Id"] ?? "", type: type, target: Self.resolve(target, from: directory)))
            }
        }
        return found
    }

    /// The part the package names as its main document, or `fallback`.
    func mainPart(fallback: String) throws -> String {
        try relationships(of: "").first { $0.type.hasSuffix("/officeDocument") }?.target ?? fallback
    }

    /// The title in the package's core properties (`docProps/core.xml`), if any.
    func coreTitle() throws -> String? {
        let corePart = try relationships(of: "").first { $0.type.hasSuffix("/core-properties") }?.target ?? "docProps/core.xml"
        return try part(corePart).flatMap { Self.elementText("dc:title", in: $0) }
    }

    static func directory(of part: String) -> String {
        part.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// Relationship targets are relative to the folder of the part that names them, or absolute
    /// within the package when they start with "/".
    static func resolve(_ target: String, from directory: String) -> String {
        var parts: [Substring] = target.hasPrefix("/") ? [] : directory.split(separator: "/")
        for piece in target.split(separator: "/") {
            if piece == ".." { if !parts.isEmpty { parts.removeLast() } } else if piece != "." { parts.append(piece) }
        }
        return parts.joined(separator: "/")
    }

    /// The text of the first element called `name` (canonical prefix), or nil.
    static func elementText(_ name: String, in xml: [UInt8]) -> String? {
        var scanner = XMLScanner(xml)
        var inside = false
        var text = ""
        while let event = scanner.next() {
            switch event {
            case let .start(element, _, _) where element == name:
                inside = true
            case let .end(element) where element == name:
                return text
            case let .text(content) where inside:
                text += content
            default:
                break
            }
        }
        return nil
    }

    static func localName(_ name: String) -> Substring {
        name.split(separator: ":", maxSplits: 1).last ?? Substring(name)
    }

    // MARK: - OpenDocument

    /// An OpenDocument package whose manifest lists encryption data has its parts encrypted with
    /// a password (the ZIP entries themselves carry no encryption flag).
    func isEncryptedOpenDocument() throws -> Bool {
        guard let manifest = try part("META-INF/manifest.xml") else { return false }
        var scanner = XMLScanner(manifest)
        while let event = scanner.next() {
            if case let .start(name, _, _) = event, Self.localName(name) == "encryption-data" { return true }
        }
        return false
    }

    /// The parts of an OpenDocument file: content.xml (required), and the title from meta.xml.
    func openDocument() throws -> (content: [UInt8], title: String?) {
        if try isEncryptedOpenDocument() { throw Self.encrypted(path) }
        let content = try requiredPart("content.xml")
        let title = try part("meta.xml").flatMap { Self.elementText("dc:title", in: $0) }
        return (content, title)
    }
}
