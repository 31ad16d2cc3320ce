import PBCore

/// A question never writes, and a request about something the store does not hold never touches
/// it. Two parts:
///
/// - Looking is not doing. "Check", "read", "show", "go through", "look at", "see", "I want to
///   know": put to the assistant or aimed at something to read (a list, the calendar, reminders,
///   whether or what), they ask it to look now, so they are read as questions. "Check" completes a
///   task only in its phrasal senses ("check off the milk", "check it off"); a bare "check the
///   tyre pressure" is still a to-do.
/// - Things outside the store. PocketBrains keeps tasks, projects, milestones, notes and
///   calendars; it holds no alarms, emails, passwords, accounts, lights or playlists. A step
///   that would change an existing item whose name is such a thing ("delete my saved password",
///   "close all the open windows", "cancel my taxi") is left out: matched loosely, it would change
///   some other task. A title that opens with a to-do verb ("email Sam", "book a taxi") or calls
///   itself a task still names one.
extension IntentGrammar {

    /// Verbs of looking, with the particles that keep their sense.
    static let lookVerb = #"(?:check(?! off\b)(?: out| on| up on| through| over| for| in on)?|double[- ]check|read(?: out| back| aloud| to me| me| out to me)?|show(?: me)?|list|view|open|see|go (?:through|over)|look (?:at|over|through|into)|scan|browse|pull up|bring up|get me|give me|tell me|refresh|update me(?: on| about)?|let me (?:see|know|hear)|confirm(?= (?:if|whether|that|what|when)\b)|find out|figure out|review|confirm)"#

    /// What can be read in the store: asked for, these become the question reader's business.
    static let readable = #"\b(?:lists?|checklist|calendar|diary|schedule|agenda|reminders?|tasks?|to-?dos?|todo list|notes?|events?|meetings?|appointments?|plans?|projects?|milestones?|birthdays?|deadlines?|due|overdue)\b"#

    /// Nouns for things the store does not hold. A request whose object is one of them is not
    /// about a PocketBrains item. Things of the house (a window, the garage door, a light) are
    /// not here: "fix the kitchen window" is a to-do, and closing one is left to `outOfScope`.
    static let outsideNouns = #"\b(?:e-?mails?|inbox(?:es)?|gmail|outlook|mail|mails|voicemails?|text messages?|messages|notifications?|alerts?|alarms?|timers?|news|headlines?|weather|forecast|passwords?|pass ?codes?|pins?|logins?|accounts?|subscriptions?|netflix|spotify|amazon|contacts?|phone numbers?|browser tabs?|browser|history|cookies|feed|tweets?|facebook|twitter|instagram|social (?:media|networks?)|playlists?|songs?|music|tracks?|podcasts?|radio|audiobooks?|volume|thermostat|photos?|pictures?|videos?|cart|basket|purchases?|deliver(?:y|ies)|taxis?|ubers?|cabs?|rides?|downloads?|recycle bin|trash|apps?|battery|wi-?fi|bluetooth|stocks?|share prices?|exchange rates?|movies?)\b"#

    /// A noun outside the store named in `phrase`, unless the phrase names a to-do by its verb
    /// ("email Sam", "book a taxi") or calls itself a task, note or reminder.
    func outsideNoun(_ phrase: String) -> String? {
        let l = phrase.lowercased()
        if let first = l.split(separator: " ").first.map(String.init), VerbLexicon.taskVerbs.contains(first) || VerbLexicon.pastLemma(first) != nil {
            return nil
        }
        if pattern.contains(#"\b(?:task|to-?do|reminder|note|project|milestone)\b"#, l) { return nil }
        guard let m = pattern.match(".*?(" + IntentGrammar.outsideNouns + ").*", l) else { return nil }
        return m[0]
    }

    /// Tools that change an item already in the store (not one made earlier in the plan).
    static let changesItem: Set<ToolName> = [
        .updateTask, .completeTask, .reopenTask, .deleteTask, .rescheduleTask, .snoozeTask, .setPriority, .setRecurrence,
        .addDependency, .completeMilestone, .appendNote, .linkItems,
    ]

    /// Whether an intent may stand: a change to an existing item must name a store item, not a
    /// thing outside the store.
    func namesStoreItem(_ intent: PlannedIntent) -> Bool {
        guard IntentGrammar.changesItem.contains(intent.tool), !intent.pronoun else { return true }
        // A project's name is the user's own ("project App"), so only the item's own name counts.
        for key in ["title", "note", "task", "target"] {
            if case .string(let s)? = intent.args[key], outsideNoun(s) != nil { return false }
        }
        return true
    }

    /// Looking, asking to know, and "should I ...?": read as questions, never as writes.
    func lookAt(_ c: Clause) -> [PlannedIntent]? {
        if let none = outOfScope(c) { return none }
        let t = c.text
        let l = c.lower
        // "should I take an umbrella", "shall we ...": asking, not a to-do.
        if pattern.match(#"(?:should|shall|could|would|can|do|does|did|is|are|am) (?:i|we) .+"#, l) != nil,
           pattern.match(#"(?:can|could) (?:i|we) (?:add|create|make|set|schedule|book|get a reminder|have a reminder).*"#, l) == nil {
            return asQuestion(c, t)
        }
        // "I want to know ...", "I need to see ...", "I'd like to check ...".
        if let m = pattern.match(#"(?:i |we )?(?:want|need|would like|'d like|wanna|wish|am trying|'m trying) to (?:know|find out|figure out|hear|learn|get (?:some )?info(?:rmation)?(?: on| about)?|see (?=if|whether|what|when|how|who|which|my|all|any))(?: about| on| if| whether)? ?(.+)"#, t) {
            return asQuestion(c, m[0])
        }
        // "tell me on tuesday to give jane a call" asks for a reminder, as "remind me" does.
        if let m = pattern.match(#"(?:tell|let) me (.+?) to (.+)"#, t), dates.cut(m[0]).phrase != nil, DateSlot.tidy(dates.cut(m[0]).rest).isEmpty {
            return nil
        }
        guard let m = pattern.match("(" + IntentGrammar.lookVerb + #")\b ?(.*)"#, t) else { return nil }
        let verb = m[0].lowercased()
        let object = m[1]
        let o = object.lowercased()
        // The phrasal completions stay with the paraphrase reader: "check the milk off my list",
        // "check it off", "check X as done".
        if verb.hasPrefix("check"), pattern.match(#".+ off(?: (?:my|the) .+)?|.+ as (?:done|complete|completed|finished)"#, o) != nil { return nil }
        // "open a new project", "show a new list", "open up a new list": making, not looking.
        if pattern.match(#"(?:up )?(?:an?|new|another) .+"#, o) != nil, !verb.hasPrefix("check"), !verb.hasPrefix("tell") { return nil }
        if o.isEmpty { return verb.hasPrefix("check") || verb.hasPrefix("list") ? asQuestion(c, "my tasks") : nil }
        let clause = pattern.match(#"(?:if|whether|what|when|where|who|which|how|that|for|to see|out|on|in|up on)\b.*"#, o) != nil
        let readable = pattern.contains(IntentGrammar.readable, o)
        if readable { return asQuestion(c, object) }
        if outsideNoun(object) != nil { return [] }
        // "read the contract", "check the tyre pressure", "see the dentist": to-dos when said
        // plainly; put to the assistant, or followed by what to find out, a question.
        let plain = ["read", "check", "see", "review", "open", "confirm"].contains(verb)
        if plain, !c.asked, !clause, !c.question { return nil }
        return asQuestion(c, object)
    }

    /// The question reader on `text`, as a question.
    func asQuestion(_ c: Clause, _ text: String) -> [PlannedIntent]? {
        var q = c
        q.text = text
        q.question = true
        return question(q) ?? []
    }
}
