import Foundation
import Testing
@testable import PBCore
@testable import PBRetrieval

@Suite struct RerankWeightsTests {
    static func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "rerank-weights-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func loadsAFileAndScores() throws {
        let path = try Self.write(#"{"model": "test", "bias": -1, "weights": {"fused": 2, "title": 0.5}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try RerankWeights.load(path: path)
        #expect(w.bias == -1)
        var x = [Double](repeating: 0, count: RerankFeatures.names.count)
        x[RerankFeatures.names.firstIndex(of: "fused")!] = 1
        x[RerankFeatures.names.firstIndex(of: "title")!] = 1
        #expect(w.score(x) == 1.5)
    }

    @Test func rejectsUnknownFeaturesAndBadFiles() throws {
        let unknown = try Self.write(#"{"bias": 0, "weights": {"colour": 1}}"#)
        defer { try? FileManager.default.removeItem(atPath: unknown) }
        #expect(throws: ToolFailure.self) { try RerankWeights.load(path: unknown) }
        let bad = try Self.write("not json")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(throws: ToolFailure.self) { try RerankWeights.load(path: bad) }
        #expect(throws: ToolFailure.self) { try RerankWeights.load(path: "/nonexistent/weights.json") }
    }

    @Test func defaultsMatchTheCommittedFit() throws {
        // The test folder may be reached through a symlink; the committed file is beside the sources.
        let path = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../../Evals/rerank/weights.json").path
        let committed = try RerankWeights.load(path: path)
        #expect(committed == RerankWeights.defaults)
        #expect(Set(RerankWeights.defaults.weights.keys) == Set(RerankFeatures.names))
        let memory = try RerankWeights.load(path: URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("memory-weights.json").path)
        #expect(memory == RerankWeights.memory)
    }

    /// A memory's hits keep pb-recall's order (its memory weights); a document's are rescored.
    @Test func aMemorysHitsKeepTheirOrder() {
        func hit(_ n: Int, _ text: String, bm25: Double, memory: Bool) -> Hit {
            var h = Hit(span: SourceSpan(chunkID: "c\(n)", docID: "d\(n)", path: "p/d\(n)", title: "", section: [], start: 0, end: text.utf8.count,
                                         lineStart: 1, lineEnd: 1),
                        text: text, scores: HitScores(bm25: bm25, bm25Rank: n, fused: 0.03 / Double(n)), rank: n)
            if memory { h.source = ["d\(n)"] }
            return h
        }
        var q = QueryRecord(text: "where is the gym")
        q.hits = [hit(1, "I joined a climbing club last spring.", bm25: 1, memory: true),
                  hit(2, "The gym is on Elm Street, where the gym used to be.", bm25: 9, memory: true)]
        let kept = Reranker(settings: Reranker.Settings()).rerank(q).hits ?? []
        #expect(kept.map(\.chunkID) == ["c1", "c2"])
        q.hits = q.hits?.map { var h = $0; h.source = nil; return h }
        let rescored = Reranker(settings: Reranker.Settings()).rerank(q).hits ?? []
        #expect(rescored.first?.chunkID == "c2")
    }
}
