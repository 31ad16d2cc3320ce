import Foundation
import PBCore

/// Reads what a question asks for from its words: its intent (a value, the steps of a task, a
/// comparison, a summary, what the library holds, a time, a person) and, for a value, its kind.
///
/// The cues are the phrases people use for each ("how do I", "what's the number for", "how much
/// is the excess"). A value's kind comes from the thing named ("phone", "pressure", "excess",
/// "deadline") before the question word, because "what is the front tyre pressure?" asks for a
/// pressure although it opens with "what".
public enum QuestionReader {
    public static func read(_ question: String) -> QuestionReading {
        let words = plainWords(question)
        let text = " " + words.joined(separator: " ") + " "
        let terms = TermAnalyzer.contentTerms(question)
        func has(_ phrases: [String]) -> Bool { phrases.contains { text.contains(" \($0) ") } }
        var (asks, measure) = askedValue(words: words, text: text)

        let intent: QuestionIntent
        if isOverview(text) {
            intent = .overview
        } else if has(["summarise", "summarize", "summary", "sum up", "overview of", "outline", "gist", "recap", "tl dr", "tldr"])
                    || (text.hasPrefix(" what does ") && has(["say", "cover"])) {
            intent = .summarize
        } else if has(["compare", "comparison", "difference between", "differences between", "versus", "vs", "compared with",
                       "compared to", "over or under", "more or less than"]) || comparesWithThan(words)
                    || (words.first == "which" && has(["cheaper", "dearer", "more expensive", "costs more", "cost more", "costs less", "bigger",
                                                       "larger", "smaller", "longer", "shorter", "higher", "lower", "better", "more", "less"])
                        && has(["or"])) {
            intent = .compare
            // "Is the washing capacity bigger than the drying capacity?" asks for two capacities,
            // not for a yes: the values are read without the opening auxiliary.
            if asks == .yesNo {
                let rest = Array(words.dropFirst())
                (asks, measure) = askedValue(words: rest, text: " " + rest.joined(separator: " ") + " ")
                if asks == .yesNo { asks = nil }
            }
        } else if isProcedure(text) {
            intent = .procedure
        } else if asks == .date || asks == .time {
            intent = .when
        } else if asks == .name {
            intent = .who
        } else if let asks, asks != .yesNo {
            intent = .lookup
        } else {
            intent = .general
        }
        return QuestionReading(intent: intent, asks: intent == .procedure || intent == .summarize || intent == .overview ? nil : asks,
                               measure: intent == .lookup ? measure : nil, terms: terms)
    }

    /// "bigger than", "more notice than", "longer than": a comparative before "than" (not
    /// "other than" or "rather than").
    static func comparesWithThan(_ words: [String]) -> Bool {
        let notComparative: Set<String> = ["other", "rather", "either", "whether", "later", "sooner"]
        for i in words.indices.dropFirst() where words[i] == "than" {
            let w = words[i - 1]
            if ["more", "less", "fewer", "worse", "better"].contains(w) { return true }
            if w.hasSuffix("er"), w.count > 4, !notComparative.contains(w) { return true }
            if i >= 2, ["more", "less", "fewer"].contains(words[i - 2]) { return true }
        }
        return false
    }

    /// Lowercased words, apostrophes kept inside ("what's" stays one word, then is read as "what is").
    static func plainWords(_ question: String) -> [String] {
        var out: [String] = []
        for raw in question.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’" || $0 == "-") }) {
            let w = raw.replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: CharacterSet(charactersIn: "'-"))
            guard !w.isEmpty else { continue }
            switch w {
            case "what's": out += ["what", "is"]
            case "when's": out += ["when", "is"]
            case "who's": out += ["who", "is"]
            case "where's": out += ["where", "is"]
            case "how's": out += ["how", "is"]
            default:
                if w.hasSuffix("'s") { out.append(String(w.dropLast(2))); out.append("'s") } else { out.append(w) }
            }
        }
        return out
    }

    /// What an overview question is about ("which files are about the garden?": garden), as
    /// content terms; empty for the whole library ("what is in my documents?").
    public static func overviewTopic(_ question: String) -> [String] {
        TermAnalyzer.contentTerms(question).filter { !overviewWords.contains($0) }
    }

    static let overviewWords: Set<String> = Set([
        "document", "documents", "file", "files", "paper", "papers", "doc", "docs", "library", "about", "have", "talk", "talks",
        "mention", "mentions", "which", "what", "kind", "kinds", "list", "show", "relate", "related", "cover", "covers", "concern",
        "regard", "thing", "things", "there", "any", "all", "got", "keep", "my", "our",
    ].map(TermAnalyzer.stem))

    static func isOverview(_ text: String) -> Bool {
        let library = ["documents", "document", "files", "file", "library", "papers", "docs"]
        for l in library {
            if text.contains(" what is in my \(l) ") || text.contains(" what's in my \(l) ") || text.contains(" what \(l) do i have ")
                || text.contains(" what kinds of \(l) ") || text.contains(" list my \(l) ") || text.contains(" which \(l) ")
                || text.contains(" what \(l) ") && (text.contains(" about ") || text.contains(" mention ") || text.contains(" talk ")) {
                return true
            }
        }
        return text.contains(" what do my documents ") || text.contains(" what is in the library ")
    }

    static func isProcedure(_ text: String) -> Bool {
        let cues = [" how do i ", " how do you ", " how can i ", " how should i ", " how to ", " how do we ", " how can we ",
                    " what are the steps ", " what steps ", " steps to ", " steps for ", " procedure for ", " procedure to ",
                    " instructions for ", " instructions to ", " walk me through ", " what should i do ", " what do i do ",
                    " what do i need to do ", " what to do "]
        guard cues.contains(where: { text.contains($0) }) else { return false }
        // "how do I know which setting ...?", "how do I find the serial number?" ask for a fact.
        return !text.contains(" how do i know ")
    }

    /// The thing named that says what kind of value is wanted, or nil.
    static func askedValue(words: [String], text: String) -> (AskedValue?, Measure?) {
        func has(_ phrases: [String]) -> Bool { phrases.contains { text.contains(" \($0) ") } }
        let first = words.first ?? ""
        // "What does E24 mean?", "what is the warranty about?": an explanation, not a value.
        if has(["mean", "means", "meaning", "stand for", "explain", "why"]) { return (nil, nil) }
        // "Who knows the alarm code?" asks for a person, whatever it names.
        if ["who", "whom", "whose"].contains(first) { return (.name, nil) }
        if has(["phone", "telephone", "mobile", "landline", "tel", "phone number", "number to call", "call on", "ring"]) && !has(["phone bill"]) {
            return (.phone, nil)
        }
        if has(["email", "e-mail", "email address", "e-mail address"]) { return (.email, nil) }
        if has(["postcode", "post code", "postal address", "address"]) && !has(["email address", "e-mail address"]) { return (.address, nil) }
        if has(["what time", "which time", "at what time", "what hour", "opening hours", "open until", "close at", "start time", "finish time"]) {
            return (.time, nil)
        }
        if has(["password", "pin", "passcode", "code", "reference", "serial", "serial number", "account number", "policy number",
                "registration number", "sort code", "model number", "part number", "membership number", "customer number", "order number"])
            && !has(["postcode"]) {
            return (.code, nil)
        }
        // A measure named ("tyre pressure", "what temperature", "how heavy"). How far ahead is
        // a span of time, not a distance: it comes before "how far".
        let measureCues: [(String, Measure)] = [
            ("how far ahead", .duration), ("how far in advance", .duration), ("how far beforehand", .duration),
            ("pressure", .pressure), ("pressures", .pressure), ("psi", .pressure), ("temperature", .temperature), ("how hot", .temperature),
            ("how cold", .temperature), ("degrees", .temperature), ("how heavy", .weight), ("weight", .weight), ("weigh", .weight),
            ("how much does it weigh", .weight), ("capacity", .volume), ("how many litres", .volume), ("volume", .volume), ("litres", .volume),
            ("how tall", .length), ("how wide", .length), ("how deep", .length), ("width", .length), ("height", .length), ("depth", .length),
            ("length", .length), ("how far", .length), ("distance", .length), ("power", .power), ("wattage", .power), ("voltage", .electrical),
            ("fuse", .electrical), ("current", .electrical), ("energy use", .energy), ("energy consumption", .energy), ("kwh", .energy),
            ("how long", .duration), ("duration", .duration), ("notice period", .duration), ("how many days", .duration),
            ("how many weeks", .duration), ("how many months", .duration), ("how many years", .duration), ("how many hours", .duration),
            ("how many minutes", .duration), ("how often", .duration), ("notice", .duration), ("how much time", .duration),
            ("annual leave", .duration), ("holiday entitlement", .duration), ("probation", .duration), ("period", .duration), ("term", .duration), ("last", .duration),
            ("speed", .speed), ("how fast", .speed), ("percentage", .percentage), ("percent", .percentage), ("rate", .percentage),
            ("noise", .sound), ("how loud", .sound), ("calories", .energy), ("calorie", .energy), ("kcal", .energy),
        ]
        // Words that name a payment; the weak ones ("bill", "total", "tax") name one only in a "how
        // much" question: "what is stage 1 in the life of a bill?" asks no amount.
        let moneyCues = ["cost", "costs", "price", "priced", "pay", "paid", "charge", "charged", "fee", "fees", "rent", "excess",
                         "deposit", "salary", "wage", "wages", "premium", "owe", "owed", "refund", "spend", "spent", "fare", "earn", "earned"]
        let weakMoneyCues = ["bill", "balance", "budget", "net pay", "gross pay", "tax", "allowance", "fine", "penalty", "worth", "total",
                             "amount"]
        let moneyWord = has(moneyCues) || (has(weakMoneyCues) && has(["how much"]))
        // "Did Baran have help when he ...?", "is the service due?": yes or no, whatever they name.
        if auxiliaries.contains(first) { return (.yesNo, nil) }
        if has(["what period", "which period", "period covered", "what dates", "which dates"]) { return (.date, nil) }
        // "When" asks for a time where it opens the question ("when is ...", "and when ...");
        // inside it ("what do they do when the bell rings?") it says when something happens.
        let opensWithWhen = words.prefix(2).contains("when") || has(["since when", "until when", "till when"])
        if (opensWithWhen || has(["what date", "which date", "what day", "which day", "deadline", "due date", "expiry date", "expire",
                "expires", "start date", "end date", "what year", "which year", "due", "renewal date", "date"]))
            && !has(["due to"])
            && !has(["how long", "how much", "how many"]) && !(moneyWord && !opensWithWhen && !has(["what date", "which date"])) {
            return (.date, nil)
        }
        if has(["how much"]) || moneyWord && ["what", "how", "which"].contains(first) {
            // "How much salt ...", "how much does the dishwasher weigh?": a quantity, not money.
            for (cue, m) in measureCues where text.contains(" \(cue) ") && m != .duration && m != .percentage { return (.quantity, m) }
            if has(["salt", "water", "detergent", "powder", "flour", "sugar", "butter", "milk", "oil", "fuel", "petrol", "diesel"]) && !moneyWord {
                return (.quantity, nil)
            }
            // "How much is the rent?", "how much was the repair?": the thing costs; "how much
            // of the budget ...", "how much did it grow": a figure.
            if moneyWord || has(["how much is", "how much was", "how much are", "how much were", "how much will"]) { return (.money, nil) }
        }
        // The length of a span of time ("probation period length", "the length of the
        // tenancy") is a duration, not a distance.
        if has(["length", "lengths"]), has(["period", "probation", "notice", "tenancy", "lease", "contract", "warranty", "guarantee",
                                            "holiday", "leave", "term", "trial", "cover", "stay", "course", "appointment", "session"]) {
            return (.quantity, .duration)
        }
        for (cue, m) in measureCues where text.contains(" \(cue) ") {
            // "last" asks for a duration only as a verb ("how long does the battery last"), which
            // "how long" already caught; "term" and "period" only with a question word for amounts.
            if cue == "last" || cue == "term" || cue == "period" || cue == "rate" || cue == "current" { continue }
            return (.quantity, m)
        }
        if has(["how many", "how much", "what number", "number of", "how old"]) { return (.number, nil) }
        if has(["who", "whom", "whose", "which company", "which firm", "which plumber", "which engineer", "which electrician",
                "which garage", "which bank", "which insurer", "what company", "name of", "who is", "who's"]) {
            return (.name, nil)
        }
        return (nil, nil)
    }

    static let auxiliaries: Set<String> = ["is", "are", "can", "could", "do", "does", "did", "may", "might", "should", "will", "would",
                                           "am", "was", "were", "has", "have", "must", "shall"]
}
