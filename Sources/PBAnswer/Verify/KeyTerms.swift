import PBText
import PBRetrieval

/// The words of a question that say what a value is of ("the policy number of my car insurance":
/// car, insurance, policy), each with the words WordNet gives for it in its commonest senses, and
/// whether a passage holds enough of them to answer it ("binds").
///
/// Left out: the words that ask for a kind of value or frame the question ("how much", "phone
/// number", "when"), numbers (checked on their own by gate H), words WordNet knows only as
/// verbs ("besiege") or only as adverbs ("actually", "ahead"): what happened, and how, is said in
/// many ways, what it happened to is named. A phrasal verb's particle ("take things back") is
/// part of its verb, which may be said as the phrase's synonym ("return").
/// A synonym found counts three quarters of the word itself, so the words the person typed weigh
/// more. A passage binds with all of up to three words (a synonym allowed), or three of four.
public struct KeyTerms: Sendable {
    public struct Term: Sendable {
        /// The stemmed word (TermAnalyzer).
        public var stem: String
        /// Its synonyms, each as stemmed words ("line of work": line, of, work).
        public var synonyms: [[String]]
    }

    public var terms: [Term]

    public init(_ question: String, dictionary: WordNet? = WordNet.shared) {
        // Words that say how or what happened rather than what it happened to.
        var unnamed: Set<String> = []
        var synonyms: [String: [[String]]] = [:]
        func tokens(_ words: [String]) -> [[String]] { words.map { TermAnalyzer.contentTokens($0) }.filter { !$0.isEmpty } }
        for w in LexicalQuery.terms(question) {
            let stem = TermAnalyzer.stem(w)
            guard let dictionary else { continue }
            let forms = dictionary.baseForms(w)
            if !forms.isEmpty, forms.allSatisfy({ $0.0 == .verb }) || forms.allSatisfy({ $0.0 == .adv }) { unnamed.insert(stem) }
            if synonyms[stem] == nil { synonyms[stem] = tokens(dictionary.synonyms(of: w, senses: 2)) }
        }
        // A verb's particle a few words on ("take things back") is part of the verb, whose
        // meaning then is the phrasal verb's ("return"), not a word of its own.
        if let dictionary {
            let words = LexicalQuery.terms(question, keepingRepeats: true)
            for (i, w) in words.enumerated() {
                for p in words.dropFirst(i + 1).prefix(3) where Self.particles.contains(p) {
                    guard let phrase = dictionary.phrasalVerb(w, p) else { continue }
                    unnamed.insert(TermAnalyzer.stem(p))
                    synonyms[TermAnalyzer.stem(w), default: []] += tokens(dictionary.synonyms(of: phrase, senses: 2))
                    break
                }
            }
        }
        terms = TermAnalyzer.contentTerms(question).filter {
            $0.count > 2 && !TermAnalyzer.isNumber($0) && !TermAnalyzer.questionVocabulary.contains($0) && !Self.asking.contains($0)
                && !unnamed.contains($0)
        }.map { Term(stem: $0, synonyms: synonyms[$0] ?? []) }
    }

    /// The particles of English phrasal verbs that are not stopwords already.
    static let particles: Set<String> = ["back", "away", "up", "out", "off", "down", "over", "through", "around", "along"]

    public struct Binding: Sendable {
        public var share: Double
        public var missed: [String]
        public var binds: Bool
    }

    /// How much of the question a text holds.
    public func binding(in text: TermMatcher) -> Binding {
        guard !terms.isEmpty else { return Binding(share: 1, missed: [], binds: true) }
        var found = 0.0
        var missed: [String] = []
        for t in terms {
            if text.contains(t.stem) {
                found += 1
            } else if t.synonyms.contains(where: { $0.allSatisfy(text.contains) }) {
                found += 0.75
            } else {
                missed.append(t.stem)
            }
        }
        let share = found / Double(terms.count)
        return Binding(share: share, missed: missed, binds: share >= (terms.count <= 3 ? 0.85 : 0.75))
    }

    /// Words (stemmed as TermAnalyzer stems) that ask for a value rather than name what it is of.
    static let asking: Set<String> = Set([
        "what", "when", "who", "whom", "whose", "where", "which", "how", "cost", "price", "pay", "paid", "charge", "spend", "spent",
        "phone", "telephone", "mobile", "email", "address", "code", "pin", "password", "reference", "value", "figure", "exactly",
        "day", "week", "month", "need", "have", "get", "got", "tell", "know", "find", "show", "give", "please", "current", "currently",
        "due", "next", "last", "start", "end", "total", "much", "many", "does", "did", "do", "can", "could", "would", "should", "will",
        "maximum", "minimum", "recommended", "right", "correct", "allowed", "say", "says", "state", "document", "documents", "file",
        "original", "previous", "earlier", "old", "new", "latest", "first", "now", "still",
    ].map(TermAnalyzer.stem))
}
