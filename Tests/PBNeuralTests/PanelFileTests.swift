import Foundation
import Testing
@testable import PBNeural

/// The packed panels kept in the model folder (PackedBertWeights): written by the first encode,
/// mapped by later encoders with the very same floats, and never trusted when they do not match.
@Suite("packed panels kept in the model folder", .serialized, .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
struct PanelFileTests {
    static let texts = ["Aspirin lowers the risk of a second heart attack.", "A short one.",
                        String(repeating: "Long inputs span several blocks of the packed operand. ", count: 30)]

    /// A model folder of its own: links to the real model's files, so the panel file lands here.
    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pb-panels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["model.safetensors", "vocab.txt", "config.json"] {
            let source = NeuralFixtures.modelDirectory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: source)
            }
        }
        return dir
    }

    func panelFile(_ dir: URL) -> URL { dir.appendingPathComponent("panels-\(KernelPath.best.rawValue).bin") }

    @Test("the first encode writes the panels; the next encoder maps them and gives the same bits")
    func writtenThenMapped() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        #expect(first.panelsFromFile == nil)
        #expect(!FileManager.default.fileExists(atPath: panelFile(dir).path))
        let packed = first.embed(Self.texts)
        #expect(first.panelsFromFile == false)
        #expect(FileManager.default.fileExists(atPath: panelFile(dir).path))
        let second = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        let mapped = second.embed(Self.texts)
        #expect(second.panelsFromFile == true)
        #expect(mapped == packed)
        // No temporary file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".panels-") }
        #expect(left.isEmpty)
    }

    @Test("a panel file for other weights, or cut short, is packed again and replaced")
    func mismatchIsRepacked() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        let want = reference.embed(Self.texts)
        let file = panelFile(dir)
        // Another model's key: one character of the weights fingerprint changed.
        var bytes = try Data(contentsOf: file)
        let header = String(decoding: bytes.prefix(PackedBertWeights.headerBytes).prefix { $0 != 0 }, as: UTF8.self)
        let at = try #require(header.range(of: "weights ")).upperBound
        let offset = header.utf8.distance(from: header.startIndex, to: at)
        bytes[offset] = bytes[offset] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        try bytes.write(to: file)
        let other = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        #expect(other.embed(Self.texts) == want)
        #expect(other.panelsFromFile == false)
        try expectMapped(dir, want)
        // Cut short by one float.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(try Data(contentsOf: file).count - 4))
        try handle.close()
        let short = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        #expect(short.embed(Self.texts) == want)
        #expect(short.panelsFromFile == false)
        try expectMapped(dir, want)
    }

    /// A fresh encoder on `dir` maps the (rewritten) file and gives `want`.
    func expectMapped(_ dir: URL, _ want: [[Float]]) throws {
        let encoder = try MiniLMEncoder(modelDirectory: dir, kernel: .best)
        #expect(encoder.embed(Self.texts) == want)
        #expect(encoder.panelsFromFile == true)
    }

    @Test("the blas path neither reads nor writes panels")
    func blasHasNone() throws {
        guard KernelPath.blas.isSupported else {
            print("packed panels: skipping the blas case: no system CBLAS loads here")
            return
        }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let encoder = try MiniLMEncoder(modelDirectory: dir, kernel: .blas)
        _ = encoder.embed(Self.texts)
        #expect(encoder.panelsFromFile == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("panels-") })
    }
}

