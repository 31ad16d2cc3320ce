/// `verdict`, added to a query by pb-verify: whether the answer may be shown, and how sure we are.
///
/// When a critical gate fails the status is `abstained`: pb-verify then replaces `answer.text`
/// with the abstention (which says what was searched) and keeps the withheld text here.
public struct Verdict: Codable, Equatable, Sendable {
    public var status: VerdictStatus
    /// Calibrated probability that the answer is right (Platt scaling of `raw`).
    public var confidence: Double
    /// The uncalibrated quality score the confidence was computed from.
    public var raw: Double
    public var mode: Mode
    /// The confidence floor of the mode (0.10 fast, 0.20 standard, 0.30 deep) or of --threshold.
    public var threshold: Double
    /// Each gate (by its letter, A ... I) to its result.
    public var gates: [Gate: GateResult]
    /// The critical gates that failed, in order.
    public var failed: [Gate]
    /// The abstention message, when abstained.
    public var message: String?
    /// The answer text that was withheld, when abstained.
    public var withheld: String?

    public init(status: VerdictStatus, confidence: Double, raw: Double, mode: Mode, threshold: Double,
                gates: [Gate: GateResult], failed: [Gate], message: String? = nil, withheld: String? = nil) {
        self.status = status
        self.confidence = confidence
        self.raw = raw
        self.mode = mode
        self.threshold = threshold
        self.gates = gates
        self.failed = failed
        self.message = message
        self.withheld = withheld
    }
}

/// One verification gate's outcome.
public struct GateResult: Codable, Equatable, Sendable {
    public var pass: Bool
    /// In 0...1, higher is better supported.
    public var score: Double
    /// Whether failing this gate forces an abstention.
    public var critical: Bool
    /// One lowercase sentence saying why.
    public var reason: String

    public init(pass: Bool, score: Double, critical: Bool, reason: String) {
        self.pass = pass
        self.score = score
        self.critical = critical
        self.reason = reason
    }
}
