import Foundation
import PBCore
import PBNeural

/// Scores passages against a query by MaxSim late interaction, for Evals/rerank/late.sh, which
/// measures whether it would pay as a reranking feature (on SciFact it does not: make eval-late, Evals/README.md).
/// In: `{"q": text, "docs": [text, ...]}` per line. Out: `{"maxsim": [score per doc]}` per line.
enum LateInteractionProbe {
    struct Input: Decodable {
        var q: String
        var docs: [String]
    }

    struct Output: Encodable {
        var maxsim: [Double]
    }

    static func run() -> Int32 {
        do {
            let encoder = try MiniLMEncoder(modelDirectory: PBEnvironment().modelDirectory)
            let writer = NDJSONWriter.standardOutput
            while let line = readLine() {
                let input = try JSONDecoder().decode(Input.self, from: Data(line.utf8))
                let states = encoder.tokenStates([input.q] + input.docs)
                let scores = states.dropFirst().map { Double(LateInteraction.maxSim(query: states[0], document: $0)) }
                try writer.writeValue(Output(maxsim: scores.map { ($0 * 1e6).rounded() / 1e6 }))
            }
            return 0
        } catch {
            Diagnostics.shared.error("maxsim: \(error)")
            return 65
        }
    }
}
