import Foundation
import Testing
@testable import PBAnswer
import PBCore
import PBNeural

/// The sentence-vector cache between pb-answer and pb-verify: what it returns is what the
/// encoder gives, bit for bit, and it never turns into an error.
@Suite struct SentenceVectorCacheTests {
    static let encoder = ExtractiveComposerTests.encoder

    static func home() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pb-svc-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let texts = [
        "Does the boiler need a service every year?",
        "The boiler was serviced in March.",
        "The pressure valve was replaced and the flue checked.",
        "The boiler was serviced in March.",
    ]

    @Test(.enabled(if: encoder != nil, "needs the model (make model)"))
    func cachedVectorsAreTheEncodersBitForBit() throws {
        let encoder = try #require(Self.encoder)
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let direct = encoder.embed(Self.texts, maxTokens: 256)
        let first = CachedGroundingEncoder(encoder: encoder, cache: try #require(SentenceVectorCache(home: home, encoder: encoder)))
        #expect(first.groundingVectors(Self.texts) == direct)
        // A second process (a new connection) finds every text and gives the same bits.
        let cache = try #require(SentenceVectorCache(home: home, encoder: encoder))
        let found = cache.vectors(Self.texts)
        #expect(found.count == 3)
        #expect(Self.texts.map { found[$0]! } == direct)
        #expect(CachedGroundingEncoder(encoder: encoder, cache: cache).groundingVectors(Self.texts) == direct)
    }

    @Test(.enabled(if: encoder != nil, "needs the model (make model)"))
    func pbAnswersTokenStatesFillTheCacheWithEmbedsVectors() throws {
        let encoder = try #require(Self.encoder)
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = try #require(SentenceVectorCache(home: home, encoder: encoder))
        let states = encoder.tokenStates(Self.texts)
        cache.store(zip(Self.texts, states).map { (text: $0.0, vector: $0.1.pooled) })
        let found = cache.vectors(Self.texts)
        #expect(Self.texts.map { found[$0]! } == encoder.embed(Self.texts, maxTokens: 256))
    }

    @Test(.enabled(if: encoder != nil, "needs the model (make model)"))
    func anotherWindowIsAnotherKey() throws {
        let encoder = try #require(Self.encoder)
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let wide = try #require(SentenceVectorCache(home: home, encoder: encoder))
        wide.store([(text: "x", vector: [Float](repeating: 0.05, count: encoder.dimension))])
        #expect(wide.vectors(["x"]).count == 1)
        #expect(try #require(SentenceVectorCache(home: home, encoder: encoder, maxTokens: 128)).vectors(["x"]).isEmpty)
    }

    @Test(.enabled(if: encoder != nil, "needs the model (make model)"))
    func itIsBounded() throws {
        let encoder = try #require(Self.encoder)
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = try #require(SentenceVectorCache(home: home, encoder: encoder, capacity: 50))
        let v = [Float](repeating: 0.05, count: encoder.dimension)
        cache.store((0..<80).map { (text: "s\($0)", vector: v) })
        let rows = try cache.db.scalarInt("SELECT count(*) FROM vectors") ?? -1
        #expect(rows == 50)
    }

    @Test(.enabled(if: encoder != nil, "needs the model (make model)"))
    func aHomeThatCannotHoldItMeansNoCache() throws {
        let encoder = try #require(Self.encoder)
        let file = try Self.home().appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(SentenceVectorCache(home: file, encoder: encoder) == nil)
    }
}
