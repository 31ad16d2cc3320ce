import PBCore

/// One of the nine checks pb-verify runs on an answer against its own evidence.
///
/// A gate only judges: it returns pass, a score in 0...1 and a one-line reason. Whether its
/// failure forces an abstention is the verifier's decision (`Verifier.Settings.critical`), so
/// the same gate can be made critical or advisory without touching it.
public protocol VerificationGate: Sendable {
    /// Which of the nine it is (its letter, A ... I, as pb-verify(1) lists them).
    static var letter: Gate { get }
    func check(_ c: VerificationCase) -> GateResult
}

extension GateResult {
    /// A gate's finding; `critical` is filled in by the verifier.
    static func finding(_ pass: Bool, _ score: Double, _ reason: String) -> GateResult {
        GateResult(pass: pass, score: (min(1, max(0, score.isFinite ? score : 0)) * 1e4).rounded() / 1e4,
                   critical: false, reason: reason)
    }
}
