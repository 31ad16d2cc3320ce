import PBText
import Foundation
import PBRetrieval

/// What a question asks for, read from its words: the kind of answer it expects (a time, a number,
/// a person, a place), whether it wants a summary rather than a fact, and its content terms.
public struct QuestionAnalysis: Equatable, Sendable {
    /// The kind of thing the answer should contain.
    public enum Expectation: String, Sendable {
        case time, number, person, place, reason, any
    }

    public var text: String
    /// Distinct stemmed content words, in order.
    public var terms: [String]
    public var expectation: Expectation
    /// "Summarise ...", "give me an overview of ...", "what does X say about Y".
    public var wantsSummary: Bool
    /// Asks two things at once ("when did X start and who led it?", two question marks, "both").
    public var multiPart: Bool

    public init(_ text: String) {
        self.text = text
        terms = TermAnalyzer.contentTerms(text)
        let words = TermAnalyzer.tokens(text)
        let lower = " " + words.joined(separator: " ") + " "
        expectation = Self.expectation(words: words, lower: lower)
        let wh = ["what", "when", "where", "who", "whom", "which", "why", "how"]
        let plain = " " + text.lowercased().replacingOccurrences(of: ",", with: " ") + " "
        multiPart = text.filter { $0 == "?" }.count > 1 || plain.contains(" both ")
            || wh.contains { plain.contains(" and \($0) ") } || plain.contains(" compare ") || plain.contains(" difference between ")
        wantsSummary = Self.summaryCues.contains { lower.contains(" \($0) ") } || lower.hasPrefix(" what doe ") && lower.contains(" say ")
    }

    static let amountWords: Set<String> = ["spend", "spent", "cost", "price", "paid", "pay", "charg", "charge", "amount", "total"]

    static let summaryCues = ["summarise", "summarize", "summary", "overview", "outline", "gist", "tl dr", "recap"]

    /// The expected answer type from the question word and what follows it. Words are stemmed by
    /// TermAnalyzer, so "years" arrives as "year".
    static func expectation(words: [String], lower: String) -> Expectation {
        if lower.contains(" how many ") || lower.contains(" how much ") || lower.contains(" what percentage ")
            || lower.contains(" how long ") || lower.contains(" how old ") || lower.contains(" how far ")
            || lower.contains(" how big ") || lower.contains(" how large ") || lower.contains(" how high ") { return .number }
        // "What did we spend on electricity?", "what does the service cost?": an amount.
        if words.first == "what", words.contains(where: { amountWords.contains($0) }) { return .number }
        if lower.contains(" what year ") || lower.contains(" which year ") || lower.contains(" what date ")
            || lower.contains(" what time ") || lower.contains(" what century ") || lower.contains(" what day ") { return .time }
        for w in words.prefix(4) {
            switch w {
            case "when": return .time
            case "who", "whom", "whose": return .person
            case "where": return .place
            case "why": return .reason
            default: continue
            }
        }
        return .any
    }
}
