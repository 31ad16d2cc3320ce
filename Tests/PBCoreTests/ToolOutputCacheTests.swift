import Foundation
import Testing
@testable import PBCore

@Suite("The cache of what slow readers made of documents")
struct ToolOutputCacheTests {
    static func cache() -> ToolOutputCache {
        ToolOutputCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("pb-cache-\(UUID().uuidString)"), suffix: "json")
    }

    static let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64), c = String(repeating: "c", count: 64)

    @Test func aDocumentReadWithNewContentLeavesItsOldEntry() throws {
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.store(Array("gym code 4719".utf8), key: Self.a, for: "/memos/x.wav")
        // The same memo recorded over: its old words go at once.
        try cache.store(Array("renew the insurance".utf8), key: Self.b, for: "/memos/x.wav")
        #expect(cache.read(Self.a, for: "/memos/y.wav") == nil)
        #expect(cache.read(Self.b, for: "/memos/x.wav") == Array("renew the insurance".utf8))
        // An entry two documents share stays while one of them uses it.
        try cache.store(Array("shared".utf8), key: Self.c, for: "/memos/copy-1.wav")
        _ = cache.read(Self.c, for: "/memos/copy-2.wav")
        try cache.store(Array("other".utf8), key: Self.a, for: "/memos/copy-1.wav")
        #expect(cache.read(Self.c, for: "/memos/copy-2.wav") == Array("shared".utf8))
    }

    @Test func pagesOfOneDocumentAreUsersOfTheirOwn() throws {
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.store(Array("page one".utf8), key: Self.a, for: "/scans/deed.pdf", part: "page 1")
        try cache.store(Array("page two".utf8), key: Self.b, for: "/scans/deed.pdf", part: "page 2")
        #expect(cache.read(Self.a, for: "/scans/deed.pdf", part: "page 1") != nil)
        // Pruning keeps what a library's document uses, by its path, and deletes the rest.
        #expect(cache.sweep { $0 == "/scans/deed.pdf" } == 0)
        #expect(cache.sweep { _ in false } == 2)
        #expect(cache.read(Self.b, for: "/scans/deed.pdf", part: "page 2") == nil)
        let markers = try FileManager.default.contentsOfDirectory(atPath: cache.directory.appendingPathComponent("users").path)
        #expect(markers.isEmpty)
    }
}
