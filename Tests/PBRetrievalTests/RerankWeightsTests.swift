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
    }
}
