import Foundation
import PBCore

/// Gate F, quote faithfulness: text the answer puts in quotation marks appears verbatim in the
/// evidence it cites, and every abbreviation the answer uses ("PCC", "ECU (engine control
/// unit)") comes from the source it cites, not from another document that happened to share the
/// desk. Verbatim allows only differences of case, spacing and typographic quotes and dashes.
public struct QuoteFaithfulnessGate: VerificationGate {
    public static let letter = Gate.quotes
    /// Quotations shorter than this many characters ("a", "x") are not checked.
    public var shortest = 3

    public init() {}

    /// Texts inside straight or curly double quotes, or guillemets.
    public static func quotations(_ text: String) -> [String] {
        let pairs: [Character: Character] = ["\"": "\"", "“": "”", "«": "»", "„": "“"]
        var out: [String] = []
        var open: Character?
        var current = ""
        for ch in text {
            if let o = open {
                if ch == pairs[o]! || (o == "“" && ch == "\"") { out.append(current); open = nil; current = "" } else { current.append(ch) }
            } else if pairs[ch] != nil {
                open = ch
            }
        }
        return out
    }

    /// Abbreviations: words of two to eight letters, at least two of them capitals and no
    /// lowercase letter but a plural "s" ("ECU", "ECUs", "R&D").
    public static func abbreviations(_ text: String) -> [String] {
        var out: [String] = []
        for raw in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "&") }) {
            var w = String(raw)
            if w.hasSuffix("s"), w.count > 2 { w.removeLast() }
            let capitals = w.filter { $0.isUppercase }.count
            guard w.count >= 2, w.count <= 8, capitals >= 2, !w.contains(where: { $0.isLowercase }),
                  w.first!.isLetter, !out.contains(w) else { continue }
            out.append(w)
        }
        return out
    }

    /// "ABBR (long form)" and "long form (ABBR)" pairs in `text`.
    public static func expansions(_ text: String) -> [(abbreviation: String, longForm: String)] {
        var out: [(String, String)] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i] == "(", let close = chars[i...].firstIndex(of: ")") else { i += 1; continue }
            let inner = String(chars[(i + 1)..<close]).trimmingCharacters(in: .whitespaces)
            let before = String(chars[..<i]).split(whereSeparator: { $0 == " " || $0 == "\n" })
            if let abbr = abbreviations(inner).first, abbr.count >= inner.count - 1 {
                // long form (ABBR): as many words before it as the abbreviation has letters.
                let words = before.suffix(abbr.count).joined(separator: " ")
                out.append((abbr, words))
            } else if let last = before.last.map(String.init), let abbr = abbreviations(last).first, !inner.isEmpty {
                out.append((abbr, inner))
            }
            i = close + 1
        }
        return out
    }

    static func normalise(_ s: String) -> String {
        var out = ""
        var space = false
        for ch in s.lowercased() {
            let c: Character
            switch ch {
            case "“", "”", "„", "«", "»": c = "\""
            case "‘", "’": c = "'"
            case "–", "—": c = "-"
            default: c = ch
            }
            if c.isWhitespace { space = !out.isEmpty } else { if space { out.append(" ") }; out.append(c); space = false }
        }
        return out
    }

    public func check(_ c: VerificationCase) -> GateResult {
        var checked = 0
        var problems: [String] = []
        // Sentences without citations are checked against everything the answer cites.
        let sentences = c.answer.sentences.isEmpty ? [AnswerSentence(text: c.answerText, cites: c.markers.numbers)] : c.answer.sentences
        // An abbreviation the question uses may be repeated, unless another document supplies it.
        let asked = Self.abbreviations(c.question)
        for s in sentences {
            let cites = c.citations(of: s)
            let cited = Self.normalise(cites.isEmpty ? c.allCitedText : c.citedText(of: s))
            for q in Self.quotations(s.text) where q.count >= shortest {
                checked += 1
                if !cited.contains(Self.normalise(q)) { problems.append("\"\(q.prefix(40))\" is not verbatim in its evidence") }
            }
            // The source an abbreviation must come from: the cited documents' pieces on the desk.
            let docs = cites.isEmpty ? Set(c.citedPassages.flatMap { (c.pieces[$0] ?? []).map(\.docID) }) : c.citedDocuments(of: s)
            let own = c.evidence.filter { docs.contains($0.docID) }.map(\.text).joined(separator: "\n") + "\n" + cites.map(\.quote).joined(separator: "\n")
            let others = c.evidence.filter { !docs.contains($0.docID) }
            let pairs = Self.expansions(s.text)
            let ownAbbreviations = Set(Self.abbreviations(own))
            for abbr in Self.abbreviations(s.text) {
                checked += 1
                if ownAbbreviations.contains(abbr) { continue }
                if let elsewhere = others.first(where: { Self.abbreviations($0.text).contains(abbr) }) {
                    problems.append("\(abbr) comes from \(elsewhere.path), not the cited source")
                } else if !asked.contains(abbr) {
                    problems.append("\(abbr) is not in the cited source")
                }
            }
            for (abbr, longForm) in pairs {
                let terms = EvidenceCoverageGate.coverage(of: longForm, in: own)
                checked += 1
                if terms >= 1 { continue }
                if let elsewhere = others.first(where: { EvidenceCoverageGate.coverage(of: longForm, in: $0.text) >= 1 }) {
                    problems.append("\(abbr) is expanded as in \(elsewhere.path), not as in the cited source")
                } else {
                    problems.append("the expansion of \(abbr) is not in the cited source")
                }
            }
        }
        if checked == 0 { return .finding(true, 1, "no quotations or abbreviations to check") }
        let score = Double(checked - problems.count) / Double(checked)
        if problems.isEmpty {
            return .finding(true, score, "quotations and abbreviations (\(checked)) found in their own sources")
        }
        return .finding(false, score, problems.prefix(2).joined(separator: "; "))
    }
}
