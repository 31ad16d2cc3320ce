import Foundation
import PBText
import PBCore
import PBDates

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

    /// Occasions of the evening: an hour from 7 to 11 said for them without am or pm is pm.
    static let evening = #"\b(?:dinner|supper|drinks|pub|bar|party|cinema|movies?|film|concert|gig|show|theat(?:re|er)|date night|nightcap|karaoke|evening|night out)\b"#

    /// The text before a phrase without its last word when that is a lead-in ("call Mom on" is
    /// "call Mom"), trimmed.
    static func droppingLeadIn(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.lastIndex(of: " ") else { return leadIns.contains(trimmed.lowercased()) ? "" : trimmed }
        return leadIns.contains(trimmed[trimmed.index(after: space)...].lowercased()) ? String(trimmed[..<space]) : trimmed
    }

    /// Lead-in words dropped with the phrase: "call Mom on Friday" is "call Mom".
    static let leadIns: Set<String> = ["on", "by", "at", "for", "due", "until", "till", "til", "in", "from", "this", "to", "before"]

    public func cut(_ text: String) -> Cut {
        let matches = parser.matches(in: text)
        guard let found = matches.first(where: { $0.error == nil }) ?? matches.first else {
            return Cut(rest: DateSlot.tidy(text))
        }
        return cut(text, at: found, among: matches)
    }

    /// Whether the phrase owns what follows it ("friday's meeting"): the "'s" after it, else nil.
    func owner(_ m: DateMatch, in bytes: [UInt8]) -> String? {
        guard m.recurrence == nil, m.error == nil, m.grain.isCalendarDate || m.grain == .partOfDay else { return nil }
        let after = String(decoding: bytes[m.end...], as: UTF8.self)
        return ["'s ", "\u{2019}s "].first(where: { after.hasPrefix($0) })
    }

    func cut(_ text: String, at found: DateMatch, among matches: [DateMatch]) -> Cut {
        let bytes = Array(text.utf8)
        // "send out last week's report on friday", "pay last month's invoice": a day that owns
        // the thing and is past, or is followed by the day it is due, names which thing it is;
        // it stays in the title, and the due is the other day, or none.
        if owner(found, in: bytes) != nil {
            let past = (found.valueEnd ?? found.value.flatMap { calendar.date(byAdding: .day, value: 1, to: $0) }).map { $0 <= startOfToday } ?? false
            let clockAfter: (DateMatch) -> Bool = { $0.grain == .hour || $0.grain == .minute }
            if let later = matches.first(where: { $0.start >= found.end && $0.error == nil && !clockAfter($0) && owner($0, in: bytes) == nil }) {
                return cut(text, at: later, among: matches)
            }
            if past { return Cut(rest: DateSlot.tidy(text)) }
        }
        var m = found
        // "dinner with sam friday at 7": a clock hour said without am or pm is read from 7 as the
        // morning, but an evening's occasion is at 7 in the evening.
        if let pm = m.alternatives.first(where: { $0.reason == "12-hour clock: pm" }), let am = m.value, pm.value > am,
           ClausePattern.shared.contains(DateSlot.evening, text),
           // "buy a dress for the party at 10": the errand is at 10, not the party.
           !ClausePattern.shared.contains(#"\bfor (?:the |my |our |a |an |tonight'?s |this )?(?:[\p{L}'’-]+ )?"# + DateSlot.evening, text) {
            var evening = pm.value
            // Said without a day ("dinner at 7" at noon): this evening, while it is still to come.
            let earlier = evening.addingTimeInterval(-86_400)
            if m.alternatives.contains(where: { $0.reason == "today, already past" }), earlier > parser.now { evening = earlier }
            m.value = evening
            m.alternatives = [DateAlternative(value: am, grain: m.grain, reason: "12-hour clock: am")]
        }
        // "my 2pm call tomorrow", "my 2pm appointment on friday": a clock time and, a few words
        // on, the day it is on are one moment.
        var dayApart: DateMatch?
        if m.grain == .hour || m.grain == .minute, m.recurrence == nil, m.error == nil, let tv = m.value,
           let d = matches.first(where: { $0.start >= m.end && $0.grain == .day && $0.error == nil && $0.recurrence == nil && owner($0, in: bytes) == nil }),
           let dv = d.value, String(decoding: bytes[m.end..<d.start], as: UTF8.self).split(separator: " ").count <= 4 {
            let hm = calendar.dateComponents([.hour, .minute], from: tv)
            if let at = calendar.date(bySettingHour: hm.hour ?? 0, minute: hm.minute ?? 0, second: 0, of: dv) {
                dayApart = d
                m.value = at
                m.phrase += " " + d.phrase
            }
        }
        var before = String(decoding: bytes[0..<m.start], as: UTF8.self)
        var after = String(decoding: bytes[m.end...], as: UTF8.self)
        if let d = dayApart {
            let between = DateSlot.droppingLeadIn(String(decoding: bytes[m.end..<d.start], as: UTF8.self))
            after = " " + between + " " + String(decoding: bytes[d.end...], as: UTF8.self)
        }
        // "tomorrow's meeting at ten am": the day owns what follows, and a time said after it is
        // that day's time, not a second date in the title.
        // So does "next month's rent": the phrase is the thing's date, its "'s" no part of the title.
        let owned = owner(m, in: bytes)
        if let owned { after = " " + after.dropFirst(owned.count) }
        if let owned, m.grain == .day || m.grain == .partOfDay, let day = m.value {
            let end = m.end
            let clock: (DateMatch) -> Bool = { t in
                let timed = t.grain == DateGrain.hour || t.grain == DateGrain.minute
                return t.start >= end && timed && t.error == nil && t.recurrence == nil && t.valueEnd == nil
            }
            if let t = matches.first(where: clock), let tv = t.value {
                let hm = calendar.dateComponents([.hour, .minute], from: tv)
                // Within a part of the day ("tonight's game at 8"): the hour of that part, pm.
                var hour = hm.hour ?? 0
                if m.grain == .partOfDay, hour < 12, let start = calendar.date(bySettingHour: hour, minute: hm.minute ?? 0, second: 0, of: day), start < day {
                    hour += 12
                }
                if let at = calendar.date(bySettingHour: hour, minute: hm.minute ?? 0, second: 0, of: day) {
                    let lead = DateSlot.droppingLeadIn(String(decoding: bytes[(m.end + owned.utf8.count)..<t.start], as: UTF8.self))
                    after = " " + lead + " " + String(decoding: bytes[t.end...], as: UTF8.self)
                    m = DateMatch(phrase: m.phrase + " " + t.phrase, start: m.start, end: t.end, value: at, grain: t.grain)
                }
            }
        }
        // Drop one lead-in word, but never the whole clause ("due friday" keeps nothing to drop into);
        // before a day that owns what follows it leads into that ("prepare for friday's meeting").
        if owned == nil { before = DateSlot.droppingLeadIn(before) }
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

    /// How "remind me two days before ..." moves from the thing's time: days, weeks, months and
    /// years on the calendar ("a month before" the 15th of March is the 15th of February),
    /// hours and minutes on the clock; `sign` -1 for before, 1 for after. "The day before" is one
    /// day. Nil when `lead` is not wholly a length of time.
    public func countBack(_ lead: String, sign: Int = -1) -> ((Date) -> Date)? {
        let words = lead.lowercased().split(separator: " ").map(String.init)
        let cal = calendar
        // "a month", "2 weeks", "three days", "the day": a count and one calendar unit.
        if words.count == 2 || (words.count == 1 && DateVocabulary.unit(words[0]) != nil) {
            let countWord = words.count == 2 ? words[0] : "a"
            let n = ["a", "an", "one", "the"].contains(countWord) ? 1 : Int(countWord) ?? DateVocabulary.numberWords[countWord]
            if let n, n > 0, let unit = DateVocabulary.unit(words.last!) {
                let step: (Calendar.Component, Int)?
                switch unit {
                case .day: step = (.day, n)
                case .week: step = (.day, 7 * n)
                case .fortnight: step = (.day, 14 * n)
                case .month: step = (.month, n)
                case .year: step = (.year, n)
                default: step = nil
                }
                if let (component, count) = step {
                    return { cal.date(byAdding: component, value: sign * count, to: $0) ?? $0 }
                }
                if countWord == "the" { return nil }
            }
        }
        // Hours and minutes, however said ("an hour and a half", "90 minutes"): on the clock.
        guard let ahead = parser.firstMatch(in: "in " + lead), let end = ahead.value, ahead.error == nil,
              ahead.recurrence == nil, ahead.phrase.utf8.count == lead.utf8.count + 3, !ahead.grain.isCalendarDate else { return nil }
        let seconds = end.timeIntervalSince(parser.now)
        guard seconds > 0 else { return nil }
        return { $0.addingTimeInterval(Double(sign) * seconds) }
    }

    /// A reminder asked for ahead of something: the length ahead, and what it is ahead of.
    /// "remind me to call before noon" is a to-do with a due, no lead.
    public static let aheadOf = #"(?:remind|ping|nudge|notify|alert|warn|tell) me (?!to |that |about |of |re |when |if )(.+?) (before|ahead of|prior to|after) (?:my |the |our )?(.+)"#

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
