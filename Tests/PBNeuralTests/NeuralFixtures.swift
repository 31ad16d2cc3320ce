import Foundation
import Testing
import PBCore

/// Where the real all-MiniLM-L6-v2 folder and the reference outputs live for these tests:
/// PB_MODEL_DIR, else ${PB_HOME:-${XDG_DATA_HOME:-~/.local/share}/pocketbrains}/models/all-MiniLM-L6-v2.
enum NeuralFixtures {
    /// PBEnvironment's answer: PB_MODEL_DIR, else the model folder under PB_HOME.
    static let modelDirectory: URL = PBEnvironment().modelDirectory

    static var modelPresent: Bool {
        FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent("model.safetensors").path)
            && FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent("vocab.txt").path)
    }

    static let missingModel: Comment = "model folder absent (set PB_MODEL_DIR or run `make model`)"

    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The golden file is in the evaluation data in the repository (Evals/data/fixtures).
    static let goldenFile: URL? = {
        let file = packageRoot.appendingPathComponent("Evals/data/fixtures/minilm-golden.jsonl")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }()

    struct Golden: Decodable {
        let text: String
        let token_ids: [Int32]
        let vector: [Float]
    }

    static func golden() throws -> [Golden] {
        guard let goldenFile else { return [] }
        let data = try Data(contentsOf: goldenFile)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Golden.self, from: Data($0.utf8))
        }
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var dot = 0.0, na = 0.0, nb = 0.0
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            na += Double(x) * Double(x)
            nb += Double(y) * Double(y)
        }
        return dot / (na.squareRoot() * nb.squareRoot())
    }
}
