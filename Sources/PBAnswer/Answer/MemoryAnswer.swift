import Foundation
import PBCore
import PBText

/// From a memory, the answer is the value the question asks for, not the sentence it was said
/// in: a date for "when" (the day the item refers to, as pb-recall dated it), a name for "who", a
/// number for "how many" or "how much". The sentence stays as the citation's quote, so the
/// answer is still checked against it and a reader still sees it. A question of another kind,
/// or one whose value the sentence does not hold, keeps the sentence.
enum MemoryAnswer {
    /// `answer` with its one sentence cut to the value asked for, when it can be.
    static func shortened(_ answer: AnswerRecord, question: String, reading: QuestionReading, expectsTime: Bool,
                          opening: String?, speakers: Set<String>) -> AnswerRecord {
        guard answer.sentences.count == 1, let citation = answer.citations.first, answer.sentences[0].cites == [citation.n] else {
            return answer
        }
        guard let value = value(in: citation.quote, question: question, reading: reading, expectsTime: expectsTime,
                                opening: opening, speakers: speakers) else { return answer }
        var out = answer
        out.sentences = [AnswerSentence(text: value, cites: [citation.n])]
        out.text = "\(value) [\(citation.n)]"
        return out
    }

    static func value(in quote: String, question: String, reading: QuestionReading, expectsTime: Bool, opening: String?,
                      speakers: Set<String>) -> String? {
        // When: the day the item refers to ("On 7 May 2023" is "7 May 2023"). An item that names
        // no time of its own keeps its sentence: "the deposit is returned within ten days of the
        // end of the tenancy" answers when, and the day it was said does not.
        if expectsTime || reading.intent == .when || reading.asks == .date {
            // Not when the sentence holds two dates ("moved from 3 March to 10 March": the item's
            // time is the first), nor a day for "what time" (the clock time would be lost).
            guard let opening, !opening.hasPrefix("Said on"), reading.asks != .time,
                  ValueMentions.find(.date, in: quote).count < 2 else { return nil }
            for prefix in ["On ", "In "] where opening.hasPrefix(prefix) { return String(opening.dropFirst(prefix.count)) }
            return opening.prefix(1).lowercased() + opening.dropFirst()
        }
        let asked = Set(TermAnalyzer.tokens(question))
        let opener = TermAnalyzer.tokens(question).first ?? ""
        // A sentence that turns its value round ("not at Costa", "instead of Priya", "I owe him
        // half") answers in its own words.
        let said = " " + TermAnalyzer.tokens(quote).joined(separator: " ") + " "
        if [" not ", " instead ", " no longer ", " half ", " double ", " twice ", " third ", " quarter ", " except "].contains(where: said.contains) {
            return nil
        }
        // A name opening the sentence is not read as one ("Anjali is now my contact"): the names
        // found may leave it out, so only a sentence opening with a common word gives a name.
        let firstWord = quote.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
        let bareFirst = firstWord.trimmingCharacters(in: .punctuationCharacters)
        let opensWithName = bareFirst.first?.isUppercase == true && !TermAnalyzer.isStopword(bareFirst.lowercased())
            && !asked.contains(TermAnalyzer.stem(bareFirst.lowercased())) && !speakers.contains(bareFirst)
            && WordNet.shared?.knows(bareFirst) == false
        // Where: the places the sentence names ("I'm off to Ireland for a semester").
        if opener == "where" {
            let known = asked.union(speakers.flatMap { TermAnalyzer.tokens($0) })
            let places = names(in: quote).filter { !TermAnalyzer.tokens($0).contains(where: known.contains) }
            return places.count == 1 && !opensWithName ? places[0] : nil
        }
        switch reading.asks {
        case .name?:
            // Names the question and the conversation's speakers do not already say.
            let known = asked.union(speakers.flatMap { TermAnalyzer.tokens($0) })
            let found = names(in: quote).filter { !TermAnalyzer.tokens($0).contains(where: known.contains) }
            return found.isEmpty || opensWithName ? nil : found.joined(separator: ", ")
        case .number?, .money?, .quantity?:
            let own = Set(ValueMentions.find(reading.asks!, measure: reading.measure, in: question).map { ValueMentions.normalised($0.text) })
            let found = ValueMentions.find(reading.asks!, measure: reading.measure, in: quote).map(\.text)
                .filter { !own.contains(ValueMentions.normalised($0)) }
            // One value, or the sentence: two are a list the sentence says better.
            return found.count == 1 ? found[0] : nil
        default:
            return nil
        }
    }

    /// The names a sentence holds: capitalised words that are not a sentence's first, and not
    /// "I've" or "I'm".
    static func names(in text: String) -> [String] {
        ValueMentions.find(.name, in: text).map(\.text).filter { name in
            TermAnalyzer.tokens(name).contains { !TermAnalyzer.isStopword($0) }
        }
    }
}
