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
    private let directory: String
    /// Per part of speech, lemma to its synsets' byte offsets in data.POS, most frequent sense first.
    private var senses: [PartOfSpeech: [String: [Int]]] = [:]
    private var data: [PartOfSpeech: Data] = [:]
    private let lock = NSLock()

    /// Nil when the folder has no index files.
    public init?(directory: String) {
        self.directory = directory
        for pos in PartOfSpeech.allCases {
            guard let text = try? String(contentsOfFile: "\(directory)/index.\(pos.rawValue)", encoding: .utf8) else { return nil }
            var set = Set<String>()
            var offsets: [String: [Int]] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
                let fields = line.split(separator: " ")
                guard fields.count >= 4, let count = Int(fields[2]) else { continue }
                let lemma = String(fields[0])
                set.insert(lemma)
                offsets[lemma] = fields.suffix(count).compactMap { Int($0) }
            }
            lemmas[pos] = set
            senses[pos] = offsets
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

    /// Words that mean the same as `word` in one of its `senses` most frequent senses (its
    /// synsets' other members, "_" read as a space), for any part of speech it has; the word itself
    /// and its base forms are left out. "job" gives "employment", "occupation", "line of work".
    public func synonyms(of word: String, senses limit: Int = 3) -> [String] {
        let w = word.lowercased()
        var out: [String] = []
        var seen: Set<String> = [w]
        for (pos, base) in baseForms(w) {
            seen.insert(base)
            for offset in (senses[pos]?[base] ?? []).prefix(limit) {
                for member in synset(pos, at: offset) where seen.insert(member).inserted { out.append(member) }
            }
        }
        return out
    }

    /// The member words of the synset at `offset` of data.POS.
    func synset(_ pos: PartOfSpeech, at offset: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if data[pos] == nil {
            data[pos] = (try? Data(contentsOf: URL(fileURLWithPath: "\(directory)/data.\(pos.rawValue)"), options: .alwaysMapped)) ?? Data()
        }
        guard let bytes = data[pos], offset >= 0, offset < bytes.count else { return [] }
        var end = offset
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        let fields = String(decoding: bytes[offset..<end], as: UTF8.self).split(separator: " ")
        // offset lex_filenum ss_type w_cnt (hex) word lex_id word lex_id ...
        guard fields.count > 4, let count = Int(fields[3], radix: 16) else { return [] }
        return (0..<count).compactMap { i in
            let at = 4 + 2 * i
            guard at < fields.count else { return nil }
            var word = String(fields[at]).replacingOccurrences(of: "_", with: " ")
            // Adjectives carry a syntactic marker: "big(a)".
            if let paren = word.firstIndex(of: "(") { word = String(word[..<paren]) }
            return word.lowercased()
        }
    }

    /// WordNet's detachment rules (morph.c).
    static let rules: [PartOfSpeech: [(String, String)]] = [
        .noun: [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
        .verb: [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
        .adj: [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    ]
}
