import Foundation

/// Splits a compound request into clauses: on sentence ends always, and on ", and then", ", then",
/// " and ", commas and semicolons only where the words after open a command, so "call mum and dad"
/// stays one task. A list frame ("add 3 tasks: a, b and c") keeps its list in one clause.
public struct ClauseSplitter: Sendable {
    public let grammar: IntentGrammar

    public init(grammar: IntentGrammar) {
        self.grammar = grammar
    }

    static let separator = #",\s*and then\s+|,\s*then\s+|\s+and then\s+|\s+then\s+|;\s*|,\s*and\s+|\s+and\s+|,\s*|\s+&\s+"#

    public func split(_ text: String) -> [String] {
        sentences(text).flatMap(clauses)
    }

    /// The clauses with a scope number: a new scope starts at each sentence and after each
    /// "then", so "create project X and add a, then call Mom" files a into X but not the call.
    public func scopedSplit(_ text: String) -> [(clause: String, scope: Int)] {
        var out: [(String, Int)] = []
        var scope = 0
        for sentence in sentences(text) {
            for (i, piece) in scopedClauses(sentence).enumerated() {
                if i == 0 || piece.afterThen { scope += 1 }
                out.append((piece.clause, scope))
            }
        }
        return out
    }

    /// Sentences end at ".", "!" or "?" followed by a space; the mark stays with its sentence.
    func sentences(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        let chars = Array(text)
        for (i, ch) in chars.enumerated() {
            current.append(ch)
            if ".!?".contains(ch), i + 1 < chars.count, chars[i + 1] == " " || chars[i + 1] == "\n",
               !ClauseSplitter.abbreviation(current) {
                out.append(current)
                current = ""
            } else if ch == "\n" {
                out.append(current)
                current = ""
            }
        }
        out.append(current)
        return out.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    static func abbreviation(_ s: String) -> Bool {
        let last = s.split(separator: " ").last.map { $0.lowercased() } ?? ""
        // An initial ("u. s. d.", "J. Smith") does not end a sentence.
        if last.count == 2, last.first!.isLetter { return true }
        return ["dr.", "mr.", "mrs.", "ms.", "st.", "e.g.", "i.e.", "etc.", "vs.", "no."].contains(last)
    }

    /// The clauses of one sentence.
    func clauses(_ sentence: String) -> [String] {
        scopedClauses(sentence).map(\.clause)
    }

    /// Clauses of one sentence, each marked when the separator before it said "then".
    func scopedClauses(_ sentence: String) -> [(clause: String, afterThen: Bool)] {
        // "then" always ends what came before, even a list ("add 2 tasks: a and b, then call Mom").
        let then = ClausePattern.shared.regex(#",\s*(?:and\s+)?then\s+|\s+and then\s+"#)
        let ns = sentence as NSString
        if let m = then.firstMatch(in: sentence, range: NSRange(location: 0, length: ns.length)), m.range.location > 0 {
            let head = scopedClauses(ns.substring(to: m.range.location))
            var tail = scopedClauses(ns.substring(from: m.range.location + m.range.length))
            if !tail.isEmpty { tail[0].afterThen = true }
            return head + tail
        }
        if ClausePattern.shared.match(IntentGrammar.listFrame, sentence) != nil || ClausePattern.shared.match(IntentGrammar.projectListFrame, sentence) != nil {
            let t = sentence.trimmingCharacters(in: .whitespaces)
            return t.isEmpty ? [] : [(t, false)]
        }
        let r = ClausePattern.shared.regex(ClauseSplitter.separator)
        let seps = r.matches(in: sentence, range: NSRange(location: 0, length: ns.length))
        var out: [(String, Bool)] = []
        var current = ""
        var cursor = 0
        var afterThen = false
        for (i, sep) in seps.enumerated() {
            let piece = ns.substring(with: NSRange(location: cursor, length: sep.range.location - cursor))
            current += piece
            let nextEnd = i + 1 < seps.count ? seps[i + 1].range.location : ns.length
            let next = ns.substring(with: NSRange(location: sep.range.location + sep.range.length, length: nextEnd - sep.range.location - sep.range.length))
            let tail = ns.substring(from: sep.range.location + sep.range.length)
            if grammar.opensCommand(next) || grammar.opensCommand(tail), !current.trimmingCharacters(in: .whitespaces).isEmpty,
               ClausePattern.shared.match(IntentGrammar.listFrame, current + " x") == nil {
                out.append((current, afterThen))
                current = ""
                afterThen = ns.substring(with: sep.range).lowercased().contains("then")
            } else {
                current += ns.substring(with: sep.range)
            }
            cursor = sep.range.location + sep.range.length
        }
        current += ns.substring(from: cursor)
        out.append((current, afterThen))
        return out.map { ($0.0.trimmingCharacters(in: .whitespaces), $0.1) }.filter { !$0.0.isEmpty }
    }
}
