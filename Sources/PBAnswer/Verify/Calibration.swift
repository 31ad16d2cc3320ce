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

    /// Gate letter to weight; a letter left out weighs 0.
    public var weights: [String: Double]
    public var bias: Double
    public var platt: Platt

    public init(weights: [String: Double], bias: Double, platt: Platt) {
        self.weights = weights
        self.bias = bias
        self.platt = platt
    }

    public static let letters = ["A", "B", "C", "D", "E", "F", "G", "H", "I"]

    public static let defaults = Calibration(
        weights: ["A": 0.15, "B": 0.15, "C": 0.05, "D": 0.05, "E": 0.20, "F": 0.05, "G": 0.05, "H": 0.20, "I": 0.10],
        bias: 0, platt: Platt(a: -15.9442, b: 15.1402))

    /// The uncalibrated quality score of a set of gate results.
    public func raw(_ gates: [String: GateResult]) -> Double {
        var s = bias
        for (letter, w) in weights { s += w * (gates[letter]?.score ?? 0) }
        return s
    }

    /// Platt scaling of a raw score.
    public func confidence(raw: Double) -> Double { 1 / (1 + exp(platt.a * raw + platt.b)) }

    /// Reads a calibration file; unknown gate letters are an error, other keys are ignored.
    public static func load(path: String) throws -> Calibration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure(.cannotOpen, "--calibration: cannot open '\(path)'")
        }
        let c: Calibration
        do {
            c = try JSONDecoder().decode(Calibration.self, from: data)
        } catch {
            throw ToolFailure(.badInput, "--calibration: \(path): expected {\"weights\": {letter: number}, \"bias\": number, \"platt\": {\"a\": number, \"b\": number}}")
        }
        if let bad = c.weights.keys.sorted().first(where: { !letters.contains($0) }) {
            throw ToolFailure(.badInput, "--calibration: \(path): unknown gate '\(bad)' (expected A to I)")
        }
        guard ([c.bias, c.platt.a, c.platt.b] + Array(c.weights.values)).allSatisfy(\.isFinite) else {
            throw ToolFailure(.badInput, "--calibration: \(path): numbers must be finite")
        }
        return c
    }
}
