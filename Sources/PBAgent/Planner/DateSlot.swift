import Foundation
import PBText
import PBCore

/// Finds the date phrase of a clause, cuts it (and the preposition that led into it) out of the
/// text, and writes its value the way the tools read it: a date for day and coarser grains, an
/// instant otherwise, with the grain as a word.
public struct DateSlot: Sendable {
    public let parser: NaturalDateParser
    public let format: DateValueFormat
    /// The Gregorian calendar in the parser's zone, for days as the user counts them.
    public let calendar: Calendar

    public init(parser: NaturalDateParser) {
        self.parser = parser
        self.format = DateValueFormat(timeZone: parser.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = parser.timeZone
        self.calendar = calendar
    }

    /// Midnight at the start of the parser's today.
    public var startOfToday: Date { calendar.startOfDay(for: parser.now) }

    /// What a clause becomes once its date phrase is cut out.
    public struct Cut: Equatable, Sendable {
        /// The text without the phrase, tidied.
        public var rest: String
        /// The phrase as written, if one was found.
        public var phrase: String?
        public var due: String?
        public var grain: String?
        /// The start instant, for reconciliation.
        public var value: Date?
        /// The end of the span the phrase names (exclusive), when it names more than an instant.
        public var valueEnd: Date?
        /// Why the phrase is not a date ("february has at most 29 days"); the due is left out.
        public var invalid: String?
        /// A repeat phrase ("every friday") read as a recurrence rule.
        public var recurrence: String?
    }

    /// Lead-in words dropped with the phrase: "call Mom on Friday" is "call Mom".
    static let leadIns: Set<String> = ["on", "by", "at", "for", "due", "until", "till", "til", "in", "from", "this", "to", "before"]

    public func cut(_ text: String) -> Cut {
        let matches = parser.matches(in: text)
        guard let m = matches.first(where: { $0.error == nil }) ?? matches.first else {
            return Cut(rest: DateSlot.tidy(text))
        }
        let bytes = Array(text.utf8)
        var before = String(decoding: bytes[0..<m.start], as: UTF8.self)
        let after = String(decoding: bytes[m.end...], as: UTF8.self)
        // Drop one lead-in word, but never the whole clause ("due friday" keeps nothing to drop into).
        let trimmed = before.trimmingCharacters(in: .whitespaces)
        if let space = trimmed.lastIndex(of: " ") {
            let last = trimmed[trimmed.index(after: space)...].lowercased()
            if DateSlot.leadIns.contains(last) { before = String(trimmed[..<space]) }
        } else if DateSlot.leadIns.contains(trimmed.lowercased()) {
            before = ""
        }
        var cut = Cut(rest: DateSlot.tidy(before + " " + after), phrase: m.phrase)
        if let error = m.error {
            cut.invalid = error
            cut.rest = DateSlot.tidy(text)
            return cut
        }
        if let r = m.recurrence {
            cut.recurrence = DateSlot.rule(r)
        }
        if let v = m.value {
            cut.value = v
            if let end = m.valueEnd {
                cut.valueEnd = end
            } else if m.grain == .day {
                cut.valueEnd = calendar.date(byAdding: .day, value: 1, to: v)
            }
            let today = startOfToday
            var due = v
            // A span already under way ("this week" on a Wednesday) is due from today, and still
            // for the span: its grain stays week, not the day it was said on.
            if m.grain.isCalendarDate, m.grain != .day, v < today, let end = cut.valueEnd, end > parser.now { due = today }
            cut.due = format.value(due, grain: m.grain)
            cut.grain = DateSlot.dueGrain(m.grain)
        }
        return cut
    }

    /// The grain a task's due carries: a clock time is a moment ("at 3pm" is 15:00, as pb-exec
    /// reads a time), though the phrase itself is only precise to the hour.
    static func dueGrain(_ g: DateGrain) -> String {
        (g == .hour ? DateGrain.minute : g).rawValue.replacingOccurrences(of: "-", with: "_")
    }

    static func rule(_ r: DateRecurrence) -> String {
        r.interval > 1 ? "FREQ=WEEKLY;INTERVAL=\(r.interval)" : "weekly"
    }

    /// Collapses spaces and strips punctuation and dangling connectives at either end.
    public static func tidy(_ text: String) -> String {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let dangling: Set<String> = ["and", "then", "also", "please", "pls", "to", "on", "by", "at", "the", "for", "due", "until", "so", "-", "–", "—", "&", "before"]
        func clean(_ w: String) -> String { w.trimmingCharacters(in: CharacterSet(charactersIn: ",;:.!?")) }
        while let last = words.last, dangling.contains(clean(last).lowercased()) || clean(last).isEmpty {
            // A phrasal verb's particle closes its title ("put the kettle on", as WordNet lists
            // "put on"); a preposition left by a cut date does not.
            if words.count > 2, let verb = words.first, clean(last) == last, WordNet.shared?.phrasalVerb(verb.lowercased(), last.lowercased()) != nil { break }
            words.removeLast()
        }
        while let first = words.first, ["and", "then", "also", "please", "-", ",", "so"].contains(clean(first).lowercased()) || clean(first).isEmpty {
            words.removeFirst()
        }
        var s = words.joined(separator: " ")
        while let c = s.last, ",;:.!?".contains(c) { s.removeLast() }
        while let c = s.first, ",;:".contains(c) { s.removeFirst() }
        return s.trimmingCharacters(in: .whitespaces)
    }
}
