import Foundation
import PBText
import PBCore

/// Questions: the agenda for what is due, project tools for status and blockers, the calendar for
/// free time, and "ask my notes" for every other factual question.
extension IntentGrammar {

    static let questionWords: Set<String> = [
        "what", "what's", "whats", "when", "when's", "where", "where's", "who", "who's", "which", "how", "how's", "why",
        "is", "are", "am", "does", "did", "any", "anything", "show", "tell", "give", "was", "were",
        "should",
    ]

    /// "Brief me", "my morning briefing", "what does my day look like": the whole clause asks for
    /// the morning brief (the day at a glance), read-only.
    func briefRequest(_ clause: Clause) -> [PlannedIntent]? {
        let text = clause.lower.trimmingCharacters(in: CharacterSet(charactersIn: " .!?"))
        let brief = #"(?:please )?(?:(?:give|read|show|get) me |what'?s |what is )?(?:my |the |a |today'?s )?(?:morning |daily |day'?s )?(?:brief|briefing|rundown|run-?down|run down)(?: for (?:today|the day|this morning))?(?: please)?"#
            + #"|(?:please )?brief me(?: on (?:my |the )?day| for today)?(?: please)?"#
            + #"|(?:what|how) does (?:my|the|today'?s) day look(?: like)?(?: today)?|what'?s my day (?:like|looking like)(?: today)?|how'?s my day (?:looking|shaping up)(?: today)?"#
        guard pattern.match(brief, text) != nil else { return nil }
        return [PlannedIntent(.brief, [:])]
    }

    /// A request run on into a direct question, as speech transcribes it without a stop: "i need
    /// some sushi what's closest", "it looks sunny today is that true", "i need a good film any
    /// thoughts". What is asked is the question, so it is read as one (read-only), not captured as a
    /// to-do. A question embedded after a verb of asking or finding out ("find out what stores are
    /// open", "ask Sam where the key is") and a clause that opens with a command ("remind me to ask
    /// Sam where is the key") are left to the rules after this one.
    func runOnQuestion(_ c: Clause) -> [PlannedIntent]? {
        let l = c.lower
        let tail = #"(?:(?:what|where|how)(?:'s|s| is| are| was| were| do| does| did| can| could| will| would| should)|how (?:many|much|far|long|often) (?:do|does|is|are|can|will|should)|(?:is|isn't|are|aren't) (?:that|it|this|there|they) (?:true|right|correct|so|ok|okay|open|available|possible|any good)|any (?:thoughts|ideas|suggestions|recommendations|advice))\b.*"#
        guard let m = pattern.match(#"(.+?) ("# + tail + ")", l) else { return nil }
        let head = m[0].split(separator: " ").map(String.init)
        guard head.count >= 2, let first = head.first, let last = head.last else { return nil }
        if Self.commandOpeners.contains(first) { return nil }
        if Self.askingVerbs.contains(last) || last == "out" { return nil }
        return question(Clause(text: c.text, question: true, bang: c.bang, asked: c.asked))
    }

    /// First words of a clause that is a command whatever question it carries.
    static let commandOpeners: Set<String> = [
        "remind", "add", "create", "schedule", "note", "jot", "put", "set", "text", "message", "email", "ask", "tell",
        "write", "save", "draft", "send", "book", "todo", "to-do", "record", "log", "mark", "move", "reschedule",
        "delete", "remove", "cancel", "complete", "finish", "append",
    ]

    /// Words after which a question is the object of the request, not put to the assistant.
    static let askingVerbs: Set<String> = [
        "ask", "asking", "know", "knowing", "find", "check", "see", "tell", "wonder", "wondering", "decide", "remember",
        "figure", "learn", "work", "look", "google", "research", "about", "on", "discuss", "explain", "understand",
        "plan", "confirm", "sure", "sort", "choose", "pick", "agree", "whether", "of", "to",
    ]

    /// What a calendar or a list holds, named with no verb: "today's schedule", "my events",
    /// "latest events", "first week of march meetings", "my party list", "events today".
    static let askedHeads: Set<String> = [
        "agenda", "schedule", "schedules", "calendar", "diary", "events", "meetings", "appointments", "plans", "birthdays",
        "reminders", "tasks", "list", "lists", "todos", "to-dos", "showtimes", "plan",
    ]

    /// Whether a clause only names what a calendar or a list holds (a question without its
    /// "what is"): a short noun phrase with one of `askedHeads`, no verb and no person acting.
    func namesWhatIsAsked(_ said: String) -> Bool {
        // Its dates are no words of a sentence ("events between eight am and five pm today"), and
        // a "to do list" is a to-do list.
        let l = said.replacingOccurrences(of: "to do list", with: "to-do list")
        func words(_ s: String) -> [String] {
            s.split(separator: " ").map { String($0).trimmingCharacters(in: .punctuationCharacters) }.filter { !$0.isEmpty }
        }
        let said = words(l)
        // Cutting dates only takes words away: without a head or with a verb first, no cut helps.
        guard let first = said.first, said.contains(where: Self.askedHeads.contains), !VerbLexicon.taskVerbs.contains(first),
              VerbLexicon.action(ofLemma: first) == nil, VerbLexicon.pastLemma(first) == nil else { return false }
        var undated = l
        for _ in 0..<3 {
            let cut = dates.cut(undated)
            guard cut.phrase != nil, !cut.rest.isEmpty else { break }
            undated = cut.rest.lowercased()
        }
        let words = words(undated)
        guard (1...8).contains(words.count), words.contains(where: Self.askedHeads.contains),
              !words.contains(where: { w in
                  ["i", "we", "you", "he", "she", "they", "it", "is", "are", "was", "were", "to", "will", "should", "need", "needs"].contains(w)
                      || ["i'", "we'", "you'", "he'", "she'", "they'", "it'"].contains { w.hasPrefix($0) }   // "i'm", "we're"
              })
        else { return false }
        // "the tailor shuts", "meetings went well": a verb that is no noun makes it a sentence.
        return !words.contains { w in
            guard !Self.askedHeads.contains(w) else { return false }
            let forms = WordNet.shared?.baseForms(w) ?? []
            return forms.contains { $0.0 == .verb } && !forms.contains { $0.0 == .noun } && !forms.contains { $0.0 == .adj }
        }
    }

    func question(_ c: Clause) -> [PlannedIntent]? {
        var t = c.text
        // "on my calendar, are there any birthdays": where to look, said first.
        if let m = pattern.match(#"(?:on|in) (?:my |the )?(?:calendar|diary|schedule),? ((?:is|are|do|does|did|have|what|when|who|which|how|any)\b.+)"#, t) {
            t = m[0]
        }
        var asks = pattern.match(#"(?:do|have|did) (?:i|we) .+|(?:(?:show|read|list|tell|display|speak|open|provide|recite|describe|present)(?: me)?|(?:give|get) me|(?:i )?(?:need |want )?(?:some )?(?:information|info|details) (?:about|on|of|for))(?: back| out| all)? (?:my |the |all |what'?s on |whats on |what is on |about |what is there on |the contents of )?.*\b(?:lists?|calendar|events?|meetings?|schedule|agenda|appointments?|plans?|week|day|tasks|to-?dos?|birthdays?)\b.*"#, t) != nil
        if let m = pattern.match(#"(?:tell|show|give|get) me(?: about)? (.+)"#, t) { t = m[0]; asks = true }
        if let m = pattern.match(#"(?:i (?:want|need|'d like) to know|i wonder|do you know|let me know) (.+)"#, t) { t = m[0] }
        let l = t.lowercased()
        let first = l.split(separator: " ").first.map(String.init) ?? ""
        let isQuestion = c.question || asks || IntentGrammar.questionWords.contains(first)
            || pattern.match(#"(?:my |the )?(?:agenda|schedule|calendar|tasks|to-?do list|todos)(?: for .+| today| this week| tomorrow)?"#, l) != nil
            || namesWhatIsAsked(l)
        guard isQuestion else { return nil }
        let asked = c.text + "?"

        if pattern.contains(#"\b(?:my notes|according to|notes say|in my notes)\b"#, l) {
            return [PlannedIntent(.askNotes, ["question": .string(asked)])]
        }
        if pattern.contains(#"\b(?:notes?|say|said|saying|wrote|write|written|mention(?:ed)?|told|tell me about|according to|recipe|advice|recommend(?:ed)?)\b"#, l),
           !pattern.contains(#"\b(?:due|overdue|agenda)\b"#, l) {
            return [PlannedIntent(.askNotes, ["question": .string(asked)])]
        }
        if let m = pattern.match(#"(?:what(?:'s| is| are)?|who(?:'s| is)?) (?:blocking|holding up|stopping|in the way of|slowing down|stalling)(?: the)?(?: project)? (.+)"#, t)
            ?? pattern.match(#"(?:what are )?(?:the )?(?:blockers|obstacles|blocking items)(?: are there)? (?:for|on|in|of)(?: the)?(?: project)? (.+)"#, t)
            ?? pattern.match(#"why (?:is|are) (?:the )?(?:project )?(.+?) (?:stuck|blocked|stalled|late|behind)"#, t)
            ?? pattern.match(#"(?:is|are) (?:there )?anything (?:blocking|holding up)(?: the)?(?: project)? (.+)"#, t) {
            return project(.projectBlockers, m[0])
        }
        if let m = pattern.match(#"what(?:'s|s| is| are)? (?:left|remaining|outstanding|open|still open|to do) (?:for|on|in) (?:the )?(?:project )?(.+?)(?: project)?"#, t) {
            return project(.projectStatus, m[0])
        }
        if let m = pattern.match(#"how(?:'s| is| are)(?: the)?(?: project)? (.+?) (?:going|coming along|doing|progressing|looking|getting on)(?: so far)?"#, t)
            ?? pattern.match(#"(?:what(?:'s| is) the )?(?:status|progress|state) (?:of|on|for)(?: the)?(?: project)? (.+)"#, t)
            ?? pattern.match(#"(?:where are we|where am i) (?:with|on) (?:the )?(?:project )?(.+)"#, t)
            ?? pattern.match(#"(?:project )?(.+?) (?:status|progress|update)"#, t) {
            return project(.projectStatus, m[0])
        }
        if let m = pattern.match(#".*?\b(?:my |the |our )?([\w'’]+ )?(?:list|lists|checklist)\b.*"#, l), !pattern.contains(#"\b(?:to-?do|to do|todo|task)\b"#, l) {
            let name = m[0].trimmingCharacters(in: .whitespaces)
            let skip: Set<String> = ["my", "the", "a", "all", "of", "on", "me", "your", "which", "what", "any", "this", "that", "show", "read", "whats", "what's"]
            return [PlannedIntent(.search, ["query": .string(skip.contains(name) || name.isEmpty ? "list" : name + " list")])]
        }
        if pattern.contains(#"\b(?:calendar|free time|free slots?|am i free|am i busy|events?|meetings?|appointments?|schedule|busy|birthdays?|plans?|parties|party|off days?|get togethers?|dates?)\b"#, l) {
            var cut = dates.cut(t)
            // "between eight am and five pm today": the day is the last time's, not the first's
            // alone (which, already past, would be tomorrow's).
            let found = dates.parser.matches(in: t).filter { $0.error == nil }
            if found.count > 1, [.hour, .minute].contains(found[0].grain), let last = found.last, [.hour, .minute].contains(last.grain) {
                cut = dates.cut(t, at: last, among: found)
            }
            var args: [String: JSONValue] = [:]
            // A time keeps its day: "tomorrow afternoon" asks about tomorrow.
            if let due = cut.due, cut.grain != "week", cut.grain != "month", cut.grain != "year" { args["day"] = .string(String(due.prefix(10))) }
            return [PlannedIntent(.calendarAgenda, args)]
        }
        if pattern.contains(#"\b(?:due|overdue|on (?:today|tomorrow|this week|for|my)|agenda|on my plate|to[- ]?do|tasks?|reminders?|left to do|open|outstanding|have (?:today|on|to do|this week)|late|pending|coming up|next)\b"#, l) {
            return agenda(l, t)
        }
        if pattern.contains(#"\b(?:today|tonight|this week|tomorrow)\b"#, l) { return agenda(l, t) }
        return [PlannedIntent(.askNotes, ["question": .string(asked)])]
    }

    func project(_ tool: ToolName, _ slot: String) -> [PlannedIntent]? {
        let p = item(slot)
        if p.isEmpty { return nil }
        if isPronoun(p) { return [PlannedIntent(tool, [:], pronoun: true)] }
        return [PlannedIntent(tool, ["project": .string(p)], subject: p)]
    }

    /// Today, this week or overdue go to the agenda; any other day to the summary of that day.
    func agenda(_ l: String, _ t: String) -> [PlannedIntent] {
        if pattern.contains(#"\b(?:overdue|late|missed|behind)\b"#, l) { return [PlannedIntent(.agenda, ["range": .string("overdue")])] }
        if pattern.contains(#"\b(?:week|weekend)\b"#, l) { return [PlannedIntent(.agenda, ["range": .string("week")])] }
        let cut = dates.cut(t)
        // A time keeps its day: "where am I supposed to be tomorrow at 10am" asks about tomorrow.
        if let due = cut.due, !["week", "weekend", "month", "quarter", "year", "days"].contains(cut.grain ?? ""),
           case let day = String(due.prefix(10)), day != dates.format.date(dates.parser.now) {
            return [PlannedIntent(.summarize, ["day": .string(day)])]
        }
        return [PlannedIntent(.agenda, ["range": .string("today")])]
    }
}
