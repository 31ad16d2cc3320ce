import PBText
import PBRetrieval

/// Decides whether a question asks for a value (a number, a spec, a dose, a price, a part number,
/// a date or time), and finds where a passage holds a distinctive word right next to a number.
///
/// Rerankers prefer prose to tables, so the table that answers "what is the maximum inlet
/// temperature?" loses to a paragraph that merely talks about temperature. For lookups pb-pack
/// searches the whole library for the question's rarest words sitting within a few words of a
/// number, which is the signature of a specification table, and puts such passages on the desk.
///
/// The rule: a question is a lookup when it contains a digit (model and part numbers, codes,
/// years), a phrase such as "how many", "how much", "how long", "what time", "what temperature",
/// or a word naming a quantity (`cueWords`: number, price, cost, dose, size, capacity, part,
/// model, temperature, pressure, date, time, when, ...).
public enum LookupQuestion {
    /// Words (after TermAnalyzer's light stemming) that ask for a value.
    static let cueWords: Set<String> = [
        "number", "spec", "specification", "dose", "dosage", "price", "cost", "fee", "charge", "size", "capacity",
        "part", "model", "serial", "code", "temperature", "pressure", "voltage", "wattage", "watt", "volt", "amp",
        "weight", "length", "width", "height", "depth", "dimension", "rate", "amount", "total", "sum", "percentage",
        "percent", "torque", "speed", "duration", "distance", "volume", "frequency", "date", "time", "year", "when",
        "deadline", "phone", "telephone", "balance", "interval", "limit", "minimum", "maximum", "quantity", "figure",
        "version",
    ]

    /// Second words after "how" that ask for a quantity ("how many", "how long", ...).
    static let howWords: Set<String> = ["many", "much", "long", "old", "far", "often", "big", "large", "heavy", "tall",
                                        "wide", "high", "hot", "cold", "fast", "deep", "soon", "late", "early"]

    /// Words that frame a lookup but say nothing about where the answer is.
    static let frameWords: Set<String> = ["many", "much", "number", "long", "often", "far", "old", "big", "large", "amount",
                                          "value", "exactly", "quantity", "figure", "need", "use"]

    public static func isLookup(_ question: String) -> Bool {
        let words = TermAnalyzer.tokens(question)
        if words.contains(where: { $0.contains(where: \.isNumber) }) { return true }
        for (a, b) in zip(words, words.dropFirst()) where a == "how" && howWords.contains(b) { return true }
        return words.contains { cueWords.contains($0) }
    }

    /// The question's words worth looking for (FTS-style terms, stopwords and framing words out),
    /// in order, without repeats.
    public static func searchTerms(_ question: String) -> [String] {
        LexicalQuery.terms(question).filter {
            !TermAnalyzer.isStopword($0) && !frameWords.contains(TermAnalyzer.stem($0)) && $0 != "how" && $0 != "what"
        }
    }

    /// Of `terms` (raw words, stemmed here the way TermAnalyzer stems text), those with an
    /// occurrence in `text` that has a number within `window` words of it (the number being
    /// another word than the occurrence itself).
    public static func termsNextToNumbers(in text: String, terms: [String], window: Int = 4) -> Set<String> {
        let tokens = TermAnalyzer.tokens(text)
        let numbers = tokens.indices.filter { TermAnalyzer.isNumber(tokens[$0]) }
        guard !numbers.isEmpty else { return [] }
        var found: Set<String> = []
        for term in terms {
            let stem = TermAnalyzer.stem(term)
            for (i, t) in tokens.enumerated() where t == stem {
                if numbers.contains(where: { $0 != i && abs($0 - i) <= window }) {
                    found.insert(term)
                    break
                }
            }
        }
        return found
    }
}
