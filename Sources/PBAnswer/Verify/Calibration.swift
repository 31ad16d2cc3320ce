import Foundation
import PBCore

/// How gate scores become a confidence: raw = bias + Σ weight × score over the gates, then
/// Platt scaling, confidence = 1 / (1 + exp(a × raw + b)).
///
/// The weights are set by hand (a weighted mean: they sum to 1, bias 0). a and b are fitted by
/// Evals/answers/calibrate.py on the fit half of SQuAD 2.0 (dev half, even positions: 955 answers
/// shown by the whole pipe, 409 of them right) and committed in Evals/answers/calibration.json;
/// on the check half the expected calibration error of the shown answers is 0.022 (0.346 before
/// the fit). So the confidence of a shown answer is the probability that it is right, on data
/// like SQuAD. A fit on your own questions is loaded with `--calibration FILE`:
/// {"weights": {"A": ..., ..., "I": ...}, "bias": ..., "platt": {"a": ..., "b": ...}}.
public struct Calibration: Codable, Equatable, Sendable {
    public struct Platt: Codable, Equatable, Sendable {
        public var a: Double
        public var b: Double
        public init(a: Double, b: Double) {
            self.a = a
            self.b = b
        }
    }

    /// Gate to weight; a gate left out weighs 0.
    public var weights: [Gate: Double]
    public var bias: Double
    public var platt: Platt

    public init(weights: [Gate: Double], bias: Double, platt: Platt) {
        self.weights = weights
        self.bias = bias
        self.platt = platt
    }

    public static let defaults = Calibration(
        weights: [.retrieval: 0.15, .coverage: 0.15, .numbers: 0.05, .contradictions: 0.05, .grounding: 0.20, .quotes: 0.05,
                  .wellFormed: 0.05, .completeness: 0.20, .isolation: 0.10],
        bias: 0, platt: Platt(a: -15.9442, b: 15.1402))

    /// The uncalibrated quality score of a set of gate results.
    public func raw(_ gates: [Gate: GateResult]) -> Double {
        // In the gates' order, so the same scores always sum to the same bits.
        var s = bias
        for gate in Gate.allCases { s += (weights[gate] ?? 0) * (gates[gate]?.score ?? 0) }
        return s
    }

    /// Platt scaling of a raw score.
    public func confidence(raw: Double) -> Double { 1 / (1 + exp(platt.a * raw + platt.b)) }

    /// Reads a calibration file; unknown gate letters are an error, other keys are ignored.
    public static func load(path: String) throws -> Calibration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure(.cannotOpen, "--calibration: cannot open '\(path)'")
        }
        // Read with letters as plain keys first, so an unknown one is named.
        struct File: Decodable {
            var weights: [String: Double]
            var bias: Double
            var platt: Platt
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw ToolFailure(.badInput, "--calibration: \(path): expected {\"weights\": {letter: number}, \"bias\": number, \"platt\": {\"a\": number, \"b\": number}}")
        }
        if let bad = file.weights.keys.sorted().first(where: { Gate(rawValue: $0) == nil }) {
            throw ToolFailure(.badInput, "--calibration: \(path): unknown gate '\(bad)' (expected A to I)")
        }
        let c = Calibration(weights: Dictionary(uniqueKeysWithValues: file.weights.compactMap { k, w in Gate(rawValue: k).map { ($0, w) } }),
                            bias: file.bias, platt: file.platt)
        guard ([c.bias, c.platt.a, c.platt.b] + Array(c.weights.values)).allSatisfy(\.isFinite) else {
            throw ToolFailure(.badInput, "--calibration: \(path): numbers must be finite")
        }
        return c
    }
}
