import Foundation
import PBCore

/// Requests that are understood but do not name what they act on: "delete that item", "clear the
/// list", "add a new item", "set a reminder at three pm". Guessing the item would change the wrong
/// thing, and writing a task called "an item" fills the store with stand-ins, so the plan asks
/// instead (PlanAsk), saying what it did read.
extension IntentGrammar {
    /// What an unnamed request was read as: the tool, what it needs, what was said besides.
    struct Unnamed: Equatable {
        var tool: ToolName
        var needs: PlanAsk.Need
        var args: [String: JSONValue] = [:]
        /// The list the request took the item from ("remove that item from my shopping list").
        var list: String?
    }

    /// Words that stand in for a thing without naming it.
    static let standIns = #"(?:item|items|entry|entries|thing|things|one|ones|something|stuff|task|tasks|reminder|reminders|to[- ]?dos?)"#
    static let eventWords = #"(?:event|events|appointment|appointments|calendar event|calendar entry|event reminder|entry on (?:my|the) calendar)"#
    static let listWords = #"(?:list|lists|checklist|to[- ]?do list|task list)"#
    static let calendarWords = #"(?:calendar|diary|schedule|agenda)"#
    /// What a removal verb takes apart: its wording ("cross off").
    static let removalVerbs = #"(?:delete|deleted|remove|erase|drop|scratch|cross(?: out| off)?|strike(?: out| off)?|take(?: out| off| away)?|get rid of|cancel|bin|trash|scrap|abolish|eliminate|wipe|throw (?:away|out)|discard|clear(?: off)?)"#
    /// Words put before a request that do not change it ("i want you to", "go ahead and").
    static let askLead = #"(?:(?:i (?:want|need|would like|'d like)(?: you)? to|i'd like to|go ahead and|you can|kindly|just|please|now) )*"#
    static let askTail = #"(?: (?:please|now|for me|too|as well|also|right now|then))*"#

    /// A request understood as one tool's that names nothing to act on, or nothing to write.
    func unnamed(_ raw: String) -> Unnamed? {
        let t = normalise(raw).text
        let pointer = #"(?:that|this|it|them|these|those|the|the current|this current|current|my current|an|a|one|my|the last|the latest)"#
        let place = #"(?: (?:from|off|on|in|out of|off of) (?:my |the |this |that |a |our )?(?:(?:[\p{L}'-]+ ){0,3}?"# + Self.listWords + "|" + Self.calendarWords + "))?"
        // "delete that", "remove this item from my list", "cancel the event", "delete the list".
        if let m = pattern.match(Self.askLead + "(" + Self.removalVerbs + #") (?:(?:that|this|it|them|these|those)(?: one| ones)?|"# + pointer + " (" + Self.standIns + "|" + Self.eventWords + "|" + Self.listWords + "))(" + place + ")" + Self.askTail, t) {
            // "cancel it" alone is as often "stop" as a removal: not asked about.
            if m[1].isEmpty, m[2].isEmpty, pattern.match("cancel", m[0]) != nil { return nil }
            return removal(verb: m[0], unit: m[1], place: m[2])
        }
        // "this item should be removed from the list", "i wish this event to be deleted".
        let removed = #"(?:removed|deleted|erased|cancell?ed|taken off|taken away|dropped|crossed off|gone)"#
        if let m = pattern.match(#"(?:that|this|the|these|those) ("# + Self.standIns + "|" + Self.eventWords + "|" + Self.listWords + #") (?:should|needs to|has to|must|is to|can) be "# + removed + "(" + place + ")" + Self.askTail, t)
            ?? pattern.match(#"i (?:want|wish|need|would like|'d like) (?:that|this|the|these|those) ("# + Self.standIns + "|" + Self.eventWords + "|" + Self.listWords + #")(?: to be)? "# + removed + "(" + place + ")" + Self.askTail, t) {
            return removal(verb: "remove", unit: m[0], place: m[1])
        }
        // "add a new item", "add this to a list", "add to my groceries", "new item for the list".
        let filler = #"(?:(?:a|an|the|this|that|it|one|new|another|extra|some|more|an extra|a new) )*"#
        // Into a list or the calendar: "to a list", "on my shopping list", "in the calendar"; a
        // list's name only after a determiner ("add a task to print the guest list" is a task).
        let into = #"(?: (?:to|in|into|on|onto|for) (?:(?:my|the|a|this|that|our|a new) ((?:[\p{L}'-]+ ){0,3}?"# + Self.listWords + "|" + Self.calendarWords + ")|(" + Self.listWords + "|" + Self.calendarWords + #")))?"#
        if let m = pattern.match(Self.askLead + #"(?:add|put|enter|include|insert|append|place|write)(?: (?:"# + filler + Self.standIns + "|it|this|that|this one|that one|" + filler + #"new one))?(?: also| too| as well)?"# + into + Self.askTail, t)
            ?? pattern.match(#"(?:a |an )?(?:new|another|extra|one more) (?:item|entry|thing|task|reminder|to-?do)"# + into + Self.askTail, t)
            ?? pattern.match(#"(?:this|that|the|an?) (?:item |entry |thing |one )?(?:should|needs to|has to|must|can) be added"# + into + Self.askTail, t) {
            return addition(into: m[0].isEmpty ? m[1] : m[0])
        }
        // "add to my groceries": nothing added, into a list of a name of a word or two.
        if let m = pattern.match(Self.askLead + #"(?:add|put) (?:something |stuff )?(?:to|on|onto|in|into) (?:my|our) ((?:[\p{L}'-]+ )?[\p{L}'-]+)"# + Self.askTail, t),
           dates.cut(m[0]).value == nil {
            return addition(into: m[0])
        }
        // "set a reminder", "new reminder at three pm", "remind me", "add an event tomorrow".
        if let m = pattern.match(Self.askLead + #"(?:set|add|create|make|new|put|schedule|set up|book|give me)(?: me)?(?: a| an)?(?: new)? ("# + Self.eventWords + #"|reminder|task|to-?do)(?: (.+))?"#, t)
            ?? pattern.match(#"(?:remind|ping|nudge|tell) me(?: to| about| of| that)?(?: (.+))?"#, t).map({ ["reminder", $0[0]] }) {
            let event = pattern.match(Self.eventWords, m[0]) != nil
            var rest = m[1]
            if let p = pattern.match(#"(?:to|in|into|on|for) (?:my|the) "# + Self.calendarWords + #"(?: (.+))?"#, rest) { rest = p[0] }
            // "remind me to do it", "remind me about that later": nothing said but when.
            if let p = pattern.match(#"(?:(?:to )?do )?(?:it|that|this|something|stuff|the thing|them|later|sometime|soon)(?: (.+))?"#, rest) { rest = p[0] }
            var args: [String: JSONValue] = [:]
            if !rest.isEmpty {
                let cut = dates.cut(rest)
                guard cut.value != nil, cut.invalid == nil, DateSlot.tidy(cut.rest).isEmpty, cut.recurrence == nil, let due = cut.due else { return nil }
                if !event {
                    args["due"] = .string(due)
                    if let grain = cut.grain { args["due_grain"] = .string(grain) }
                } else if cut.grain == "minute" || cut.grain == "hour" {
                    args["start"] = .string(due)
                }
            }
            return Unnamed(tool: event ? .schedule : .createTask, needs: .what, args: args)
        }
        return nil
    }

    /// A request whose only object is "it", "that" or "this" ("scratch that", "cancel it").
    func pointsOnly(_ raw: String) -> Bool {
        pattern.match(Self.askLead + #"[\p{L}' ]+? (?:that|this|it|them)(?: one)?"# + Self.askTail, normalise(raw).text) != nil
    }

    /// "cancel it" alone, as often "stop" as a removal, and "delete this note" or "that song",
    /// things no task tool acts on: never asked which task.
    func stopLike(_ raw: String) -> Bool {
        let t = normalise(raw).text
        return (pointsOnly(raw) && pattern.contains(#"\bcancel (?:it|that|this)\b"#, t))
            || pattern.contains(#"\b(?:this|that|these|those|the) (?:notes?|files?|e-?mails?|messages?|texts?|photos?|pictures?|songs?|playlists?|contacts?|alarms?|accounts?|apps?|documents?|pages?|posts?|videos?)\b"#, t)
    }

    /// An event pointed at with "this" or "that" ("delete that event"): which one is not "the
    /// next", so it is asked, where "cancel my appointment" is the next one, asked first.
    func pointsAtEvent(_ raw: String) -> Bool {
        pattern.contains(#"\b(?:this|that|these|those) "# + Self.eventWords + #"\b"#, normalise(raw).text)
    }

    /// A removal's tool, by what it takes out and where from.
    func removal(verb: String, unit: String, place: String) -> Unnamed {
        let onCalendar = pattern.contains(#"\b"# + Self.calendarWords + #"\b"#, place)
        if pattern.match(Self.eventWords, unit) != nil || (onCalendar && pattern.match(Self.listWords, unit) == nil) {
            return Unnamed(tool: .cancelEvent, needs: .event)
        }
        if pattern.match(Self.listWords, unit) != nil {
            let emptying = pattern.match(#"(?:clear|clear off|wipe)"#, verb) != nil
            return Unnamed(tool: emptying ? .clearProject : .deleteProject, needs: .list)
        }
        var u = Unnamed(tool: .deleteTask, needs: .task)
        // "from my shopping list": the list, named by more than what it is.
        if let m = pattern.match(#"(?:from|off|on|in|out of|off of) (?:my |the |this |that |a |our )?(.+)"#, place) {
            let bare = m[0].replacingOccurrences(of: #"\s*\b"# + Self.listWords + #"$"#, with: "", options: [.regularExpression, .caseInsensitive])
            if !bare.isEmpty, pattern.match(#"(?:to[- ]?do|task|tasks|reminders?)"#, bare) == nil { u.list = m[0] }
        }
        return u
    }

    /// An addition with nothing to add: onto the calendar, or into the list it names.
    func addition(into: String) -> Unnamed? {
        if pattern.match(#"(?:(?:my|the|a) )?"# + Self.calendarWords, into) != nil {
            return Unnamed(tool: .schedule, needs: .what)
        }
        var args: [String: JSONValue] = [:]
        let list = into.replacingOccurrences(of: #"^(?:my|the|a|this|that|our) "#, with: "", options: [.regularExpression, .caseInsensitive])
        if !list.isEmpty {
            // "add to my groceries": a list's name, a few words at most and no date.
            guard list.split(separator: " ").count <= 4, dates.cut(list).value == nil else { return nil }
            let bare = list.replacingOccurrences(of: #"\s*\b"# + Self.listWords + #"$"#, with: "", options: [.regularExpression, .caseInsensitive])
            // The list as said ("shopping list", "groceries"), which the store's lists are named by.
            if !bare.isEmpty, pattern.match(Self.standIns, bare) == nil { args["list"] = .string(list) }
        }
        return Unnamed(tool: .createTask, needs: .what, args: args)
    }

    /// Whether a new item's whole title is a stand-in ("an item", "a new list", "event"): a
    /// request that says it wants something made but not what. An appointment or a meeting is
    /// a title a reminder can carry ("remind me of my appointment on the 15th"). What it asks to
    /// make: a list when the title says one, else the tool's own; nil for a real title.
    func standIn(_ intent: PlannedIntent) -> ToolName? {
        guard case .string(let title)? = intent.args["title"] ?? intent.args["body"] else { return nil }
        return Self.standIn(title: title, tool: intent.tool)
    }

    /// The same for a title a plan gives, whoever wrote it (R7 rejects one from a model's plan).
    static func standIn(title said: String, tool: ToolName) -> ToolName? {
        guard [.createTask, .createProject, .schedule, .createNote].contains(tool) else { return nil }
        let pattern = ClausePattern.shared
        // Read as words: "New  Item!", "new_item", "(new item)" are "new item"; nothing but
        // punctuation ("...", "-") names nothing at all.
        let title = said.lowercased().replacingOccurrences(of: #"[_\-]+"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"[^\p{L}\p{N}' ]+"#, with: " ", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if title.isEmpty { return tool }
        let verbs = #"(?:(?:set|add|create|make|schedule|book|set up|put|start|begin|open|do|jot|write)(?: me)? )?"#
        let lead = verbs + #"(?:(?:a|an|the|my|new|another|extra|one|some|this|that|empty|blank|fresh|a few|a couple of|several|more|some more) )*"#
        // A to-do list and a task list are lists people name so; "a list", "a new checklist" are not.
        let lists = #"(?:list|lists|checklist)"#
        if pattern.match(lead + lists + #"|"# + lead + #"(?:project|projects)"#, title) != nil { return .createProject }
        // "make a note", "take a note": a note with nothing in it ("take notes" is a thing to do).
        if tool != .createNote, pattern.match(#"(?:make|take|write|jot)(?: me)? (?:a |an )(?:new |quick )?(?:note|memo)(?: down)?"#, title) != nil { return .createNote }
        let things = standIns + #"|it|this|that|new|list of items|list item|list items|new list item|event|events|calendar event|calendar entry|event reminder"# + (tool == .createNote ? "|note|notes|list|event" : "")
        guard pattern.match(lead + "(?:" + things + #")(?: down)?"#, title) != nil
                // "set a reminder at thre pm": the request's own words, with nothing said to do.
                || pattern.match(#"(?:set|add|create|make|new)(?: me)? (?:a |an )?(?:new )?(?:reminder|task|to-?do)(?: (?:at|on|by|in|for) .*)?"#, title) != nil
                || pattern.match(#"(?:remind|ping|nudge|tell) me(?: to| about| of)? (?:do )?(?:it|that|this|something|stuff|the thing|them|later)"#, title) != nil else { return nil }
        return pattern.match(#"(?:schedule|book)\b.*"#, title) != nil ? .schedule : tool
    }

    /// The question for what a request left unsaid, with a request that says it.
    static func question(_ tool: ToolName, _ needs: PlanAsk.Need) -> String {
        switch (needs, tool) {
        case (.task, .completeTask): return "Which task is done? Name it (\"mark buy milk done\"); in a session (pb-do --session), \"that\" is what the last turn acted on."
        case (.task, .deleteTask): return "Which task should go? Name it (\"delete buy milk\", \"remove milk from my shopping list\"); in a session (pb-do --session), \"that\" is what the last turn acted on."
        case (.task, _): return "Which task? Name it (\"make buy milk urgent\", \"move the dentist to friday\"); in a session (pb-do --session), \"it\" is what the last turn acted on."
        case (.list, .projectStatus): return "Which list? Name it (\"what's on my shopping list\")."
        case (.list, .clearProject): return "Which list should be emptied? Name it (\"clear my shopping list\")."
        case (.list, _): return "Which list should go? Name it (\"delete my packing list\")."
        case (.event, _): return "Which event should be cancelled? Name it (\"cancel the dentist on friday\"), or say \"my next event\"."
        case (.what, .createProject): return "What should the new list be called? Say it (\"make a list called packing\")."
        case (.what, .schedule): return "What is the event, and when? Say both (\"put the dentist on my calendar friday at 3pm\")."
        case (.what, .draftMessage): return "Who is the message to, and what should it say? Say both (\"email Sam that I'm running late\")."
        case (.when, .cancelEvent): return "Which days should be cleared? Say a day or a span (\"clear my calendar for saturday\", \"this week\")."
        case (.when, _): return "Which day, or which event? Say it (\"what's on my calendar friday\", \"when is the dentist\")."
        case (.who, _): return "Whose details? Name them (\"what's Sam's number\", \"Priya's email address\")."
        case (.what, .createNote): return "What should the note say? Say it (\"note that the boiler code is 4417\")."
        case (.what, _): return "What should the task say? Say it whole (\"remind me to call the plumber at three pm\", \"add milk to my shopping list\")."
        }
    }
}
