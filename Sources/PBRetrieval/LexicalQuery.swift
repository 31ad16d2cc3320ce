import PBText

/// Builds an FTS5 MATCH expression from free text so that nothing in the text is FTS5 syntax:
/// every word becomes a quoted string (inside which FTS5 sees no operators, columns, prefixes or
/// NEAR groups), and the words are OR-ed so BM25 ranks documents by how many and how rare.
public enum LexicalQuery {
    /// The words of `text` as FTS5's unicode61 tokenizer would find them (letters and digits),
    /// lowercased and, unless `keepingRepeats`, without repeats, in order.
    public static func terms(_ text: String, keepingRepeats: Bool = false) -> [String] {
        var terms: [String] = []
        var seen: Set<String> = []
        var word = ""
        func flush() {
            let w = word.lowercased()
            if !w.isEmpty, seen.insert(w).inserted || keepingRepeats { terms.append(w) }
            word = ""
        }
        for scalar in text.unicodeScalars {
            let p = scalar.properties
            if p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark {
                word.unicodeScalars.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return terms
    }

    /// `"word1" OR "word2" ...` without stopwords (unless the text has nothing else), or nil when
    /// the text has no words at all.
    public static func match(_ text: String) -> String? {
        let all = terms(text)
        let content = all.filter { !Stopwords.english.contains($0) }
        let t = content.isEmpty ? all : content
        guard !t.isEmpty else { return nil }
        // A double quote inside a string is written twice; terms have none, but stay safe.
        return t.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
