import Foundation
import PBText
import PBCore

/// The constructions read before the older readers: everyday phrasings those misread or missed.
extension IntentGrammar {

    static let priorityLabel = #"(urgent|important|asap|high priority|top priority|low priority|not urgent|no rush)(?:\s*:|\s+[-–])\s*(.+)"#

    static let constructions: [Construction] = [
        Construction(
            name: "priority label",
            pattern: priorityLabel,
            slots: ["priority", "request"],
            examples: [("urgent: renew passport by Friday", [.createTask]), ("low priority: sort the loft", [.createTask])],
            build: { g, c, m in
                let level = ["low priority", "not urgent", "no rush"].contains(m[0].lowercased()) ? "low" : "high"
                let found = g.parse(m[1]) ?? g.newTask(m[1]) ?? []
                guard found.contains(where: { $0.tool == .createTask }) else { return nil }
                return found.map { intent in
                    guard intent.tool == .createTask else { return intent }
                    var i = intent
                    i.args["priority"] = .string(level)
                    return i
                }
            }),
        Construction(
            name: "snooze or hold until a day",
            pattern: #"(?:snooze|hold|park|defer|put off|postpone|delay|push)(?: back| out| off)? (.+?) (?:back |out |off )?(?:until|till|til|to|for) (.+)"#,
            slots: ["item", "day"],
            examples: [("snooze the HeatRight call until Tuesday", [.rescheduleTask]), ("snooze arjun's permission slip till tomorrow", [.rescheduleTask])],
            build: { g, _, m in
                let cut = g.dates.cut(m[1])
                guard let due = cut.due, DateSlot.tidy(cut.rest).isEmpty else { return nil }
                var args: [String: JSONValue] = ["due": .string(due)]
                if let grain = cut.grain { args["due_grain"] = .string(grain) }
                return g.onTask(.rescheduleTask, m[0], args).map { [$0] }
            }),
        Construction(
            name: "stop repeating an item",
            pattern: #"(?:stop repeating|don't repeat|do not repeat|no longer repeat|stop the repeat (?:of|on)) (.+?)(?: any ?more| from now on)?"#,
            slots: ["item"],
            examples: [("stop repeating the piano lessons task", [.setRecurrence]), ("don't repeat the bin reminder anymore", [.setRecurrence])],
            build: { g, c, m in g.stoppingRepeat(c, m[0]) }),
        Construction(
            name: "an item stops repeating",
            pattern: #"make (.+?) (?:stop repeating|not repeat any ?more|stop recurring)"#,
            slots: ["item"],
            examples: [("make the gym task stop repeating", [.setRecurrence])],
            build: { g, c, m in g.stoppingRepeat(c, m[0]) }),
        Construction(
            name: "message on a channel, after a colon",
            pattern: #"(text|message|msg|sms|whatsapp|signal|dm|email|e-mail) ([\p{L}][\p{L}'.-]*(?: [\p{L}][\p{L}'.-]*)?)(?:\s*:|\s+[-–])\s*(.+)"#,
            slots: ["channel", "to", "text"],
            examples: [("whatsapp Amma: reached safely, will call after dinner", [.draftMessage])],
            build: { g, _, m in g.isPerson(m[1]) ? g.draft(to: m[1], channel: m[0], text: m[2]) : nil }),
        Construction(
            name: "reply to someone saying",
            pattern: #"(?:reply|respond|write back|answer) to ([\p{L}][\p{L}'.-]*(?: [\p{L}][\p{L}'.-]*){0,2}?)(?: on (whatsapp|signal|text|email|e-mail|sms))?,? (?:saying|to say|that)\s*:?\s*(.+)"#,
            slots: ["to", "channel", "text"],
            examples: [("reply to Sam O'Neill saying yes, saturday works", [.draftMessage])],
            build: { g, _, m in g.isPerson(m[0]) ? g.draft(to: m[0], channel: m[1].isEmpty ? "message" : m[1], text: m[2]) : nil }),
        Construction(
            name: "a day said first",
            pattern: #"(.+)"#,
            slots: ["request"],
            examples: [("every sunday i need to feed the sourdough starter", [.createTask, .setRecurrence]),
                       ("tomorrow morning pick up the parcel from the post office", [.createTask])],
            build: { g, _, m in g.dayFirst(m[0]) }),
    ]

    /// The constructions read after every other reader, when none claimed the clause: phrasings
    /// so open ("dentist friday 3pm") that they must not take a clause another reader knows.
    static let lateConstructions: [Construction] = [
        Construction(
            name: "a day said to be something, for the calendar",
            pattern: #"(?:on )?(.+?) (?:is|will be|'s) (.+?)(?:,? (?:so |and )?(?:please )?(?:(?:place|put|add|set|mark|note|save|enter|pop) (?:this|it|that)(?: (?:on|in|to|into) (?:my |the )?(?:calendar|diary|schedule))?|set it|(?:and )?(?:update )?my calendar (?:is )?to be updated(?: with (?:this|that|the) date)?))"#,
            slots: ["day", "what"],
            examples: [("march fifth is john's birthday please place this on the calendar", [.createTask]),
                       ("thirteenth june is election day please set it", [.createTask])],
            build: { g, _, m in
                let cut = g.dates.cut(m[0])
                guard DateSlot.tidy(cut.rest).isEmpty, cut.due != nil else { return nil }
                return g.datedEntry(m[1] + " " + m[0], forTheCalendar: true)
            }),
        Construction(
            name: "an entry with a day",
            pattern: #"(.+)"#,
            slots: ["entry"],
            examples: [("dentist friday 3pm", [.schedule]), ("piano recital on the 14th", [.createTask]),
                       ("church with mom and dad on sunday", [.createTask]), ("bins out every tuesday night", [.createTask, .setRecurrence])],
            build: { g, c, m in c.question ? nil : g.datedEntry(m[0]) }),
    ]

    /// A repeat rule set to none, for an item named as one ("the gym task", "my yoga"): never
    /// for a question or a pronoun ("yourself"); the store's R9 holds the name to an item.
    func stoppingRepeat(_ c: Clause, _ slot: String) -> [PlannedIntent]? {
        guard !c.question, pattern.match(#"(?:the|my|that|this|our) .+"#, slot.lowercased()) != nil,
              dates.cut(slot).phrase == nil else { return nil }
        return onTask(.setRecurrence, slot, ["rule": .string("none")]).map { [$0] }
    }

    func construction(_ c: Clause) -> [PlannedIntent]? {
        for k in Self.constructions {
            if let m = pattern.match(k.pattern, c.text), let found = k.build(self, c, m) { return found }
        }
        return nil
    }

    func lateConstruction(_ c: Clause) -> [PlannedIntent]? {
        for k in Self.lateConstructions {
            if let m = pattern.match(k.pattern, c.text), let found = k.build(self, c, m) { return found }
        }
        return nil
    }

    /// Words that make a clause a sentence about something rather than the name of an entry
    /// ("dentist went fine today", "we need milk friday", "nothing tomorrow").
    static let notEntryWords: Set<String> = [
        "is", "are", "was", "were", "be", "been", "being", "am", "i", "we", "you", "he", "she", "it", "they", "me", "us",
        "him", "them", "will", "would", "should", "shall", "can", "could", "may", "might", "must", "need", "needs", "want",
        "wants", "have", "has", "had", "do", "does", "did", "not", "no", "to", "went", "got", "nothing", "anything",
        "everything", "something", "this", "that", "what", "which", "who", "how", "why", "when", "where", "if", "so",
        "very", "too", "really", "just", "please", "thanks", "thank", "ok", "okay", "yes", "busy", "free", "off", "done",
    ]

    /// The words that join the nouns of an entry's name ("church with mom and dad", "bins out").
    static let entryJoiners: Set<String> = ["with", "and", "for", "at", "of", "the", "a", "an", "my", "our", "his", "her", "their", "to", "from", "in", "on", "out", "up", "&"]

    /// What people ask about by naming it with a day ("events today", "movie times tonight"),
    /// never the name of an entry.
    static let askedAboutNouns: Set<String> = [
        "schedule", "schedules", "events", "agenda", "calendar", "diary", "plans", "appointments", "meetings", "time", "times",
        "date", "dates", "day", "price", "prices", "weather", "forecast", "news", "traffic", "alarm", "alarms", "reminders",
        "tasks", "list", "lists", "to-dos", "todos", "things", "stuff", "showtimes", "temperature", "score", "scores",
        "snow", "rain", "frost", "fog", "ice", "hail", "sleet", "wind", "storm", "storms", "heatwave", "sunshine", "cheers", "mate",
        "thanks", "hours", "numbers", "count", "back", "home", "off", "away",
    ]

    /// An entry named by a noun phrase and a day, with no verb: "dentist friday 3pm" (an event at
    /// that time), "piano recital on the 14th", "bins out thursday night" (a task due then).
    /// Nothing past: "dentist yesterday" is a record, not an entry. `forTheCalendar`: the request
    /// asked to put it on the calendar, so "election day" is an entry, not a thing asked about.
    func datedEntry(_ text: String, forTheCalendar: Bool = false) -> [PlannedIntent]? {
        let cut = dates.cut(text)
        guard let due = cut.due, let grain = cut.grain, ["minute", "part_of_day", "day"].contains(grain),
              cut.invalid == nil, let value = cut.value, let phrase = cut.phrase?.lowercased() else { return nil }
        // The entry's name comes first and its day closes it: "today's schedule", "events today",
        // "twenty second april day" and "the time in canada now" are things asked about.
        let said = text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " .!?"))
        guard said.hasSuffix(phrase), !said.hasPrefix(phrase), phrase != "now", !phrase.hasSuffix(" now") else { return nil }
        // Today with no clock time is how people say what is happening ("headache today",
        // "migraine this morning"); an entry is for a later day, or at a time.
        if grain != "minute", cut.recurrence == nil, dates.calendar.isDate(value, inSameDayAs: dates.parser.now) { return nil }
        guard value >= dates.startOfToday else { return nil }
        var title = DateSlot.tidy(cut.rest)
        if let m = pattern.match(#"(?:a|an|the|my|our) (.+)"#, title) { title = m[0] }
        let words = title.lowercased().split(separator: " ").map { String($0).trimmingCharacters(in: .punctuationCharacters) }
        guard let first = words.first, first.contains(where: \.isLetter), (1...6).contains(words.count), !words.contains(where: Self.notEntryWords.contains),
              forTheCalendar || !words.contains(where: Self.askedAboutNouns.contains),
              // Names only: every word a noun more often than an adjective ("the tailor shuts",
              // "Sam sick", "pharmacy open" are sentences), someone's, or a word that joins them;
              // no number left over ("dentist 17th at 2pm").
              words.allSatisfy({ w in
                  if Self.entryJoiners.contains(w) || w.hasSuffix("'s") { return true }
                  guard !w.contains(where: \.isNumber) else { return false }
                  guard let wordnet = WordNet.shared else { return false }
                  let nouns = wordnet.senseCount(w, as: .noun)
                  return nouns > 0 && wordnet.senseCount(w, as: .adj) < nouns
              }),
              !VerbLexicon.taskVerbs.contains(first), VerbLexicon.action(ofLemma: first) == nil, !Self.openers.contains(first),
              VerbLexicon.pastLemma(first) == nil, !Self.questionWords.contains(first) else { return nil }
        // The first word names a thing: a noun, or someone's ("sam's birthday").
        let head = first.hasSuffix("'s") ? String(first.dropLast(2)) : first
        guard first.hasSuffix("'s") || (WordNet.shared?.baseForms(head).contains { $0.0 == .noun } ?? false) else { return nil }
        if grain == "minute", cut.recurrence == nil {
            let place: String?
            var name = title
            (name, place) = IntentGrammar.splittingPlace(title)
            var args: [String: JSONValue] = ["title": .string(name), "start": .string(due)]
            if let place { args["location"] = .string(place) }
            let people = attendees(in: title)
            if !people.isEmpty { args["attendees"] = .array(people.map(JSONValue.string)) }
            return [PlannedIntent(.schedule, args, subject: name)]
        }
        // A task due then, with its repeat ("bins out every tuesday night"), as a new task is read.
        return newTask(text)
    }

    /// Whether a name said as a message's recipient is a person's: one of the contacts, or
    /// capitalised words that are not ordinary words ("Priya", "Sam O'Neill"; not "reminder",
    /// "the landlord", "Team", "Sure", "Sam re").
    func isPerson(_ name: String) -> Bool {
        let words = name.split(separator: " ").map(String.init)
        guard let first = words.first, !Self.notRecipients.contains(first.lowercased()) else { return false }
        if people.contains(name.lowercased()) || (words.count == 1 && people.contains(first.lowercased())) { return true }
        if words.count == 1, Self.familyNames.contains(first.lowercased()) { return true }
        return words.allSatisfy { w in
            guard let c = w.first, c.isUppercase else { return false }
            return !(WordList.shared?.isCommonWord(w) ?? false) || people.contains(w.lowercased())
        }
    }

    /// What people call their family in a message's address: each is one person ("whatsapp mum: ...").
    static let familyNames: Set<String> = [
        "mum", "mom", "mam", "mummy", "mommy", "mother", "dad", "daddy", "father", "nan", "nana", "nanna", "gran", "granny",
        "grandma", "grandad", "granddad", "grandpa", "amma", "appa", "ammi", "abba", "papa", "mama",
    ]

    /// A draft message as the drafting reader makes them, with the channel word as said.
    func draft(to name: String, channel said: String, text raw: String) -> [PlannedIntent]? {
        guard let channel = Self.messageVerbs[said.lowercased()], !Self.notRecipients.contains(name.lowercased()) else { return nil }
        var text = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \"“”"))
        guard !text.isEmpty else { return nil }
        text = text.prefix(1).uppercased() + text.dropFirst()
        var intent = PlannedIntent(.draftMessage, ["to": .string(name), "channel": .string(channel), "text": .string(text)])
        intent.confirm = "draft \(channel == "email" ? "an email" : "a message") to \(name): \"\(text)\"? (it is not sent)"
        return [intent]
    }

    /// "Every Sunday I need to feed the starter", "tomorrow morning pick up the parcel": a date
    /// said before the request is read as if said after it, when the rest alone is a capture.
    func dayFirst(_ text: String) -> [PlannedIntent]? {
        guard let m = dates.parser.matches(in: text).first, m.error == nil, m.start == 0, m.end < text.utf8.count else { return nil }
        let rest = String(decoding: Array(text.utf8)[m.end...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " ,:-"))
        guard !rest.isEmpty, let alone = parse(rest), alone.contains(where: { $0.tool == .createTask }),
              alone.allSatisfy({ $0.tool == .createTask || $0.tool == .setRecurrence }) else { return nil }
        return parse(rest + " " + m.phrase)
    }
}

extension IntentGrammar {
    // Only verbs that say "change the list": "clear the gutters and water the plants",
    // "finish the report and email the landlord" and "cancel dinner and email the landlord" are
    // a change and a to-do, or two to-dos, as often as two changes.
    static let listDelete = #"(?:delete|remove)"#
    static let listComplete = #"(?:complete|tick off|cross off|check off|mark off)"#

    /// "delete pay rent, call mom and buy milk", "complete call mom and book dentist", "mark A
    /// and B as done": one verb over a list is one change per item, never new tasks. With the
    /// store read, only when it holds every item by its title (else "delete the dentist and call
    /// mum" is two requests); without it, only a list of three or more written with commas.
    func listedChanges(_ sentence: String, holds: (String) -> Bool?) -> [PlannedIntent]? {
        let t = normalise(sentence).text
        var tool: ToolName
        var list: String
        if let m = pattern.match("(" + Self.listDelete + "|" + Self.listComplete + #") (.+?)(?: (?:as )?(?:done|complete|completed|finished|off))?"#, t) {
            tool = pattern.match(Self.listDelete, m[0]) != nil ? .deleteTask : .completeTask
            list = m[1]
        } else if let m = pattern.match(#"mark (.+?) (?:as )?(?:done|complete|completed|finished|off)"#, t) {
            tool = .completeTask
            list = m[0]
        } else {
            return nil
        }
        let items = listItems(list).map { item($0) }
        guard items.count >= 2, items.allSatisfy({ !$0.isEmpty && !isPronoun($0) && dates.cut($0).phrase == nil }) else { return nil }
        let held = items.map(holds)
        if held.contains(where: { $0 == nil }) {
            guard items.count >= 3, list.contains(",") else { return nil }
        } else if held.contains(false) {
            return nil
        }
        return items.compactMap { onTask(tool, $0) }
    }

    /// A whole request that is a message on a channel after a colon: "whatsapp mum: landing at 6,
    /// don't bother picking me up", "sms Aoife: can you grab milk on the way home?". The one
    /// sentence after the colon is the message, its commas and closing "?" as written.
    func channelMessage(_ text: String) -> [PlannedIntent]? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let regex = ClausePattern.shared.regex(#"^(?i:(?:please |pls )?(text|message|msg|sms|whatsapp|signal|dm|email|e-mail)) ([\p{L}][\p{L}'.-]*(?: [\p{L}][\p{L}'.-]*)?)(?:\s*:|\s+[-–])\s*([\s\S]+)$"#, caseInsensitive: false)
        let ns = t as NSString
        guard let m = regex.firstMatch(in: t, range: NSRange(location: 0, length: ns.length)) else { return nil }
        let channel = ns.substring(with: m.range(at: 1)), name = ns.substring(with: m.range(at: 2))
        // One sentence: "text dad: call me. Also remind me to buy milk" asks two things.
        let body = ns.substring(with: m.range(at: 3))
        guard isPerson(name), ClauseSplitter(grammar: self).sentences(body).count == 1 else { return nil }
        return draft(to: name, channel: channel, text: body)
    }

    /// A message written out, then sent on: "Hey Sam, thanks for dinner! send it to him on
    /// whatsapp", "Hi Priya, the deck is attached. Send this to her now". The greeting names the
    /// person; everything before the sending sentence is the message.
    func addressedMessage(_ text: String) -> [PlannedIntent]? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let p = #"((?i:(?:hi|hey|hello|dear|morning|evening|yo)\s+)?([\p{L}][\p{L}'’-]*(?: [\p{Lu}][\p{L}'’-]*)?)\s*[,!]\s+.+?)[\s.!?]+(?i:(?:please |pls |can you |could you )?(?:send|text|message|whatsapp|email|forward) (?:it|this|that)(?: to (him|her|them|[\p{L}'’-]+(?: [\p{Lu}][\p{L}'’-]*)?))?(?: (?:on|via|by|over|as an?) (whatsapp|signal|text|sms|email|e-mail|message))?(?: now| please| pls| right away| asap)*)[.!]?"#
        let regex = ClausePattern.shared.regex("^(?:" + p + ")$", caseInsensitive: false)
        let ns = t as NSString
        guard let m = regex.firstMatch(in: t, range: NSRange(location: 0, length: ns.length)) else { return nil }
        func group(_ i: Int) -> String { m.range(at: i).location == NSNotFound ? "" : ns.substring(with: m.range(at: i)) }
        // The person named in the sending sentence, else the one greeted; either must be a person.
        let said = group(3)
        let name = said.isEmpty || ["him", "her", "them"].contains(said.lowercased()) ? group(2) : said
        guard isPerson(name) else { return nil }
        let body = group(1).trimmingCharacters(in: CharacterSet(charactersIn: " .!?"))
        let channel = group(4).isEmpty ? "message" : group(4).lowercased()
        return draft(to: name, channel: channel, text: body)
    }
}
