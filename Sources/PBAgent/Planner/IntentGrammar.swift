import Foundation
import PBCore
import PBDates

/// The deterministic reading of one clause: capture rules, command frames, paraphrase frames over
/// verb lemmas, statements of state, questions, in that order. `parse` returns nil when nothing
/// matched, so the caller can fall back honestly instead of guessing.
public struct IntentGrammar: Sendable {
    public let dates: DateSlot
    /// The contacts' names, lowercased (given, family, full, nicknames): a word a person types in
    /// lower case ("coffee with priya") is a person when the contacts know it.
    public let people: Set<String>

    public init(dates: DateSlot, people: Set<String> = []) {
        self.dates = dates
        self.people = people
    }

    /// A clause after the words that do not change its meaning are dropped.
    struct Clause {
        var text: String
        var question: Bool
        var bang: Bool
        /// Put to the assistant ("can you ...", "please ..."): "can you check my list" asks it to
        /// look now, where a bare "check the tyres" is a to-do.
        var asked = false
        /// Chat words cut from the end ("lol", ", cheers"), which a message's text keeps.
        var closing = ""
        var lower: String { text.lowercased() }
    }

    let pattern = ClausePattern.shared

    /// The intents of one clause, or nil when no rule claimed it.
    public func parse(_ raw: String) -> [PlannedIntent]? {
        let clause = normalise(raw)
        if clause.text.isEmpty { return nil }
        let readers: [(Clause) -> [PlannedIntent]?] = [
            redoRequest, undoRequest, construction, briefRequest, drafting, cancelledStatement, scheduling, list, lookAt, runOnQuestion, beforeCapture, capture, outOfScope, question, commands, paraphrase, statementOfState, imperative, lateConstruction,
        ]
        for reader in readers {
            if let intents = reader(clause) {
                let kept = intents.filter(namesStoreItem)
                return kept.isEmpty ? nil : kept
            }
        }
        return nil
    }

    /// "Undo that", "scratch that", "take that back": the whole clause asks to revert the last turn.
    /// Only whole-clause phrasings count, so "cancel the dentist" stays a delete.
    func undoRequest(_ clause: Clause) -> [PlannedIntent]? {
        let text = clause.lower.trimmingCharacters(in: CharacterSet(charactersIn: " .!"))
        let pattern = #"^(?:please )?(?:undo|revert|reverse|scratch|take back|cancel)(?: (?:that|it|this|the last (?:change|changes|thing|turn|step|request)|what you (?:just )?did|my last (?:change|request)))?(?: back)?(?: please)?$|^take (?:that|it) back(?: please)?$|^never ?mind(?:,? (?:undo|revert|take)(?: (?:that|it))?(?: back)?)?$|^(?:scrap|forget|ditch|bin) that(?: please)?$|^(?:remove|delete|undo|get rid of|take out|take back) (?:what you (?:just )?(?:added|made|created|did|put in|wrote)|(?:the|that) (?:task|thing|item|one|reminder|note|entry|event) (?:that )?you just (?:added|made|created|put in|wrote))(?: please)?$"#
        let regex = ClausePattern.shared.regex(pattern, caseInsensitive: false)
        guard regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil else { return nil }
        // "Cancel" means undo only with "that" or "the last ...": alone, or with "it" or "this",
        // it is as often "stop" ("that's enough, just cancel it").
        if ClausePattern.shared.match(#"(?:please )?cancel(?: (?:it|this))?(?: please)?"#, text) != nil { return nil }
        return [PlannedIntent(.undo, [:])]
    }

    /// "Redo", "redo that", "undo the undo": the whole clause asks to take back the last undo
    /// (a double-sent "undo that" undoes two turns; this is its remedy). "Redo the slides" is a
    /// task, not this.
    func redoRequest(_ clause: Clause) -> [PlannedIntent]? {
        let text = clause.lower.trimmingCharacters(in: CharacterSet(charactersIn: " .!"))
        let pattern = #"(?:please )?(?:redo(?: (?:that|it|this|the last (?:change|thing|turn|undo)|what you (?:just )?undid))?|undo (?:the|that|this|my|your) (?:last )?undo)(?: please)?"#
        guard ClausePattern.shared.match(pattern, text) != nil else { return nil }
        return [PlannedIntent(.redo, [:])]
    }

    /// Whether a piece of text starts a new command: used to split compound requests.
    public func opensCommand(_ raw: String) -> Bool {
        let clause = normalise(raw)
        guard let first = clause.lower.split(separator: " ").first.map(String.init) else { return false }
        let word = first.trimmingCharacters(in: CharacterSet(charactersIn: ",.:;!?"))
        if VerbLexicon.taskVerbs.contains(word) || VerbLexicon.action(ofLemma: word) != nil { return true }
        // "..., and let Anjali know that ...": a message to someone named; "let her know" is part
        // of what came before ("call mum and let her know").
        if word == "let", let m = pattern.match(#"let ([\p{L}'.-]+) know\b.*"#, clause.text) {
            return !IntentGrammar.notRecipients.contains(m[0].lowercased())
        }
        if IntentGrammar.openers.contains(word) { return true }
        if VerbLexicon.pastLemma(word) != nil, clause.lower.split(separator: " ").count > 1 { return true }
        return false
    }

    static let openers: Set<String> = [
        "remind", "add", "create", "make", "set", "note", "jot", "todo", "to-do", "search", "snooze", "reschedule",
        "what", "what's", "whats", "how", "how's", "when", "who", "which", "mark", "tick", "append", "new", "rename", "link",
        "prioritise", "prioritize", "deprioritise", "deprioritize", "i", "i'll", "i've", "we", "don't", "dont", "show",
        "list", "summarise", "summarize", "export", "start", "put", "repeat", "snooze", "file", "flag", "block",
    ]

    // MARK: normalising

    func normalise(_ raw: String) -> Clause {
        var t = raw.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
        t = t.trimmingCharacters(in: .whitespacesAndNewlines)
        var question = false
        var bang = false
        while let c = t.last, ".?!".contains(c) {
            if c == "?" { question = true }
            if c == "!" { bang = true }
            t.removeLast()
            t = t.trimmingCharacters(in: .whitespaces)
        }
        // Fillers read through before a request; those that are also ordinary words ("great aunt
        // Mary's birthday", "sorry card for Jane", "oops I deleted it") only with a break after them.
        // An assistant's wake word, after a greeting or alone ("hey olly, ...", "ok google ..."),
        // is filler too; a bare one only with a request after it (a contact may be called Olly).
        let wake = #"olly|siri|alexa|cortana|jarvis"#
        let plain = #"(?:hey|hi|hello|ok(?:ay)?) (?:"# + wake + #"|google|computer|assistant)|so basically|ok(?:ay)?|hey|hi|hello|so|um+|uh+|oh|wait|right|also|and then|and|then|btw|actually|not now|alright|please|pls|plz|quick one|one (?:more|last) thing|let'?s|lets|yeah|yep|hm+|er+m?|ah+|well|oh and|and also|by the way|sorry to bother you,? but"#
        let broken = wake + #"|just|hiya|oops|whoops|argh+|ugh+|no wait|no sorry|sorry(?: to bother you)?(?:,? but)?|anyway[s]?|basically|oh yeah|oh yes|cool|great|perfect|(?:just )?(?:a )?quick one"#
        let plainLead = #"(?:"# + plain + #")(?:[,!.:]|\.\.\.|\s+[-–—])?\s+(.+)"#
        let brokenLead = #"(?:"# + broken + #")(?:[,!.:]|\.\.\.|\s+[-–—])\s+(.+)"#
        // ... or with a request straight after them ("oops undo that", "basically I need to ...").
        let brokenBare = #"(?:"# + broken + #")\s+(.+)"#
        while true {
            if let m = pattern.match(plainLead, t) ?? pattern.match(brokenLead, t) { t = m[0]; continue }
            if let m = pattern.match(brokenBare, t) {
                // What follows may open with more filler first ("oh yeah and remind me ...").
                var rest = m[0]
                while let p = pattern.match(plainLead, rest) { rest = p[0] }
                if opensRequest(rest) { t = m[0]; continue }
            }
            break
        }
        var asked = pattern.contains(#"\b(?:please|pls|kindly|(?:can|could|would|will) (?:you|u))\b"#, t)
        // "I need you to ...", "I'd like you to ...": put to the assistant, never a to-do of its own.
        if let m = pattern.match(#"(?:i|we)(?: need| want| would like| would love|'d like|'d love|d like) (?:you|u) to (.+)"#, t) {
            t = m[0]
            asked = true
        }
        if let m = pattern.match(#"(?:can|could|would|will) (?:you|u)(?: please| pls| plz)?,? (.+)"#, t) { t = m[0] }
        if let m = pattern.match(#"(?:please|pls|plz|kindly),? (.+)"#, t) { t = m[0] }
        if let m = pattern.match(#"(?:will|would|could|can) (?:you|u)(?: please| pls| plz)?,? (.+)"#, t) { t = m[0] }
        // Chat words closing a request are not part of it ("... tonight lol", "..., cheers"); a
        // message keeps them (`closing`).
        var closing = ""
        if let m = pattern.match(#"(.+?)(,?(?: for me)?(?: please| pls| plz| thanks| thank you| thx| cheers| lol| haha+)?)"#, t) {
            t = m[0]
            closing = m[1]
        }
        var clause = Clause(text: t, question: question, bang: bang)
        clause.closing = closing
        clause.asked = asked
        return clause
    }

    /// Whether `text` starts as a request does: a command or to-do verb, an undo word, a request
    /// to the assistant ("can you", "please"), or "I need to"; not a statement ("I deleted it").
    func opensRequest(_ text: String) -> Bool {
        let words = text.lowercased().split(separator: " ").map { String($0).trimmingCharacters(in: .punctuationCharacters) }
        guard let first = words.first else { return false }
        if ["i", "we", "i'll", "i've", "we'll"].contains(first) {
            guard words.count > 1 else { return false }
            return ["need", "have", "gotta", "got", "must", "want", "should", "'ve", "ve", "'d", "d"].contains(words[1]) || words[1].hasPrefix("need")
        }
        if first == "done" { return false }
        if VerbLexicon.taskVerbs.contains(first) || VerbLexicon.action(ofLemma: first) != nil || Self.openers.contains(first) { return true }
        if ["undo", "revert", "scratch", "scrap", "forget", "never", "take", "can", "could", "would", "will", "please", "pls", "remind", "just"].contains(first) { return true }
        return false
    }

    // MARK: slots

    static let pronouns: Set<String> = ["it", "that", "this", "them", "this one", "that one", "the task", "that task", "this task", "those", "these"]

    /// "it", "that", and a demonstrative with a kind ("this note", "that email"): the item in view,
    /// which only the plan or the session can supply; never a title to match loosely.
    func isPronoun(_ s: String) -> Bool {
        let l = s.lowercased()
        return IntentGrammar.pronouns.contains(l)
            || pattern.match(#"(?:this|that|these|those) (?:note|email|e-mail|message|item|entry|thing|one|reminder|event|list|file|document)s?"#, l) != nil
    }

    /// A reference slot: the item's title with articles of the request trimmed ("the report").
    func item(_ s: String) -> String {
        var t = DateSlot.tidy(s)
        if let m = pattern.match(#"(?:the )?(?:task|todo|to-do|item) (?:called |named |titled )?(.+)"#, t) { t = m[0] }
        if let m = pattern.match(#"(.+?) (?:task|todo|to-do)"#, t), !t.lowercased().hasSuffix("a task") { t = m[0] }
        if let m = pattern.match(#"["“'](.+)["”']"#, t) { t = m[0] }
        // "the vet appointment from my calendar": the calendar is where it is, not its name.
        if let m = pattern.match(#"(.+?) (?:from|off|on|in|out of) (?:my |the )?(?:calendar|diary|agenda|schedule)(?: app)?"#, t) { t = m[0] }
        return t
    }

    /// An intent that acts on a task named by title, or by a pronoun left for the planner.
    func onTask(_ tool: ToolName, _ slot: String, _ args: [String: JSONValue] = [:]) -> PlannedIntent? {
        let title = item(slot)
        if title.isEmpty { return nil }
        if isPronoun(title) { return PlannedIntent(tool, args, pronoun: true) }
        // "my next meeting", "the next event": the one due soonest, found in the store.
        if let m = pattern.match(#"(?:my |the )?(?:very )?next (event|meeting|appointment|appt|task|thing|reminder|one|call|to-?do|item)"#, title) {
            var a = args
            a["title"] = .string("next " + m[0].lowercased())
            var intent = PlannedIntent(tool, a, subject: m[0].lowercased())
            intent.dueNext = true
            return intent
        }
        var a = args
        a["title"] = .string(title)
        return PlannedIntent(tool, a, subject: title)
    }

    /// A new task from free text: the date phrase, a repeat phrase and priority cues are cut out.
    func newTask(_ text: String, bang: Bool = false, extraPriority: String? = nil) -> [PlannedIntent]? {
        var (rest, priority) = priorityCue(text)
        if bang, priority == nil { priority = "high" }
        if let p = extraPriority { priority = p }
        var repeatRule: String?
        if let (r, without) = repeatPhrase(rest) {
            repeatRule = r
            rest = without
        }
        let cut = dates.cut(rest)
        if repeatRule == nil { repeatRule = cut.recurrence }
        var title = DateSlot.tidy(cut.rest)
        if let m = pattern.match(#"["“'](.+)["”']"#, title) { title = m[0] }
        guard !title.isEmpty, !isPronoun(title) else { return nil }
        var args: [String: JSONValue] = ["title": .string(title)]
        if let due = cut.due { args["due"] = .string(due) }
        if let grain = cut.grain { args["due_grain"] = .string(grain) }
        if let p = priority { args["priority"] = .string(p) }
        var intents = [PlannedIntent(.createTask, args, subject: title)]
        if let invalid = cut.invalid, let phrase = cut.phrase {
            intents[0].args["notes"] = .string("date left out: \(phrase) (\(invalid))")
        }
        if let rule = repeatRule {
            intents.append(PlannedIntent(.setRecurrence, ["rule": .string(rule)], subject: title, pronoun: true))
        }
        return intents
    }

    /// "urgent", "asap", "high priority" and friends; the cue is cut from the text.
    func priorityCue(_ text: String) -> (String, String?) {
        let high = #"\(?\b(?:it'?s |this is |is )?(?:very |really |super )?(?:urgent(?:ly)?|asap|a\.s\.a\.p\.?|high[- ]priority|top[- ]priority|critical|important|right away|immediately)\b\)?:?"#
        let low = #"\(?\b(?:low[- ]priority|no rush|not urgent|whenever|someday|at some point|eventually)\b\)?"#
        for (p, value) in [(high, "high"), (low, "low")] {
            let r = ClausePattern.shared.regex(p)
            let ns = text as NSString
            if r.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) != nil {
                let cut = r.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: ns.length), withTemplate: " ")
                return (DateSlot.tidy(cut), value)
            }
        }
        return (text, nil)
    }

    /// "every day", "weekly", "every 2 weeks", "every month": the rule and the text without it.
    /// Weekday repeats ("every friday") are left to the date parser, which reads their first day.
    func repeatPhrase(_ text: String) -> (String, String)? {
        let table: [(String, String)] = [
            (#"every (?:other|second) week|fortnightly|every fortnight|every 2 weeks|biweekly"#, "FREQ=WEEKLY;INTERVAL=2"),
            (#"every (\d+) weeks"#, "W"),
            (#"every (\d+) days"#, "D"),
            (#"every (?:other|second) day|on alternate days|every two days"#, "FREQ=DAILY;INTERVAL=2"),
            (#"every (?:other|second) month|every two months"#, "FREQ=MONTHLY;INTERVAL=2"),
            (#"every (\d+) months"#, "M"),
            (#"every day|daily|each day|every morning|every evening|every night|nightly"#, "daily"),
            (#"every week|weekly|each week|once a week"#, "weekly"),
            (#"every month|monthly|each month|once a month"#, "monthly"),
            (#"every year|yearly|annually|each year|once a year"#, "yearly"),
        ]
        for (p, rule) in table {
            // "on the 1st of every month": the "of" belongs to the repeat, not the title.
            let r = ClausePattern.shared.regex(#"(?:\bof )?\b(?:"# + p + #")\b"#)
            let ns = text as NSString
            guard let m = r.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { continue }
            var value = rule
            if rule.count == 1, m.numberOfRanges > 1, m.range(at: 1).location != NSNotFound {
                let n = ns.substring(with: m.range(at: 1))
                let freq = ["W": "WEEKLY", "D": "DAILY", "M": "MONTHLY"][rule]!
                value = "FREQ=\(freq);INTERVAL=\(n)"
            }
            let without = ns.replacingCharacters(in: m.range, with: " ")
            return (value, DateSlot.tidy(without))
        }
        return nil
    }

    /// The rule a recurrence slot names ("every week", "every other friday", "monthly").
    func rule(of slot: String) -> String? {
        let s = slot.lowercased()
        if pattern.match(#"(?:never|no more|none|not repeat|stop)"#, s) != nil { return "none" }
        if let (r, _) = repeatPhrase(s) { return r }
        if let (r, _) = repeatPhrase("every " + s) { return r }
        if let m = dates.parser.matches(in: s.hasPrefix("every") ? s : "every " + s).first, let r = m.recurrence {
            return DateSlot.rule(r)
        }
        return nil
    }

    /// "2 days", "an hour", "a couple of weeks" as snooze arguments.
    func duration(_ count: String, _ unit: String) -> [String: JSONValue]? {
        let words = ["a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                     "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3]
        let c = count.lowercased()
        guard let n = Int(c) ?? words[c] else { return nil }
        let u = unit.lowercased()
        if u.hasPrefix("min") { return ["minutes": .number(Double(n))] }
        if u.hasPrefix("hour") || u.hasPrefix("hr") { return ["hours": .number(Double(n))] }
        if u.hasPrefix("day") { return ["days": .number(Double(n))] }
        if u.hasPrefix("week") { return ["days": .number(Double(n * 7))] }
        if u.hasPrefix("fortnight") { return ["days": .number(Double(n * 14))] }
        return nil
    }

    static let count = #"(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a couple(?: of)?|couple of|a few|few)"#
    static let unit = #"(minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?)"#
}
