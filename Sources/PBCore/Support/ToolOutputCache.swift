import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a slow reading tool made of a document, kept under `$PB_HOME/cache` so a re-ingest runs
/// it no second time: OCR's words of a page image (`cache/ocr`, tesseract's TSV) and the
/// transcripts of recordings (`cache/transcripts`, pb-listen's records). Each is `KK/KEY.SUFFIX`
/// beside `KK/KEY.paths`, the documents that used it (NUL-separated, each with the part of it
/// after a \u{1}: a PDF's page). The cache holds a person's text, so it goes when the text does:
/// a document read again with new content leaves the entry its old content used (`users/` maps
/// each document and part to its entry), and an entry no library's document uses any more is
/// deleted when a library is pruned (`sweep`), so a deleted scan's or memo's text goes with it.
public struct ToolOutputCache: Sendable {
    public let directory: URL
    /// The entries' file name extension ("tsv", "json").
    public let suffix: String

    public init(directory: URL, suffix: String) {
        self.directory = directory
        self.suffix = suffix
    }

    /// What OCR read, in a PocketBrains home.
    public static func ocr(home: URL) -> ToolOutputCache {
        ToolOutputCache(directory: home.appendingPathComponent("cache/ocr"), suffix: "tsv")
    }

    /// What pb-listen heard in recordings, in a PocketBrains home.
    public static func transcripts(home: URL) -> ToolOutputCache {
        ToolOutputCache(directory: home.appendingPathComponent("cache/transcripts"), suffix: "json")
    }

    /// Every cache of a home: what pruning a library sweeps.
    public static func all(home: URL) -> [ToolOutputCache] { [ocr(home: home), transcripts(home: home)] }

    func entry(_ key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + "." + suffix)
    }

    func pathsFile(_ key: String) -> URL {
        entry(key).deletingPathExtension().appendingPathExtension("paths")
    }

    /// The cached output for `key`, noting that part `part` of the document at `path` uses it;
    /// nil when there is none.
    public func read(_ key: String, for path: String, part: String = "") -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: entry(key).path) else { return nil }
        try? note(Self.user(path, part), usesEntry: key)
        return [UInt8](data)
    }

    /// Keeps `output` for `key`, used by part `part` of the document at `path`: whole or not at
    /// all (a temporary file renamed).
    public func store(_ output: [UInt8], key: String, for path: String, part: String = "") throws {
        try FileManager.default.createDirectory(at: entry(key).deletingLastPathComponent(), withIntermediateDirectories: true)
        try note(Self.user(path, part), usesEntry: key)
        try Self.replace(entry(key), with: output)
    }

    static func user(_ path: String, _ part: String) -> String { part.isEmpty ? path : path + "\u{1}" + part }

    /// Where the entry a document's part uses is named.
    func marker(_ user: String) -> URL {
        directory.appendingPathComponent("users").appendingPathComponent(SHA256.hex(user))
    }

    /// `user` uses the entry `key`, and no longer the one it used before, which is deleted when
    /// nothing else uses it: a memo recorded over, a scan replaced, keep no old text here.
    private func note(_ user: String, usesEntry key: String) throws {
        let marker = marker(user)
        if let old = FileManager.default.contents(atPath: marker.path).map({ String(decoding: $0, as: UTF8.self) }), old != key {
            forget(user, in: old)
        }
        var users = users(of: key)
        if !users.contains(user) {
            users.append(user)
            try Self.replace(pathsFile(key), with: Array(users.joined(separator: "\u{0}").utf8))
        }
        try FileManager.default.createDirectory(at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.replace(marker, with: Array(key.utf8))
    }

    /// `user` no longer uses the entry `key`; the entry goes when none does.
    private func forget(_ user: String, in key: String) {
        guard key.count == 64, key.allSatisfy(\.isHexDigit) else { return }
        let left = users(of: key).filter { $0 != user }
        if left.isEmpty {
            unlink(entry(key).path)
            unlink(pathsFile(key).path)
        } else {
            try? Self.replace(pathsFile(key), with: Array(left.joined(separator: "\u{0}").utf8))
        }
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
        // A user is a document's path, or its path and a part after \u{1}.
        func used(_ user: String) -> Bool { isUsed(String(user.split(separator: "\u{1}", maxSplits: 1, omittingEmptySubsequences: false)[0])) }
        for folder in folders where folder.count == 2 {
            let dir = directory.appendingPathComponent(folder)
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            for name in names where name.hasSuffix("." + suffix) {
                let key = String(name.dropLast(suffix.count + 1))
                let users = users(of: key)
                let kept = users.filter(used)
                for gone in users where !kept.contains(gone) { unlink(marker(gone).path) }
                if kept.isEmpty {
                    unlink(entry(key).path)
                    unlink(pathsFile(key).path)
                    removed += 1
                } else if kept.count < users.count {
                    try? Self.replace(pathsFile(key), with: Array(kept.joined(separator: "\u{0}").utf8))
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
