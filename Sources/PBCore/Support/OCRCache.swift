import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What OCR read from a page image, kept under `$PB_HOME/cache/ocr` so a re-ingest reads no scan
/// twice: `KK/KEY.tsv` (tesseract's TSV) beside `KK/KEY.paths`, the documents that used it
/// (NUL-separated). The cache holds a person's text, so it is swept with the libraries: an entry
/// no library's document uses any more is deleted (`sweep`), and a deleted scan's text goes with it.
public struct OCRCache: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The cache of a PocketBrains home.
    public init(home: URL) {
        self.init(directory: home.appendingPathComponent("cache/ocr"))
    }

    func entry(_ key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".tsv")
    }

    func pathsFile(_ key: String) -> URL {
        entry(key).deletingPathExtension().appendingPathExtension("paths")
    }

    /// The cached TSV for `key`, noting that `path` uses it; nil when there is none.
    public func read(_ key: String, for path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: entry(key).path) else { return nil }
        try? note(path, usesEntry: key)
        return [UInt8](data)
    }

    /// Keeps `tsv` for `key`, used by `path`: whole or not at all (a temporary file renamed).
    public func store(_ tsv: [UInt8], key: String, for path: String) throws {
        try FileManager.default.createDirectory(at: entry(key).deletingLastPathComponent(), withIntermediateDirectories: true)
        try note(path, usesEntry: key)
        try Self.replace(entry(key), with: tsv)
    }

    private func note(_ path: String, usesEntry key: String) throws {
        var paths = users(of: key)
        guard !paths.contains(path) else { return }
        paths.append(path)
        try Self.replace(pathsFile(key), with: Array(paths.joined(separator: "\u{0}").utf8))
    }

    func users(of key: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: pathsFile(key).path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\u{0}").map(String.init)
    }

    /// Deletes every entry none of whose documents `isUsed` (entries that name none, too), and
    /// forgets the documents of kept entries that are gone. Returns the entries deleted.
    @discardableResult
    public func sweep(keeping isUsed: (String) -> Bool) -> Int {
        let fm = FileManager.default
        guard let folders = try? fm.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for folder in folders {
            let dir = directory.appendingPathComponent(folder)
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            for name in names where name.hasSuffix(".tsv") {
                let key = String(name.dropLast(4))
                let paths = users(of: key)
                let used = paths.filter(isUsed)
                if used.isEmpty {
                    unlink(entry(key).path)
                    unlink(pathsFile(key).path)
                    removed += 1
                } else if used.count < paths.count {
                    try? Self.replace(pathsFile(key), with: Array(used.joined(separator: "\u{0}").utf8))
                }
            }
        }
        return removed
    }

    static func replace(_ url: URL, with bytes: [UInt8]) throws {
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        try Data(bytes).write(to: tmp)
        if rename(tmp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(tmp.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write \(url.path): \(reason)"])
        }
    }
}
