import Foundation
import PBCore

/// Gate G, well-formed output: the answer is structurally sound. It is not empty; every [n]
/// marker names a citation; every citation names a passage on the desk and a piece of it, its
/// byte span lies inside that piece, and the piece's bytes there are exactly its quote (so a
/// reader jumping to the source lands on the cited words); the sentences cite only existing
/// citations; and nothing is broken: an unclosed code fence, unbalanced brackets, chat-template
/// tokens, replacement characters, or one sentence repeated over and over.
public struct WellFormedOutputGate: VerificationGate {
    public static let letter = Gate.wellFormed

    public init() {}

    public func check(_ c: VerificationCase) -> GateResult {
        let text = c.answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .finding(false, 0, "the answer is empty") }
        var problems: [String] = []
        let numbers = Set(c.answer.citations.map(\.n))
        if numbers.count != c.answer.citations.count { problems.append("two citations share a number") }
        for n in c.markers.numbers where !numbers.contains(n) {
            problems.append("marker [\(n)] has no citation"); break
        }
        for m in c.markers.malformed.prefix(1) { problems.append("malformed marker \(m)") }
        for s in c.answer.sentences {
            if let n = s.cites.first(where: { !numbers.contains($0) }) { problems.append("a sentence cites [\(n)], which does not exist"); break }
        }
        if c.answer.sentences.isEmpty { problems.append("the answer has no sentences") }
        for citation in c.answer.citations {
            if let p = problem(with: citation, in: c) { problems.append(p) }
        }
        // Markup the sources themselves carry (a list item "a)", a table's fence) is not the
        // writer's fault: only problems the quotes do not have count.
        let inherited = Set(markup(c.answer.citations.map(\.quote).joined(separator: "\n")))
        problems += markup(c.markers.stripped).filter { !inherited.contains($0) }
        if problems.isEmpty {
            return .finding(true, 1, "citations resolve to their quotes (\(c.answer.citations.count)); no broken markup")
        }
        return .finding(false, 0.5 / Double(1 + problems.count), problems.prefix(3).joined(separator: "; "))
    }

    /// Why a citation does not resolve to its quote, or nil when it does.
    func problem(with citation: Citation, in c: VerificationCase) -> String? {
        let label = "citation [\(citation.n)]"
        guard let pieces = c.pieces[citation.evidence] else { return "\(label) points at passage \(citation.evidence), which is not on the desk" }
        guard let piece = pieces.first(where: { $0.chunkID == citation.chunkID }) else {
            return "\(label): chunk \(citation.chunkID) is not a piece of passage \(citation.evidence)"
        }
        guard citation.start >= piece.start, citation.end <= piece.end, citation.start < citation.end else {
            return "\(label): span [\(citation.start), \(citation.end)) is outside its piece [\(piece.start), \(piece.end))"
        }
        let bytes = Array(piece.text.utf8)
        let lo = citation.start - piece.start, hi = citation.end - piece.start
        guard hi <= bytes.count, String(decoding: bytes[lo..<hi], as: UTF8.self) == citation.quote else {
            return "\(label): the source bytes at its span are not its quote"
        }
        if citation.path != piece.path { return "\(label): path \(citation.path) is not its piece's" }
        return nil
    }

    /// Broken markup and degenerate generation in the answer's text (markers removed).
    func markup(_ text: String) -> [String] {
        var problems: [String] = []
        if text.components(separatedBy: "```").count % 2 == 0 { problems.append("an unclosed code fence") }
        var depth: [Character: Int] = ["(": 0, "[": 0, "{": 0]
        let closing: [Character: Character] = [")": "(", "]": "[", "}": "{"]
        var unbalanced = false
        for ch in text {
            if depth[ch] != nil { depth[ch]! += 1 }
            if let o = closing[ch] { depth[o]! -= 1; if depth[o]! < 0 { unbalanced = true } }
        }
        if unbalanced || depth.values.contains(where: { $0 != 0 }) { problems.append("unbalanced brackets") }
        for token in ["<|", "|>", "</s>", "<s>", "[INST]", "[/INST]", "<unk>", "<pad>"] where text.contains(token) {
            problems.append("a chat-template token \(token)"); break
        }
        if text.contains("\u{FFFD}") { problems.append("a replacement character (broken encoding)") }
        var counts: [String: Int] = [:]
        for line in text.split(whereSeparator: { $0 == "." || $0 == "\n" }) {
            let key = line.trimmingCharacters(in: .whitespaces).lowercased()
            if key.count >= 12 { counts[key, default: 0] += 1 }
        }
        if counts.values.contains(where: { $0 >= 3 }) { problems.append("a sentence repeated three times or more") }
        return problems
    }
}
