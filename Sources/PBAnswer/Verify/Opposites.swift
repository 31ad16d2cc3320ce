import PBText
import PBRetrieval

/// Words and their opposites, for one check of gate H: a question that asks about the smallest
/// party, private bills or someone's father is not answered by a sentence about the largest
/// party, public bills or someone's mother, however many other words the two share. SQuAD 2.0
/// writes a fifth of its unanswerable questions this way (an antonym swapped into an answerable
/// question), and a user's question can land the same way on the wrong sentence ("when does the
/// pool close?" against "the pool opens at six").
///
/// Only words whose opposite is unambiguous in running text: prepositions that are also opposites
/// ("over", "under", "up") and words with a common second sense ("like", "left", "light") are not
/// here, because the sentence would use them in that other sense as often as not.
public enum Opposites {
    /// Each line pairs two opposites; a word on several lines has several.
    static let pairs: [(String, String)] = [
        ("largest", "smallest"), ("large", "small"), ("biggest", "smallest"), ("big", "small"),
        ("public", "private"), ("first", "last"), ("first", "second"), ("old", "new"), ("old", "current"),
        ("oldest", "newest"), ("oldest", "youngest"), ("common", "rare"), ("commonly", "rarely"),
        ("increase", "decrease"), ("increased", "decreased"), ("increasing", "decreasing"), ("increase", "reduce"),
        ("expanded", "shortened"), ("before", "after"), ("north", "south"), ("east", "west"),
        ("northern", "southern"), ("eastern", "western"), ("more", "less"), ("more", "fewer"), ("most", "least"),
        ("higher", "lower"), ("highest", "lowest"), ("high", "low"), ("early", "late"), ("earliest", "latest"),
        ("earlier", "later"), ("major", "minor"), ("accept", "reject"), ("accepted", "rejected"), ("win", "lose"),
        ("won", "lost"), ("victory", "defeat"), ("success", "failure"), ("successful", "unsuccessful"),
        ("strong", "weak"), ("strongest", "weakest"), ("fast", "slow"), ("long", "short"), ("longest", "shortest"),
        ("maximum", "minimum"), ("inside", "outside"), ("internal", "external"), ("import", "export"),
        ("imports", "exports"), ("imported", "exported"), ("positive", "negative"), ("rich", "poor"),
        ("wealthy", "poor"), ("start", "end"), ("begin", "end"), ("began", "ended"), ("beginning", "end"),
        ("open", "close"), ("opens", "closes"), ("opened", "closed"), ("legal", "illegal"), ("support", "oppose"),
        ("supported", "opposed"), ("agree", "disagree"), ("agreed", "disagreed"), ("always", "never"),
        ("include", "exclude"), ("included", "excluded"), ("male", "female"), ("men", "women"), ("man", "woman"),
        ("father", "mother"), ("son", "daughter"), ("king", "queen"), ("husband", "wife"), ("brother", "sister"),
        ("top", "bottom"), ("upper", "lower"), ("hot", "cold"), ("warm", "cold"), ("wet", "dry"),
        ("cheap", "expensive"), ("cheapest", "most expensive"), ("entry", "exit"), ("arrive", "depart"),
        ("arrived", "departed"), ("birth", "death"), ("born", "died"), ("ancient", "modern"), ("domestic", "foreign"),
        ("national", "international"), ("rural", "urban"), ("same", "different"), ("similar", "different"),
        ("gain", "loss"), ("gained", "lost"), ("buy", "sell"), ("bought", "sold"), ("buyer", "seller"),
        ("lend", "borrow"), ("lent", "borrowed"), ("gave", "took"), ("attack", "defend"), ("attacked", "defended"),
        ("offensive", "defensive"), ("ally", "enemy"), ("allies", "enemies"), ("conservative", "liberal"),
        ("summer", "winter"), ("spring", "autumn"), ("minority", "majority"), ("junior", "senior"),
        ("hired", "fired"), ("appointed", "dismissed"), ("created", "destroyed"), ("built", "destroyed"),
        ("rise", "fall"), ("rose", "fell"), ("inner", "outer"), ("primary", "secondary"), ("direct", "indirect"),
        ("possible", "impossible"), ("likely", "unlikely"), ("best", "worst"), ("better", "worse"),
        ("official", "unofficial"), ("formal", "informal"), ("natural", "artificial"), ("permanent", "temporary"),
        ("upstream", "downstream"), ("input", "output"), ("min", "max"), ("younger", "older"),
        ("youngest", "eldest"), ("deposit", "withdrawal"),
    ]

    static let table: [String: Set<String>] = {
        var t: [String: Set<String>] = [:]
        for (a, b) in pairs {
            t[a, default: []].insert(b)
            t[b, default: []].insert(a)
        }
        return t
    }()

    /// A word of the question that `text` leaves out while saying its opposite (which the question
    /// does not say): ("smallest", "largest") for "the smallest party ..." against "The largest
    /// party ...". Nil when there is none. Words are compared lowercased, whole and in any
    /// inflection; an opposite of two words ("most expensive") must appear as written.
    public static func swapped(question: String, text: String) -> (asked: String, said: String)? {
        let q = words(question), t = words(text)
        let qStems = Set(q.map(TermAnalyzer.stem)), tStems = Set(t.map(TermAnalyzer.stem))
        let tJoined = " " + t.joined(separator: " ") + " "
        let qJoined = " " + q.joined(separator: " ") + " "
        // Both sides in any inflection: "end" is in a text that says "ended", and "close" is
        // answered by "opens" as much as by "open".
        for (i, w) in q.enumerated() where !tStems.contains(TermAnalyzer.stem(w)) {
            // "How long", "how old", "how high" ask for a measure, not for the long, old or high
            // one: "the short programme takes 30 minutes" answers "how long does it take?".
            if i > 0, q[i - 1] == "how" { continue }
            guard let others = table[w] else { continue }
            for o in others.sorted() {
                let said = o.contains(" ") ? tJoined.contains(" \(o) ") && !qJoined.contains(" \(o) ")
                    : tStems.contains(TermAnalyzer.stem(o)) && !qStems.contains(TermAnalyzer.stem(o))
                if said { return (w, o) }
            }
        }
        return nil
    }

    /// Lowercased words: letters and inner hyphens.
    static func words(_ text: String) -> [String] {
        var out: [String] = []
        var word = ""
        for ch in text.lowercased() {
            if ch.isLetter || (ch == "-" && !word.isEmpty) { word.append(ch) } else if !word.isEmpty {
                out.append(word.hasSuffix("-") ? String(word.dropLast()) : word); word = ""
            }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }
}
