import Foundation

/// Princeton WordNet 3.0, as Debian's `wordnet-base` installs it (/usr/share/wordnet): which
/// words are English, and the base form of an inflected word by WordNet's own "morphy" rules
/// (its suffix rules and exception lists), so that "insurers", "iced" and "summarised" are known
/// words while "bolier" and "insurence" are not.
///
/// Loaded on first use, once per process: the four index files are 6 MB, read in about 40 ms,
/// and a question needs them only when one of its words is not in the library.
public final class WordNet: @unchecked Sendable {
    /// The folder of the database files; `PB_WORDNET_DIR` names another.
    public static var defaultDirectory: String {
        ProcessInfo.processInfo.environment["PB_WORDNET_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/wordnet"
    }

    /// The database at the default folder, or nil when it is not installed.
    public static let shared: WordNet? = WordNet(directory: defaultDirectory)

    public enum PartOfSpeech: String, CaseIterable, Sendable { case noun, verb, adj, adv }

    private var lemmas: [PartOfSpeech: Set<String>] = [:]
    private var exceptions: [PartOfSpeech: [String: [String]]] = [:]

    /// Nil when the folder has no index files.
    public init?(directory: String) {
        for pos in PartOfSpeech.allCases {
            guard let text = try? String(contentsOfFile: "\(directory)/index.\(pos.rawValue)", encoding: .utf8) else { return nil }
            var set = Set<String>()
            for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
                if let space = line.firstIndex(of: " ") { set.insert(String(line[..<space])) }
            }
            lemmas[pos] = set
            var exc: [String: [String]] = [:]
            if let text = try? String(contentsOfFile: "\(directory)/\(pos.rawValue).exc", encoding: .utf8) {
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: " ").map(String.init)
                    if parts.count >= 2 { exc[parts[0], default: []] += parts.dropFirst() }
                }
            }
            exceptions[pos] = exc
        }
    }

    /// Whether `word` (any case) is an English word or an inflection of one.
    public func knows(_ word: String) -> Bool {
        !baseForms(word).isEmpty
    }

    /// The lemmas `word` is a form of, by part of speech (morphy: exceptions, then suffix rules).
    public func baseForms(_ word: String) -> [(PartOfSpeech, String)] {
        let w = word.lowercased().replacingOccurrences(of: " ", with: "_")
        var out: [(PartOfSpeech, String)] = []
        for pos in PartOfSpeech.allCases {
            guard let set = lemmas[pos] else { continue }
            var seen = Set<String>()
            func add(_ base: String) { if set.contains(base), seen.insert(base).inserted { out.append((pos, base)) } }
            add(w)
            for base in exceptions[pos]?[w] ?? [] { add(base) }
            for (suffix, ending) in Self.rules[pos] ?? [] where w.hasSuffix(suffix) && w.count > suffix.count {
                add(String(w.dropLast(suffix.count)) + ending)
            }
        }
        return out
    }

    /// WordNet's detachment rules (morph.c).
    static let rules: [PartOfSpeech: [(String, String)]] = [
        .noun: [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
        .verb: [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
        .adj: [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    ]
}
