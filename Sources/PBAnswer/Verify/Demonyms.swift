import PBText
import PBRetrieval

/// Places and the words for their people and things, so that a question about Switzerland is
/// answered by a sentence about "the Swiss politician", and one about the French by a sentence
/// about France. Neither shares a prefix long enough for `TermMatcher`'s related-forms rule.
/// Regular pairs ("Africa", "African"; "Mongol", "Mongolian") need no line here.
public enum Demonyms {
    static let groups: [[String]] = [
        ["france", "french", "frenchman", "frenchmen"], ["switzerland", "swiss"], ["ireland", "irish"],
        ["britain", "british", "briton", "britons"], ["england", "english", "englishman", "englishmen"],
        ["scotland", "scottish", "scots", "scot"], ["wales", "welsh"], ["netherlands", "dutch", "holland"],
        ["spain", "spanish", "spaniard", "spaniards"], ["portugal", "portuguese"], ["china", "chinese"],
        ["japan", "japanese"], ["vietnam", "vietnamese"], ["germany", "german", "germans"],
        ["denmark", "danish", "dane", "danes"], ["sweden", "swedish", "swede", "swedes"],
        ["norway", "norwegian"], ["finland", "finnish", "finn", "finns"], ["poland", "polish", "pole", "poles"],
        ["greece", "greek", "greeks"], ["turkey", "turkish", "turk", "turks"], ["iceland", "icelandic"],
        ["arabia", "arab", "arabs", "arabic"], ["thailand", "thai"], ["peru", "peruvian"],
        ["flanders", "flemish"], ["normandy", "norman", "normans"], ["byzantium", "byzantine"],
        ["rome", "roman", "romans"], ["venice", "venetian"], ["paris", "parisian"], ["florence", "florentine"],
        ["naples", "neapolitan"], ["moscow", "muscovite"], ["madagascar", "malagasy"],
        ["united states", "american", "americans", "usa"], ["philippines", "filipino"],
        ["new zealand", "new zealander"], ["cyprus", "cypriot"], ["malta", "maltese"], ["burma", "burmese"],
        ["nepal", "nepalese", "nepali"], ["pakistan", "pakistani"], ["israel", "israeli"], ["iraq", "iraqi"],
        ["kuwait", "kuwaiti"], ["yemen", "yemeni"], ["oman", "omani"], ["qatar", "qatari"],
        ["bangladesh", "bangladeshi"], ["afghanistan", "afghan"], ["uzbekistan", "uzbek"],
        ["kazakhstan", "kazakh"], ["tibet", "tibetan"], ["mongolia", "mongol", "mongols"],
    ]

    /// Stemmed spelling to the other stemmed spellings of its group.
    static let table: [String: [String]] = {
        var t: [String: [String]] = [:]
        for g in groups {
            let stems = g.map { TermAnalyzer.tokens($0).joined(separator: " ") }
            for s in stems { t[s] = stems.filter { $0 != s } }
        }
        return t
    }()

    /// The other spellings of a stemmed word's place, or none.
    public static func variants(of term: String) -> [String] { table[term] ?? [] }
}
