import Foundation
import PBCore
import PBDates

/// Calendar requests: events go to the `schedule` tool, free time to `find_slot`.
///
/// - "schedule a meeting with Sam next Tuesday at 3pm", "book lunch with Ana on friday at 1",
///   "put the dentist in my calendar for thursday at 9": an event at that time, the people after
///   "with" as attendees.
/// - Without a time ("schedule a call with Sam on friday"), or as an amount of time ("book 2 hours
///   for the report this week", "block out 90 minutes to write the budget tomorrow"): find the
///   first free stretch and schedule it there. Such a plan asks first: it carries `confirm`, and
///   pb-exec runs it as a dry run until it is confirmed.
/// - "find a free slot tomorrow", "find me an hour on friday", "when am I free next week":
///   `find_slot` alone.
extension IntentGrammar {

    /// Words for things that go in a calendar rather than on a to-do list.
    static let eventNouns = #"(?:meeting|meet-?up|call|video call|phone call|zoom|chat|catch[- ]?up|1:1|one[- ]on[- ]one|sync|standup|stand-up|lunch|dinner|breakfast|brunch|coffee|drinks|appointment|appt|interview|session|event|party|date|class|lesson|workshop|review|demo|presentation|viewing|visit)"#

    /// The kinds of event a clause may open with and still be one ("lunch with Ana friday at 1").
    static let bareEventNouns = #"(?:meeting|call|video call|catch[- ]?up|1:1|one[- ]on[- ]one|lunch|dinner|breakfast|brunch|coffee|drinks|appointment|appt|interview|party|workshop|demo|presentation|viewing)"#

    static let scheduleVerb = #"(?:schedule|book|set up|setup|arrange|organi[sz]e|plan|put|add|create|make|pencil in|slot in|block(?: out| off)?|reserve|find time for|find (?:some )?time to)"#

    /// Minutes in "2 hours", "90 minutes", "an hour", "half an hour", "1.5 hours", "an hour and a half".
    func minutesPhrase(_ text: String) -> (Int, String)? {
        let l = text.lowercased()
        let table: [(String, (String) -> Int?)] = [
            (#"\b(an?|one) hour and a half\b"#, { _ in 90 }),
            (#"\bhalf an hour\b"#, { _ in 30 }),
            (#"\b(\d+(?:\.\d+)?) ?(?:hours?|hrs?|h)\b"#, { s in Double(s).map { Int(($0 * 60).rounded()) } }),
            (#"\b(\d+) ?(?:minutes?|mins?|m)\b"#, { s in Int(s) }),
            (#"\b(an?|one|two|three|four|five|six|seven|eight) hours?\b"#, { s in
                ["a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8][s].map { $0 * 60 } }),
            (#"\b(fifteen|twenty|thirty|forty[- ]five|forty|fifty|ninety) minutes?\b"#, { s in
                ["fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty five": 45, "forty-five": 45, "fifty": 50, "ninety": 90][s] }),
        ]
        for (p, value) in table {
            let r = pattern.regex(p)
            let ns = l as NSString
            guard let m = r.firstMatch(in: l, range: NSRange(location: 0, length: ns.length)) else { continue }
            let group = m.numberOfRanges > 1 && m.range(at: 1).location != NSNotFound ? ns.substring(with: m.range(at: 1)) : ""
            guard let minutes = value(group), (5...1440).contains(minutes) else { continue }
            let without = (text as NSString).replacingCharacters(in: m.range, with: " ")
            return (minutes, DateSlot.tidy(without))
        }
        return nil
    }

    /// The people after "with": "with Sam", "with Sam and Priya", "with Dr. Lee", "with Sam Lee"
    /// (a second capitalised word is a surname unless it is a day, a month or a date word:
    /// "with Sam Friday at 3pm" is Sam).
    func attendees(in text: String) -> [String] {
        let word = #"\p{Lu}[\p{L}'-]*"#
        let notDate = #"(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\b|(?:Today|Tomorrow|Tonight|Next|This|At|On|In|For|From|About|To)\b)"#
        let name = #"(?:(?:Dr\.? |Mr\.? |Mrs\.? |Ms\.? )?"# + word + "(?: " + notDate + word + ")?)"
        let r = pattern.regex(#"\bwith ("# + name + #"(?:(?:,| and|,? &) "# + name + ")*)", caseInsensitive: false)
        let ns = text as NSString
        guard let m = r.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else {
            // "coffee with priya": a name typed in lower case, when the contacts know it.
            guard !people.isEmpty, let low = pattern.regex(#"\bwith ([\p{L}'-]+)(?:(?:,| and|,? &) ([\p{L}'-]+))*"#).firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return [] }
            let said = ns.substring(with: low.range).dropFirst(5).replacingOccurrences(of: " and ", with: ",").replacingOccurrences(of: "&", with: ",")
            let names = said.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let known = Array(names.prefix { people.contains($0.lowercased()) })
            return known
        }
        return ns.substring(with: m.range(at: 1)).replacingOccurrences(of: " and ", with: ",").replacingOccurrences(of: "&", with: ",")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The date phrase of a request with its range, for find_slot's days.
    func span(_ text: String) -> (match: DateMatch, from: String, to: String)? {
        guard let m = dates.parser.matches(in: text).first(where: { $0.error == nil && $0.value != nil }) else { return nil }
        let f = dates.format
        let from = f.date(m.value!)
        let to = m.valueEnd.map { f.end($0, grain: m.grain) }.map { String($0.prefix(10)) } ?? from
        return (m, from, to)
    }

    func scheduling(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text
        let l = c.lower
        // find_slot alone: "find a free slot tomorrow", "find me an hour on friday", "when am I free next week".
        if pattern.match(#"(?:find|get|show|give)(?: me)?(?: an?| some)?(?: free| open| empty)? (?:slots?|time|window|gap|hour|half hour|\d+ (?:minutes?|mins?|hours?))\b.*"#, l) != nil
            || pattern.match(#"when (?:am i|are we|is there) (?:free|available|open)\b.*"#, l) != nil
            || pattern.match(#"(?:do i have|is there|have i got) (?:any |some )?(?:free time|a free slot|free slots|time free|an? (?:free )?(?:hour|slot|gap))\b.*"#, l) != nil {
            let (minutes, rest) = minutesPhrase(t) ?? (pattern.contains(#"\bhalf hour\b"#, l) ? 30 : 60, t)
            var args: [String: JSONValue] = ["minutes": .number(Double(minutes))]
            if let s = span(rest) { args["from"] = .string(s.from); args["to"] = .string(s.to) }
            return [PlannedIntent(.findSlot, args)]
        }
        // An amount of time to set aside: "book 2 hours for the report this week".
        if let m = pattern.match(#"(?:book|block(?: out| off)?|reserve|set aside|find|schedule|put aside|carve out|save|make)(?: me)? ((?:\d+(?:\.\d+)? ?|an? |one |two |three |four |half an )(?:hours?|hrs?|h|minutes?|mins?|hour and a half)) (?:for|to|on|of) (.+)"#, t),
           let (minutes, _) = minutesPhrase(m[0]) {
            return slotThenSchedule(title: m[1], minutes: minutes, attendees: [])
        }
        // An event: a schedule verb with an event word, or "in/on/to my calendar", or "add X" at a
        // stated time; or a clause that is an event and a date ("dentist appointment today at 9am",
        // "lunch with Ana friday at 1"), unless it opens with a to-do verb ("call mom tomorrow").
        let calendarWords = pattern.contains(#"\b(?:in|on|to|into) (?:my |the )?(?:calendar|diary|schedule)\b"#, l)
        let eventWord = #"\b"# + IntentGrammar.eventNouns + #"s?\b"#
        var body: String
        var blocking = false
        if let v = pattern.match("(" + IntentGrammar.scheduleVerb + #")(?: me)?(?: in)? (.+)"#, t) {
            body = v[1]
            let verb = v[0].lowercased()
            blocking = verb.hasPrefix("block") || verb == "reserve"
            let b = body.lowercased()
            let hasEvent = pattern.contains(eventWord, b)
            let timed = dates.cut(body).grain.map { $0 == "hour" || $0 == "minute" } ?? false
            guard calendarWords || (hasEvent && !["add", "put", "make", "create", "plan"].contains(verb))
                || (hasEvent && (timed || pattern.contains(#"\bwith\b"#, b)))
                || (timed && ["add", "put", "pencil in", "block", "block out", "block off"].contains(verb)) else {
                return nil
            }
        } else if let first = l.split(separator: " ").first.map(String.init), !VerbLexicon.taskVerbs.contains(first),
                  VerbLexicon.action(ofLemma: first) == nil, !IntentGrammar.openers.contains(first),
                  !["move", "shift", "cancel", "remove", "delete", "clear", "drop", "erase", "no", "not"].contains(first),
                  VerbLexicon.pastLemma(first) == nil, !IntentGrammar.questionWords.contains(first), !c.question,
                  // One named kind of event, not talk about events ("events today", "what date is
                  // easter") and not a question.
                  !pattern.contains(#"\b(?:what|which|when|where|who|how|why)\b"#, l),
                  let lead = pattern.match(#"(?:(?:a|an|the|my|our) )?((?:[\p{L}'-]+ ){0,2})"# + IntentGrammar.bareEventNouns + #"\b.*"#, l),
                  // "need to call the bank": a verb, not an event.
                  !lead[0].split(separator: " ").contains(where: { ["to", "need", "needs", "want", "have", "has", "must", "should", "will", "gotta", "got", "i", "we", "you", "please", "can", "could"].contains(String($0)) }),
                  let grain = dates.cut(t).grain, grain == "hour" || grain == "minute" || grain == "day" {
            body = t
        } else {
            return nil
        }
        // "a meeting with Sam in my calendar": the calendar words go.
        body = pattern.regex(#"\b(?:in|on|to|into) (?:my |the )?(?:calendar|diary|schedule)\b"#).stringByReplacingMatches(
            in: body, range: NSRange(location: 0, length: (body as NSString).length), withTemplate: " ")
        var minutes: Int?
        if let (mm, rest) = minutesPhrase(body), pattern.contains(#"\b(?:for|lasting)\b"#, body.lowercased()) || !pattern.contains(#"\bin \d"#, body.lowercased()) {
            minutes = mm
            body = rest
            body = pattern.regex(#"\b(?:for|lasting)\s*$|\bfor (?=\s)"#).stringByReplacingMatches(in: body, range: NSRange(location: 0, length: (body as NSString).length), withTemplate: " ")
        }
        let people = attendees(in: body)
        let cut = dates.cut(body)
        var title = DateSlot.tidy(cut.rest)
        if let m = pattern.match(#"(?:an?|the) (.+)"#, title) { title = m[0] }
        // "block off friday at 8am": time kept free of anything else, under the word said for it.
        if blocking, title.isEmpty || pattern.match(#"(?:some )?time"#, title) != nil { title = "blocked" }
        if blocking, let m = pattern.match(#"(?:(?:some )?time )?for (?:the |my |an? )?(.+)"#, title) { title = m[0] }
        guard !title.isEmpty else { return nil }
        let place: String?
        (title, place) = IntentGrammar.splittingPlace(title)
        if let due = cut.due, let grain = cut.grain, grain == "hour" || grain == "minute" {
            var args: [String: JSONValue] = ["title": .string(title), "start": .string(due)]
            if let place { args["location"] = .string(place) }
            if let minutes { args["minutes"] = .number(Double(minutes)) }
            if !people.isEmpty { args["attendees"] = .array(people.map(JSONValue.string)) }
            return [PlannedIntent(.schedule, args, subject: title)]
        }
        // No time: the first free stretch of that day (or the coming week), asked first.
        return slotThenSchedule(title: title, minutes: minutes ?? 60, attendees: people, within: body)
    }

    /// find_slot, then schedule at its first slot ($1.start): a plan that asks before it writes.
    func slotThenSchedule(title raw: String, minutes: Int, attendees: [String], within text: String? = nil) -> [PlannedIntent] {
        let cut = dates.cut(raw)
        var title = DateSlot.tidy(cut.rest)
        if let m = pattern.match(#"(?:an?) (.+)"#, title) { title = m[0] }
        var find: [String: JSONValue] = ["minutes": .number(Double(minutes))]
        if let s = span(text ?? raw) { find["from"] = .string(s.from); find["to"] = .string(s.to) }
        let place: String?
        (title, place) = IntentGrammar.splittingPlace(title)
        var schedule: [String: JSONValue] = ["title": .string(title), "minutes": .number(Double(minutes))]
        if let place { schedule["location"] = .string(place) }
        if !attendees.isEmpty { schedule["attendees"] = .array(attendees.map(JSONValue.string)) }
        var first = PlannedIntent(.findSlot, find)
        first.confirm = "schedule \"\(title)\" (\(minutes) minutes) at the first free slot found?"
        var then = PlannedIntent(.schedule, schedule, subject: title)
        then.fromPrevious = ["start": "start"]
        return [first, then]
    }

    /// "lunch with Sam at Luigi's" is lunch with Sam, at Luigi's: a place closing the title (a
    /// capitalised name, or "the" and a kind of room) is the event's location, not its name.
    static func splittingPlace(_ title: String) -> (String, String?) {
        let named = #"^(.+?) (?:at|in) ((?:the )?\p{Lu}[\p{L}'’&.-]*(?: \p{Lu}[\p{L}'’&.-]*){0,3})$"#
        let room = #"^(.+?) (?:at|in) (the [\p{Ll}' -]{0,30}?(?:room|office|boardroom|cafe|café|canteen|library|gym|park|pub|bar|restaurant|hall|studio|lab|kitchen|lobby|reception|station|airport))$"#
        for (pattern, caseless) in [(named, false), (room, true)] {
            let r = ClausePattern.shared.regex(pattern, caseInsensitive: caseless)
            let ns = title as NSString
            guard let m = r.firstMatch(in: title, range: NSRange(location: 0, length: ns.length)) else { continue }
            let rest = ns.substring(with: m.range(at: 1)), place = ns.substring(with: m.range(at: 2))
            return (rest, place)
        }
        return (title, nil)
    }
}
