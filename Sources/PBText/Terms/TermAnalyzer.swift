/// Words for the reranker's text features: lowercased letters-and-digits runs (as FTS5's unicode61
/// tokenizer splits them), stopwords marked, and a light suffix stemmer so that "mutations" matches
/// "mutation" and "increased" matches "increase". Deliberately light: a full Porter stemmer merges
/// too much in biomedical text ("organ"/"organic"), and BM25 already covers exact forms.
public enum TermAnalyzer {
    /// Words that ask rather than say: a source answering "what is it called?" need not say "called".
    public static let questionVocabulary: Set<String> = [
        "name", "call", "called", "type", "kind", "sort", "many", "much", "year", "date", "time", "number",
        "happen", "happened", "mean", "meant", "describe", "term", "word", "one", "use", "used", "example",
        "thing", "way", "main", "known", "consider", "considered", "list", "tell", "say", "said", "give",
        "percent", "percentage", "amount", "long", "often", "old", "big", "large", "far",
    ]

    /// Every word of `text` in order, with repeats, lowercased and stemmed. The ending of a
    /// contraction or possessive ("'s", "'ve") is not a word: "Maisie's" is "maisie", and "I've
    /// passed" holds no word "ve" for a question to demand; "n't" is read as "not".
    public static func tokens(_ text: String) -> [String] {
        var text = text
        // ASCII text (most of it) is split on bytes; anything else goes through Unicode properties.
        if let fast = text.withUTF8({ asciiTokens($0) }) { return fast.map(stem) }
        var out: [String] = []
        var word = ""
        var elided = false
        func flush() {
            if !word.isEmpty, let w = Self.word(word.lowercased(), elided: elided) { out.append(stem(w)) }
            word = ""
        }
        // An apostrophe straight after a letter or digit: the next run may be an ending.
        var afterApostrophe = false
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                if word.isEmpty { elided = afterApostrophe }
                word.unicodeScalars.append(scalar)
                afterApostrophe = false
            } else {
                afterApostrophe = !word.isEmpty && (scalar == "'" || scalar == "\u{2019}")
                flush()
            }
        }
        flush()
        return out
    }

    /// A run of letters as a word: after an apostrophe (`elided`), a contraction's or the
    /// possessive's ending is none, and "t" (of "n't") is "not".
    static func word(_ lower: String, elided: Bool) -> String? {
        guard elided, contractionEndings.contains(lower) else { return lower }
        return lower == "t" ? "not" : nil
    }

    /// The endings of English contractions and the possessive, as they follow an apostrophe.
    static let contractionEndings: Set<String> = ["s", "t", "d", "m", "ve", "re", "ll"]

    /// Lowercased words of pure-ASCII bytes, or nil when there is a non-ASCII byte.
    static func asciiTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var out: [String] = []
        var word: [UInt8] = []
        word.reserveCapacity(32)
        var elided = false
        var afterApostrophe = false
        func flush() {
            guard !word.isEmpty else { return }
            if let w = Self.word(String(decoding: word, as: UTF8.self), elided: elided) { out.append(w) }
            word.removeAll(keepingCapacity: true)
        }
        for b in bytes {
            if b >= 128 { return nil }
            let lower: UInt8? = (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) ? b : b >= 0x41 && b <= 0x5A ? b + 32 : nil
            if let lower {
                if word.isEmpty { elided = afterApostrophe }
                word.append(lower)
                afterApostrophe = false
            } else {
                afterApostrophe = b == 0x27 && !word.isEmpty
                flush()
            }
        }
        flush()
        return out
    }

    /// The content words of `text` (stopwords out unless nothing else is left), stemmed, in order.
    public static func contentTokens(_ text: String) -> [String] {
        let all = tokens(text)
        let content = all.filter { !isStopword($0) }
        return content.isEmpty ? all : content
    }

    /// The distinct content words of `text`, in first-seen order.
    public static func contentTerms(_ text: String) -> [String] {
        var seen: Set<String> = []
        return contentTokens(text).filter { seen.insert($0).inserted }
    }

    /// Letters, digits and combining marks; ASCII answered without the (slow) property tables.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 128 {
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39)
        }
        let p = s.properties
        return p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark
    }

    public static func isStopword(_ token: String) -> Bool { Stopwords.english.contains(token) }

    public static func isNumber(_ token: String) -> Bool {
        guard let first = token.unicodeScalars.first else { return false }
        return first.properties.numericType != nil
    }

    /// Strips one common English inflection; short words and numbers stay as they are.
    public static func stem(_ w: String) -> String {
        guard w.utf8.count > 3, !isNumber(w), !Stopwords.english.contains(w) else { return w }
        func drop(_ suffix: String, add: String = "") -> String? {
            guard w.hasSuffix(suffix), w.count - suffix.count >= 3 else { return nil }
            return String(w.dropLast(suffix.count)) + add
        }
        if let s = drop("ies", add: "y") { return s }
        if let s = drop("sses", add: "ss") { return s }
        if w.hasSuffix("ss") || w.hasSuffix("us") || w.hasSuffix("is") { return w }
        if let s = drop("ing") { return s }
        if let s = drop("ed") { return s }
        if let s = drop("es"), s.hasSuffix("s") || s.hasSuffix("x") || s.hasSuffix("ch") || s.hasSuffix("sh") { return s }
        if let s = drop("s") { return s }
        return w
    }
}
