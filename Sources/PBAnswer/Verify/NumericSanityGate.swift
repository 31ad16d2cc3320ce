import PBCore

/// Gate C, numeric sanity: every number the answer states appears somewhere in the retrieved
/// candidates (every hit and every piece of evidence, with their titles and section names),
/// not only in the passages it cites, so that a correct number whose passage lost its place on
/// the desk is not flagged; a memory's evidence also holds the numbers of its date
/// (EvidenceDate). Numbers are compared in canonical form (`NumberMentions`).
public struct NumericSanityGate: VerificationGate {
    public static let letter = Gate.numbers

    public init() {}

    public func check(_ c: VerificationCase) -> GateResult {
        var stated: [String] = []
        for n in NumberMentions.digits(c.answerText) where !stated.contains(n) { stated.append(n) }
        guard !stated.isEmpty else { return .finding(true, 1, "no numbers in the answer") }
        var sources: Set<String> = []
        for h in c.hits {
            sources.formUnion(NumberMentions.all(h.text))
            sources.formUnion(NumberMentions.all(([h.title] + h.section).joined(separator: "\n")))
        }
        for e in c.evidence {
            sources.formUnion(NumberMentions.all(e.text))
            if let date = EvidenceDate.phrase(of: e) { sources.formUnion(NumberMentions.all(date)) }
            sources.formUnion(NumberMentions.all(([e.title] + e.section).joined(separator: "\n")))
        }
        let missing = stated.filter { !sources.contains($0) }
        let score = Double(stated.count - missing.count) / Double(stated.count)
        if missing.isEmpty {
            return .finding(true, score, "the answer's numbers (\(stated.count)) are all in the retrieved text")
        }
        let list = missing.prefix(3).joined(separator: ", ")
        return .finding(false, score, "\(missing.count) of \(stated.count) numbers not in the retrieved text: \(list)")
    }
}
