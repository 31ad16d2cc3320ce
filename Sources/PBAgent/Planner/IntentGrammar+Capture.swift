import Foundation
import PBCore

/// Capture rules: phrasings that put a new task or note into the store.
extension IntentGrammar {

    /// The nouns that name a thing of the calendar, singular or plural.
    static let eventNoun = #"(?:event|appointment|appt|meeting|reservation)s?"#

    /// "the dentist appointment on friday was cancelled": news that a thing is off. With a day or
    /// an event's name said, that event is taken out of the calendar (a to-do of that name
    /// instead, when the store has no such event); otherwise the to-do to cancel it is done
    /// (`statementOfState`). Never a new event "... was cancelled".
    func cancelledStatement(_ c: Clause) -> [PlannedIntent]? {
        guard !c.question, let m = pattern.match(#"(.+?) (?:is|are|'s|has been|have been|was|were|got) (?:now |all |finally |already )?(?:cancelled|canceled|called off)"#, c.text) else { return nil }
        if dates.cut(m[0]).phrase != nil || pattern.contains(#"\b"# + Self.eventNoun + #"\b"#, m[0]),
           let event = cancelledEvent(m[0], in: c.text) {
            return [event]
        }
        return statementOfState(c)
    }

    /// Phrasings the capture rules would misread.
    func beforeCapture(_ c: Clause) -> [PlannedIntent]? {
        if let cleared = clearedCalendar(c) { return cleared }
        if let next = nextEvent(c) { return [next] }
        // "clear off the vet appointment tomorrow": an event cleared is an event cancelled.
        if c.lower.hasPrefix("clear ") || c.lower.hasPrefix("wipe "),
           let m = pattern.match(#"(?:clear|wipe)(?: off| out| away)? ((?:the |my |our )?.+ "# + Self.eventNoun + #"(?: (?:with|at|for|in|on) .+)?)"#, dates.cut(c.text).rest),
           !pattern.contains(#"\b(?:lists?|items?|notes?|tasks?|reminders?|calendar|diary|schedule)\b"#, m[0]), let event = cancelledEvent(m[0], in: c.text) {
            return [event]
        }
        if let gone = deletedList(c) { return gone }
        if let emptied = clearedList(c) { return [emptied] }
        if declined(c.text) != nil || unnamedEmptying(c.text) != nil { return [] }
        if let listed = namedList(c) { return listed }
        let t = c.text
        if pattern.match(#"remind me (?:what|who|when|where|which|how|why)\b.*"#, t) != nil {
            return [PlannedIntent(.askNotes, ["question": .string(t + "?")])]
        }
        if let m = pattern.match(#"remind me (?:about|of) (.+?) (?:later|again|another time|in a bit)"#, t) {
            return onTask(.snoozeTask, m[0]).map { [$0] }
        }
        let place = #"(?:my |the |our )?(?:[\w'’]+ )?(?:calendar|diary|list|agenda|schedule|wish ?list|checklist|planner)"#
        if let m = pattern.match(#"(?:remove|delete|erase|cancel|clear|take|drop|strike|scratch|get|wipe|disregard|knock|cross)(?: out| off| away)?(?: the)? (.+?) (?:from|off(?: of)?|out of|on|in) ("# + place + ")(?: for .+)?", t) {
            if pattern.match(#"(?:all|everything|all (?:of )?(?:my |the )?(?:events|items|entries)|it all)"#, m[0]) != nil { return [] }
            if pattern.match(#".*\b(?:calendar|diary|agenda|schedule|planner)\b.*"#, t) != nil, let event = cancelledEvent(m[0], in: t) {
                return [event]
            }
            // Off a list named ("my shopping list"), the item of that list only.
            var on: [String: JSONValue] = [:]
            if let l = pattern.match(#"(?:my |the |our )?([\w'’]+) (list|checklist)"#, m[1]),
               !["to-do", "todo", "task", "tasks", "reminder", "reminders", "my", "the", "this", "that"].contains(l[0].lowercased()) {
                on["in_project"] = .string(l[0] + " " + l[1])
            }
            return onTask(.deleteTask, m[0], on).map({ [$0] })
        }
        if let m = pattern.match(#"(?:put|add|enter|mark|write|pencil|note|save|schedule|insert|include)(?: down| in)? (.+?) (?:in|on|to|into|onto) "# + place + "(?: .+)?", t) {
            // The date may sit after the place ("put X in my calendar for july fourth").
            let phrase = dates.cut(t).phrase.map { " " + $0 } ?? ""
            return newTask(m[0] + phrase, bang: c.bang)
        }
        // A new list, said with a verb or alone ("new list please"), and for when it is wanted
        // ("create a new list by tomorrow": a list has no due, so the day is no part of its name).
        let asked = #"(?:(?:help me|let's|lets|i want to|i'd like to|i would like to|can you|could you) )?"#
        let lt = dates.cut(t).phrase == nil ? t : dates.cut(t).rest
        if let m = pattern.match(asked + #"(?:create|start|make|begin|generate|set up|open|add|get|give me)(?: me)?(?: up)?(?: a| an| my)?(?: new| fresh| blank)? (list|checklist)(?: (?:of|for|called|named) (.+))?"#, lt).map({ [$0[1], $0[0]] })
            ?? pattern.match(asked + #"(?:create|start|make|begin|generate|set up)(?: me)?(?: a| an| my)?(?: new| fresh)? (.+?) (list|checklist)"#, lt)
            ?? pattern.match(#"(?:a |my )?((?:new|fresh|blank) (?:list|checklist))(?: to be (?:created|made|started|set up))?(?: please)?"#, lt).map({ [$0[0], ""] })
            // "my new work schedule list": a new list named, said alone.
            ?? pattern.match(#"(?:a |my )?(?:new|fresh|blank) (?!(?:to do|to-do|todo|tasks?|reminders?|year'?s?) )((?:[\p{L}'’-]+ ){1,3}?)(list|checklist)(?: please)?"#, lt) {
            // The list keeps the word said for it ("packing checklist"), which grounds its title (R6).
            let name = item(m[0])
            let noun = m[1].lowercased()
            return [PlannedIntent(.createProject, ["title": .string(name.isEmpty ? noun : noun.isEmpty ? name : name + " " + noun)], subject: name)]
        }
        if let m = pattern.match(#"(?:create|add|make|schedule|set up|book|put in|set)(?: me)? (?:an? |the )?(?:new )?(?:event|appointment|meeting|calendar entry|calendar event|entry)(?: called| named| for| titled|:)? (.+)"#, t) {
            return newTask(m[0], bang: c.bang)
        }
        if let m = pattern.match(#"(?:i|we) (?:have|'ve got|got|'ll have|will have) (an? (?:meeting|appointment|call|dinner|lunch|breakfast|party|date|event|interview|class|lesson|session|game|match|conference|check-?up) .+?)(?:,? (?:can|could|would) you remind me| remind me| please remind me)?"#, t),
           dates.cut(m[0]).due != nil {
            return newTask(m[0], bang: c.bang)
        }
        // "add milestone M to project P" would otherwise read as "add X to my list".
        if let m = pattern.match(#"add (?:a |another |the )?(?:new )?milestone (?:called |named )?(.+?) (?:to|for|in|on) (?:the )?(?:project )?(.+)"#, t) {
            return milestone(m[0], project: m[1])
        }
        if let m = pattern.match(#"add (?:a |another |the )?(?:new )?milestone(?: called| named|:)? (.+)"#, t) {
            return milestone(m[0], project: nil)
        }
        if let m = pattern.match(#"(?:append|add) ["“](.+?)["”] (?:to|onto|into) (?:the |my )?(?:note )?(?:called |titled )?(.+?)(?: note)?"#, t) {
            return appendNote(text: m[0], note: m[1])
        }
        return nil
    }

    /// A named list: "add pencils to the school supplies list", "on my grocery list please add
    /// oranges", "grocery list: add eggs". The task is filed into that list when the store has it
    /// (Planner.filingIntoLists), and is a task of its own otherwise.
    func namedList(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text
        let named = #"((?:[\p{L}'’-]+ ){0,3}?)(?:list|checklist)"#
        // Not "put" or "write": "put the kids on the waiting list" and "write an update to the
        // parents list" are things to do, not items.
        // "open the grocery list and add milk": the list is opened to add to it.
        if let m = pattern.match(#"(?:open|bring up|pull up|go to|get|find|show me)(?: up)? (?:my |the |our )?"# + named + #" and (?:please )?(?:add|include|put) (.+)"#, t).map({ [$0[1], $0[0]] })
            // "add a task to print the guest list" is a task to do, not "a task" on a guest list.
            ?? pattern.match(#"(?:add|chuck|stick|pop|throw|bung|include|re-?add|re add|add back) (?!(?:a |an )?(?:new )?(?:task|to-?do|to do|reminder) to )(.+?) (?:to|on|in|onto|into) (?:my |the |our )?"# + named, t)
            ?? pattern.match(#"(?:on|to|in) (?:my |the |our )?"# + named + #",? (?:please |pls )?(?:add|include) (.+)"#, t).map({ [$0[1], $0[0]] })
            ?? pattern.match(#"(?:my |the |our )?"# + named + #"\s*[:,-]?\s*(?:please )?add (.+)"#, t).map({ [$0[1], $0[0]] }),
           let intents = newTask(m[0], bang: c.bang) {
            let name = m[1].trimmingCharacters(in: .whitespaces)
            let generic: Set<String> = ["", "to-do", "todo", "to do", "task", "tasks", "reminders", "reminder"]
            return intents.map { intent in
                var i = intent
                if i.tool == .createTask, !generic.contains(name.lowercased()) { i.list = name }
                return i
            }
        }
        return nil
    }

    /// "delete my shopping list", "get rid of the camping checklist": the list (a project) with
    /// what is on it, asked first (PlanReconciler). A list named by no more than what it is ("the
    /// list", "my to-do list") is not one list: emptying it whole is declined.
    func deletedList(_ c: Clause) -> [PlannedIntent]? {
        guard !c.question || c.asked, let m = pattern.match(#"(?:please |(?:i want|i need|i'd like) you to |(?:can|could|would|will) you (?:please )?)?(?:delete|remove|erase|get rid of|throw away|bin|scrap|trash|eliminate|abolish)(?: out)? (?:my |the |our |this )?((?:[\p{L}'’-]+ ){1,3}?)(list|checklist)(?: please)?"#, withoutTrailingDate(c.text)) else { return nil }
        let name = item(m[0])
        let generic: Set<String> = ["to-do", "todo", "to do", "task", "tasks", "reminder", "reminders", "entire", "whole", "complete", "this", "that", "whole to-do", "entire to-do"]
        guard !Planner.titleKey(name).isEmpty, !generic.contains(Planner.titleKey(name)), dates.cut(name).phrase == nil,
              // "remove apple from my list" takes an item off a list, not a list called "apple from my".
              !pattern.contains(#"\b(?:from|off|out|on|in|onto|into|to|at)\b"#, name) else { return nil }
        let title = name + " " + m[1].lowercased()
        return [PlannedIntent(.deleteProject, ["title": .string(title)], subject: title)]
    }

    /// The text without a date said last, which says which list or when, not its name ("delete my
    /// shopping list from last month", "clear my gym list for today"); a date inside the name
    /// stays ("clear my christmas list").
    func withoutTrailingDate(_ t: String) -> String {
        // Only a request about a list has a list's name to free.
        guard pattern.contains(#"\b(?:list|checklist|project)\b"#, t) else { return t }
        let cut = dates.cut(t)
        guard let phrase = cut.phrase, t.lowercased().hasSuffix(phrase.lowercased()), !cut.rest.isEmpty else { return t }
        return cut.rest
    }

    /// "clear my shopping list", "delete everything on the packing list", "clear the done items
    /// off my grocery list": a list (a project) emptied by its name, the list kept, asked first
    /// (PlanReconciler). A list named by no more than what it is ("clear my list", "my to-do
    /// list") is not one list: emptying it is declined.
    func clearedList(_ c: Clause) -> PlannedIntent? {
        guard !c.question || c.asked else { return nil }
        let named = #"(?:my |the |our |this )?((?:[\p{L}'’-]+ ){1,3}?)(list|checklist|project)(?: please)?"#
        let everything = #"(?:everything|all (?:the )?(?:items|things|tasks|entries|stuff)|all of it|all)"#
        let done = #"(?:all )?(?:the )?(?:done|completed|finished|ticked|checked|crossed)(?: off| out)?(?: items| things| tasks| entries| ones| stuff)?"#
        let t = withoutTrailingDate(c.text)
        var doneOnly = false
        let m: [String]
        if let d = pattern.match(#"(?:clear|clean|delete|remove|wipe|erase|get rid of|take)(?: out| up| off| away)? "# + done + #" (?:from|on|off|in|out of) "# + named, t) {
            m = d
            doneOnly = true
        } else if let e = pattern.match(#"(?:clear|clean|empty|wipe|reset)(?: out| up| off| down)? (?:"# + everything + #" (?:on|in|from|off) )?"# + named, t)
                    ?? pattern.match(#"(?:delete|remove|erase|clear|wipe|take|cross)(?: out| off)? "# + everything + #" (?:on|in|from|off|out of) "# + named, t) {
            m = e
        } else {
            return nil
        }
        let name = item(m[0])
        let generic: Set<String> = ["to-do", "todo", "to do", "task", "tasks", "reminder", "reminders", "entire", "whole", "complete", "this", "that", "whole to-do", "entire to-do", "things to do", "activities"]
        // A list may be named after a day ("christmas list"): its name, not when.
        guard !Planner.titleKey(name).isEmpty, !generic.contains(Planner.titleKey(name)), !isPronoun(name),
              !pattern.contains(#"\b(?:from|off|out|on|in|onto|into|to|at|of)\b"#, name) else { return nil }
        let title = name + " " + m[1]
        var args: [String: JSONValue] = ["title": .string(title)]
        if doneOnly { args["done"] = .bool(true) }
        return PlannedIntent(.clearProject, args, subject: title)
    }

    /// The item of "add milk", "and put eggs": an addition that names no list of its own.
    func addedWithoutList(_ clause: String) -> String? {
        let c = normalise(clause)
        guard let m = pattern.match(#"(?:and )?(?:then )?(?:add|put|include|chuck|pop) (.+?)(?: (?:on|to|in|onto|into) (?:it|that|there))?"#, c.text),
              !pattern.contains(#"\b(?:to|on|onto|into|in) (?:my |the |our )?(?:[\p{L}'’-]+ ){0,3}(?:list|checklist|calendar|diary|project)\b"#, m[0]),
              !isPronoun(item(m[0])) else { return nil }
        return m[0]
    }

    /// "open the grocery list and add milk", said as one sentence, which the clause splitter
    /// would part into an opening and an adding of nothing in particular.
    func openedList(_ sentence: String) -> [PlannedIntent]? {
        let c = normalise(sentence)
        guard pattern.match(#"(?:open|bring up|pull up|go to|get|find|show me)(?: up)? .+? (?:list|checklist) and (?:please )?(?:add|include|put) .+"#, c.text) != nil else { return nil }
        return namedList(c)
    }

    func milestone(_ title: String, project: String?) -> [PlannedIntent]? {
        var cut = dates.cut(title)
        var project = project
        if cut.due == nil, let p = project {
            let pc = dates.cut(p)
            if pc.due != nil { cut.due = pc.due; project = pc.rest }
        }
        let name = DateSlot.tidy(cut.rest)
        guard !name.isEmpty else { return nil }
        var args: [String: JSONValue] = ["title": .string(name)]
        if let due = cut.due { args["due"] = .string(due) }
        if let p = project.map({ item($0) }), !p.isEmpty, !isPronoun(p) {
            args["project"] = .string(p)
            return [PlannedIntent(.addMilestone, args, subject: p)]
        }
        return [PlannedIntent(.addMilestone, args, pronoun: true)]
    }

    func appendNote(text: String, note: String) -> [PlannedIntent]? {
        let n = item(note)
        guard !text.isEmpty, !n.isEmpty else { return nil }
        if isPronoun(n) { return [PlannedIntent(.appendNote, ["text": .string(text)], pronoun: true)] }
        return [PlannedIntent(.appendNote, ["title": .string(n), "text": .string(text)], subject: n)]
    }

    /// The capture rules: remind me, add a task, todo, I need to, note, jot.
    func capture(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text
        if let m = pattern.match(#"(?:set|create|add|make|give me|i (?:want|need) a)(?: me)? (?:a |an )?(?:reminder|notification|alert)(?: for| on| at)? (.+)"#, t)
            ?? pattern.match(#"remind me (.+)"#, t), let due = dates.cut(m[0]).due, DateSlot.tidy(dates.cut(m[0]).rest).isEmpty {
            var args: [String: JSONValue] = ["title": .string("reminder"), "due": .string(due)]
            if let g = dates.cut(m[0]).grain { args["due_grain"] = .string(g) }
            return [PlannedIntent(.createTask, args, subject: "reminder")]
        }
        if let m = pattern.match(#"(?:remind|ping|nudge|tell|notify|alert) me (.+?) to (.+)"#, t), dates.cut(m[0]).phrase != nil,
           DateSlot.tidy(dates.cut(m[0]).rest).isEmpty {
            return newTask(m[1] + " " + m[0], bang: c.bang)
        }
        if let early = remindedBefore(t) { return early }
        let taskRules = [
            #"(?:remind|ping|nudge|notify|alert) me (?:to|that i (?:need|have) to|that i should) (.+)"#,
            #"(?:remind|ping|nudge|notify|alert) me (?:about|of|re:?) (.+)"#,
            #"(?:can|could|may) (?:i|you) (?:get|set|have|make|add|create|put in|set up) (?:a |me a |myself a )?reminder (?:to|for|about|that) (.+)"#,
            #"(?:set|create|add|make|put in|set up)(?: me)? (?:a |an |some )?(?:reminders?|notifications?|alerts?) (?:to|for|about|of|that i need to|that) (.+)"#,
            #"reminder(?: to| for| about|:) (.+)"#,
            #"add (?:a |another |one more |new |the )?(?:task|todo|to-do|to do|item|action item|reminder)(?: to my list| to the list| to my tasks)?(?: to|:| for|,|-)? (.+)"#,
            #"(?:create|make|new) (?:a |another |an )?(?:new )?(?:task|todo|to-do|to do|reminder)(?: to|:| for|,|-| called| named)? (.+)"#,
            #"(?:todo|to-do|to do|task|action|action item|reminder)\s*[:\-]\s*(.+)"#,
            #"(?:i think |i guess |maybe )?(?:i|we)(?: really| still| also| definitely)? (?:need to|needs to|have to|has to|got to|gotta|must|should|ought to|want to|wanna|'d like to|would like to|'ll have to|will have to|need|have got to|'ve got to) (.+)"#,
            #"(?:really |still |also |definitely |probably )?(?:need to|have to|got to|gotta|must|should) (.+)"#,
            #"(?:it'?s |it is )?time to (.+)"#,
            #"(?:don'?t|do not) (?:let me )?forget (?:to |about )?(.+)"#,
            #"(?:i )?(?:must|need to|should|gotta) remember to (.+)"#,
            #"remember to (.+)"#,
            #"(?:add|put|chuck|stick|pop|throw|bung) (.+?) (?:to|on|in|onto) (?:my |the )?(?:to-?do |todo |task |tasks |shopping |grocery |groceries |reminders )?(?:list|tasks|todos|to-dos|inbox|reminders)"#,
        ]
        for rule in taskRules {
            if let m = pattern.match(rule, t) {
                if let intents = newTask(m[0], bang: c.bang) { return intents }
            }
        }
        // "thursday at three pm there is a teachers meeting i need to be reminded of".
        if let m = pattern.match(#"(.*?)(?:,? )?there(?:'s| is| will be) (?:a |an |the )?(.+?) (?:(?:that )?(?:i|we) (?:need|want|have|would like|'d like) to be reminded (?:of|about)(?: it)?|(?:please )?remind me(?: of it| about it)?)"#, t),
           let intents = newTask(m[1] + " " + m[0], bang: c.bang) {
            return intents
        }
        // "add dentist on friday": something to do on a day, added with no list named.
        if let m = pattern.match(#"add (.+)"#, t), pattern.match(#"(?:to|on|in|into|onto|from|up|back)\b.*"#, m[0]) == nil {
            let cut = dates.cut(m[0])
            // One date, whole: "add new year with family next week" reads two and is left alone.
            if cut.due != nil, cut.invalid == nil, !DateSlot.tidy(cut.rest).isEmpty, dates.cut(cut.rest).phrase == nil,
               let intents = newTask(m[0], bang: c.bang) { return intents }
        }
        let noteRules = [
            #"(?:note|idea|memo|thought|fyi)\s*[:\-]\s*(.+)"#,
            #"(?:jot|write|note|put) (?:this |that |it )?down(?::|,)? (?:that )?(.+)"#,
            #"(?:jot|write|note) (.+?) down"#,
            #"(?:take|make|add|create|save|leave) (?:a |me a )?(?:quick |short )?note(?: that| of| about| saying| to say|:|,)? (.+)"#,
            #"(?:keep in mind|remember that|note that|for the record)[:,]? (?:that )?(.+)"#,
        ]
        for rule in noteRules {
            if let m = pattern.match(rule, t), !m[0].isEmpty {
                return [PlannedIntent(.createNote, ["body": .string(m[0])], subject: nil)]
            }
        }
        if let m = pattern.match(#"(?:create|make|start|new)(?: a| an)?(?: new)? note (?:called|titled|named)? ?["“]?(.+?)["”]?"#, t) {
            return [PlannedIntent(.createNote, ["title": .string(m[0])], subject: m[0])]
        }
        return nil
    }

    /// Why a request is answered with no plan although it is about the store: cut short, a time
    /// before or after something that cannot be counted, "delete everything" of nothing named, or
    /// converting an amount. Nil for every other request.
    func declined(_ raw: String) -> String? {
        let t = normalise(raw).text
        if pattern.match(#"(?:remind|ping|nudge|tell) me(?: to| about| of| that)?|(?:add|create|new)(?: a)? (?:task|todo|to-do|reminder)(?: to| for)?|(?:i need to|remember to|todo:?|to do:?)|(?:i|we)(?: need| want| would like| would love|'d like|'d love|d like) (?:you|u)(?: to)?"#, t) != nil {
            return "nothing planned: the request stops before it says what to do; nothing in the store was touched"
        }
        // "remind me the evening before the dentist on friday": a reminder at the dentist's own
        // time would be too late, and another time would be a guess.
        if let m = pattern.match(DateSlot.aheadOf, t) {
            if dates.cut(m[2]).value != nil, dates.countBack(m[0]) == nil {
                return "nothing planned: how long before or after could not be read; say it as a length of time (\"an hour before\", \"two days before\"); nothing in the store was touched"
            }
            if dates.cut(m[2]).value == nil, dates.countBack(m[0]) != nil {
                return "nothing planned: no day or time was said for \"\(item(m[2]))\", so there is nothing to count from; say it (\"... before the party on saturday\"); nothing in the store was touched"
            }
        }
        // "delete everything", "clear it all": of what, was not said.
        if pattern.match(#"(?:delete|remove|clear|erase|wipe|get rid of|cancel)(?: out)? (?:everything|it all|all of it|all)"#, t) != nil {
            return "nothing planned: what to delete was not said; name the list (\"clear my shopping list\"), the days of the calendar (\"clear my calendar for friday\") or what goes; nothing in the store was touched"
        }
        if isConversion(t.lowercased()) {
            return "nothing planned: converting amounts is not something PocketBrains does; nothing in the store was touched"
        }
        return nil
    }

    /// A request to empty a whole list that does not say which ("delete all my tasks"), or a
    /// calendar on days that could not be read whole ("for the rest of the year"): asked back,
    /// as a removal that names nothing is, so the answer can name it.
    func unnamedEmptying(_ raw: String) -> Unnamed? {
        let t = normalise(raw).text
        switch emptying(t) {
        case .list?: return Unnamed(tool: .clearProject, needs: .list)
        case .calendar? where unreadWhen(whenLast(t)): return Unnamed(tool: .cancelEvent, needs: .when)
        default: return nil
        }
    }

    /// What a request to empty a whole thing at once would empty.
    enum Emptied { case calendar, list }

    /// A request to empty a whole calendar or list, with nothing after what is emptied but when
    /// ("for saturday", "this month"): "clean the events tent" and "empty the day bag" are chores.
    /// A calendar is emptied of PocketBrains' own events, asked first (`clearedCalendar`); a
    /// list not named is asked for (`unnamedEmptying`).
    func emptying(_ said: String) -> Emptied? {
        let t = whenLast(said)
        let calendar = #"(?:calendar|schedule|diary|agenda|events|calendar events|appointments|meetings|programs)"#
        let list = #"(?:list|lists|tasks|to-?dos|to-?do list|task list|reminders)"#
        let mine = #"(?:my |the |all my |all the |all of my |all of the )"#
        let when = #"(?: (?:on|in|from|off|of) (?:my |the )?(?:calendar|diary|agenda|schedule))?(?: (?:completely|entirely|altogether))?(?: (?:for|on|from|in|this|next|today|tomorrow|tonight|until|through|after|before|the)\b.*)?"#
        // A request that names a list anywhere ("delete everything on my shopping list") is
        // about that list, never the calendar; a named list emptied ("clear my shopping list")
        // is a list emptied too.
        let aboutList = pattern.contains(#"\b(?:list|lists|checklist|tasks|to-?dos?|reminders)\b"#, t)
        if aboutList, pattern.match(#"(?:clear|clean|empty|wipe|reset)(?: out| up)? (?:my |the |our )?(?:[\p{L}'’-]+ ){0,3}?(?:list|checklist)"# + when, t) != nil {
            return .list
        }
        for (whole, kind) in [(calendar, Emptied.calendar), (list, Emptied.list)] {
            if pattern.match(#"(?:clear|clean|empty|wipe|erase|reset)(?: out| up| off)? (?:all |everything )?(?:(?:on|in|from|off) )?"# + mine + #"?(?:entire |whole |complete )?"# + whole + when, t) != nil
                || pattern.match(#"(?:delete|remove|cancel|scrap|bin|destroy|take away|get rid of|erase|clear|wipe)(?: out)? (?:all|every)(?: of)? "# + mine + #"?"# + whole + when, t) != nil
                // "delete everything" alone, or "everything in the work project", names no calendar.
                || pattern.match(#"(?:delete|remove|cancel|erase|clear|wipe)(?: out)? everything (?:on|in|from|off) "# + mine + "?" + whole + when, t) != nil
                || pattern.match(#"(?:delete|remove|erase|wipe) (?:my|the) (?:entire |whole )?"# + whole + when, t) != nil
                || pattern.match(#"make (?:my|the) "# + whole + #" (?:empty|clear)"# + when, t) != nil
                || pattern.match(#"(?:i want|i need) (?:all (?:of )?my|everything on my|everything in my) "# + whole + #" (?:deleted|removed|cleared|gone)"# + when, t) != nil {
                return kind == .calendar && aboutList ? .list : kind
            }
        }
        if pattern.match(#"make sure (?:my|the) (?:whole |entire )?(?:calendar|diary|agenda|schedule) is (?:completely |entirely |totally )?(?:clear|empty|free)"# + when, t) != nil
            || pattern.match(#"(?:i want|i need|i'd like) (?:everything|all (?:of )?(?:my |the )?events) (?:deleted|removed|cleared|erased|gone|taken off) (?:from|on|in|off) (?:my |the )?(?:calendar|diary|agenda|schedule)"# + when, t) != nil {
            return .calendar
        }
        if pattern.match(#"(?:clear|clean|empty|wipe) (?:my|the) day"# + #"(?: (?:for|on|this|next|today|tomorrow|the)\b.*)?"#, t) != nil
            || pattern.match(#"make (?:my|the) day (?:empty|clear)"# + #"(?: (?:for|on|this|next|today|tomorrow|the)\b.*)?"#, t) != nil {
            return .calendar
        }
        return nil
    }

    /// A request with its day said first, put as the clearing rules read it: "on the twentieth
    /// clear my calendar" and "i'm busy tomorrow so delete all calendar events" are "clear my
    /// calendar on the twentieth" and "delete all calendar events tomorrow". Else as said.
    func whenLast(_ t: String) -> String {
        if let m = pattern.match(#"(?:i'?m|i am|i'll be|i will be|we'?re|we are|we'll be) (?:busy|away|off|out|sick|travelling|traveling|on holiday|on vacation|not around|unavailable)( .+?)?,? (?:so|and) (.+)"#, t) {
            return m[1] + (m[0].isEmpty ? "" : " " + m[0])
        }
        if let m = pattern.match(#"((?:on|for) .+?),? ((?:clear|clean|empty|wipe|erase|delete|remove|cancel) .+)"#, t) {
            let cut = dates.cut(m[0])
            if cut.phrase != nil, DateSlot.tidy(cut.rest).isEmpty { return m[1] + " " + m[0] }
        }
        return t
    }

    /// "clear my calendar for saturday", "cancel all my appointments this week": every event of
    /// PocketBrains' own calendar on that day or span (every one, when no day is said), taken out
    /// only once the user confirms (PlanReconciler asks).
    func clearedCalendar(_ c: Clause) -> [PlannedIntent]? {
        let said = whenLast(c.text)
        guard emptying(said) == .calendar, !unreadWhen(said) else { return nil }
        var args: [String: JSONValue] = ["all": .bool(true)]
        // Meetings are the events called so ("Team meeting"), not every event.
        if pattern.contains(#"\bmeetings\b"#, c.lower), !pattern.contains(#"\b(?:calendar|schedule|diary|agenda|events|appointments|programs|day)\b"#, c.lower) {
            args["title"] = .string("meetings")
        }
        let cut = dates.cut(said)
        args.merge(eventDays(cut)) { _, day in day }
        return [PlannedIntent(.cancelEvent, args)]
    }

    /// When to clear was said but not read whole: no date phrase was read in the words of when
    /// ("for the rest of the year"), one was impossible or a repeat, a time was said ("next
    /// tuesday at 3pm": not a day), or words of when are left once the phrase is cut ("from
    /// friday to monday", "on the fifth at noon"). Clearing the day read, or every day, would
    /// take out more than was asked.
    func unreadWhen(_ t: String) -> Bool {
        let cut = dates.cut(t)
        if cut.phrase != nil, cut.invalid != nil || cut.recurrence != nil || ["minute", "second"].contains(cut.grain ?? "") { return true }
        let placeless = cut.rest.replacingOccurrences(of: #" (?:on|in|from|off|of) (?:my |the )?(?:calendar|diary|agenda|schedule)\b"#, with: " calendar", options: .regularExpression)
        return pattern.match(#".*\b(?:calendar|schedule|diary|agenda|events|appointments|meetings|programs|day)(?: (?:completely|entirely|altogether))? (?:for|on|from|in|this|next|until|till|through|after|before|the|to|and|at)\b.+"#, placeless) != nil
    }

    /// The days a cut date phrase names, as cancel_event's `on` and `until` (ISO dates; no
    /// `until` for one day, neither for no phrase or one that is no day): a span under way starts today.
    func eventDays(_ cut: DateSlot.Cut) -> [String: JSONValue] {
        guard cut.invalid == nil, cut.recurrence == nil, let value = cut.value else { return [:] }
        let zone = dates.parser.timeZone
        let start = max(value, cut.valueEnd == nil ? value : min(dates.startOfToday, cut.valueEnd!.addingTimeInterval(-1)))
        let on = ISOMoment.dayString(start, zone: zone)
        let until = max(on, cut.valueEnd.map { ISOMoment.dayString($0.addingTimeInterval(-1), zone: zone) } ?? on)
        return until == on ? ["on": .string(on)] : ["on": .string(on), "until": .string(until)]
    }

    /// "find my shopping list and delete it", "look for dinner with mom on my calendar and remove
    /// it", "i don't need the tesco item any more, delete it", "i'm no longer attending the
    /// wedding on the tenth so remove it from my calendar": what is named first is what "it"
    /// takes out. Read as one sentence, which the clause splitter would part into a look, or a
    /// statement, and a removal of nothing in particular.
    func referredRemoval(_ sentence: String) -> [PlannedIntent]? {
        let c = normalise(sentence)
        let look = #"(?:find|look for|locate|look up|search for|search|check|open|go to|bring up|pull up|get|show me)(?: up)?"#
        let over = #"(?:i (?:do not|don't|dont|no longer|won't|will not|wont) (?:need|want)(?: to (?:attend|go to|keep|do))?|i(?:'m| am) (?:no longer|not) (?:attending|going to|doing)|i will no longer be (?:attending|going to|joining|doing)|i(?:'ll| will) not be (?:attending|going to|joining))"#
        let remove = #"((?:delete|remove|erase|cancel|clear|dismiss|get rid of|scratch|drop|empty)(?: out| off)?)"#
        let asked = #"(?: please)?(?: (?:can|could|would) you)?(?: please)?"#
        let place = #"((?:from|off|on|in) (?:my |the )?(?:calendar|diary|agenda|schedule|planner|list|to-?do list))?"#
        guard let m = pattern.match(look + #" (.+?),? (?:and|then|and then)"# + asked + " " + remove + #" (?:it|them|that|that one|this one)(?: (?:too|as well))?(?: "# + place + ")?", c.text)
                ?? pattern.match(over + #" (.+?)(?: any ?more)?,?(?: (?:so|and|,))?"# + asked + " " + remove + #" (?:it|them|that)(?: (?:too|as well))?(?: "# + place + ")?", c.text)
                // "the dentist is cancelled, delete it": what was called off goes, and is no task done.
                ?? pattern.match(#"(.+?) (?:is|was|has been|got|'s|are|were|have been) (?:now )?(?:cancelled|canceled|called off|off|not happening)(?: now)?,?(?: (?:so|and))?"# + asked + " " + remove + #" (?:it|them|that)(?: (?:too|as well))?(?: "# + place + ")?", c.text) else { return nil }
        var named = m[0]
        // "find apple on my list": where it is said once, after the name.
        var at = m[2]
        if at.isEmpty, let p = pattern.match(#"(.+?) ((?:on|in|from) (?:my |the )?(?:calendar|diary|agenda|schedule|planner|list|to-?do list))"#, named) {
            named = p[0]
            at = p[1]
        }
        guard !isPronoun(item(named)) else { return nil }
        var said = m[1] + " " + named
        if !at.isEmpty { said += " from " + (pattern.match(#"(?:from|off|on|in) (.+)"#, at)?[0] ?? at) }
        return parse(said)
    }

    /// "notify me an hour before my 2pm appointment at the dealership", "remind me two days before
    /// mum's birthday on may 3": a reminder due that long before the time said; the thing
    /// reminded of is its title. Without a time or day for the thing, nothing to count back from.
    func remindedBefore(_ t: String) -> [PlannedIntent]? {
        guard let m = pattern.match(DateSlot.aheadOf, t) else { return nil }
        let cut = dates.cut(m[2])
        let title = item(cut.rest)
        guard let at = cut.value, cut.invalid == nil, cut.recurrence == nil, cut.valueEnd == nil || cut.grain == "day",
              !title.isEmpty, !isPronoun(title) else { return nil }
        // A lead that is no length of time ("the evening before", "1 hour 15 before"): no reminder
        // at the thing's own time, which would be too late; nothing, and pb-plan says so.
        guard let back = dates.countBack(m[0], sign: m[1].lowercased() == "after" ? 1 : -1) else { return [] }
        let due = back(at)
        // A day counted back from a day is a day; anything else a moment.
        let dayOnly = cut.grain == "day" && dates.calendar.startOfDay(for: due) == due
        var args: [String: JSONValue] = ["title": .string(title)]
        args["due"] = .string(dayOnly ? ISOMoment.dayString(due, zone: dates.parser.timeZone) : dates.format.instant(due))
        args["due_grain"] = .string(dayOnly ? "day" : "minute")
        return [PlannedIntent(.createTask, args, subject: title)]
    }

    /// "friday is mum's birthday, add it to my calendar", "the 12th of july is bola's birthday",
    /// "on third april we will go to watch the movie, set it": a dated thing said as a statement,
    /// with or without asking for it to be kept, is a task due that day. Read as one sentence: the
    /// clause splitter would part the statement from the "add it" that points back at it.
    func statedOccasion(_ sentence: String) -> [PlannedIntent]? {
        let c = normalise(sentence)
        let keep = #"(?:,? (?:and |so )?(?:please )?(?:(?:can|could) you )?(?:set|add|save|put|note|mark|schedule|enter|pencil)(?: it| this| that)(?: down| in)?(?: (?:in|on|to|into) (?:my |the )?(?:calendar|diary|agenda|schedule))?(?: please)?|,? and (?:my |the )?(?:calendar|diary) (?:is |needs )?to be updated(?: with (?:it|this|that|this date))?)"#
        let occasion = #"(?:birthday|anniversary|wedding|party|holiday|day off|graduation|recital|concert|match|game|exam|interview|appointment|deadline|funeral|christening|reunion|festival|trip|flight)"#
        // "friday is mum's birthday", "july 12th will be our anniversary".
        if let m = pattern.match(#"(.+?) (?:is|will be|'s) ((?:[\p{L}'’.-]+ ){0,4}?"# + occasion + ")(" + keep + ")?", c.text) {
            let cut = dates.cut(m[0])
            guard cut.phrase != nil, DateSlot.tidy(cut.rest).isEmpty, cut.invalid == nil else { return nil }
            // Someone's occasion ("mum's birthday", "our anniversary") is one to keep; "tomorrow is
            // a holiday" only says so, unless it is asked to be kept.
            guard !m[2].isEmpty || pattern.match(#"(?:my|our|his|her|their|[\p{L}.-]+['’]s) .+"#, m[1]) != nil else { return nil }
            return newTask(m[1] + " " + m[0])
        }
        // "on third april we will go to watch the movie, set it": the statement is what to keep.
        if let m = pattern.match(#"(.+?)"# + keep, c.text), dates.cut(m[0]).phrase != nil, dates.cut(m[0]).invalid == nil {
            var said = m[0]
            if let s = pattern.match(#"(.*?)\b(?:i|we|i'm|we're)(?: will| are going to| am going to|'ll| shall)?(?: go(?: to)?)? (.+)"#, said) { said = s[0] + " " + s[1] }
            return newTask(said)
        }
        return nil
    }

    /// "whatever the next event is, delete it", said as one sentence, which the clause splitter
    /// would part at its comma.
    func whateverNextEvent(_ sentence: String) -> [PlannedIntent]? {
        let c = normalise(sentence)
        guard pattern.match(#"(?:whatever|whichever) .+"#, c.text) != nil, let next = nextEvent(c) else { return nil }
        return [next]
    }

    /// "cancel my next appointment", "dismiss my next event", "check the events on my calendar and
    /// delete the next event", "whatever the next event is, delete it": the first event of
    /// PocketBrains' own calendar still to come, of that title when one is said ("my next dentist
    /// appointment", "the next meeting"). With no title the reconciler asks first.
    func nextEvent(_ c: Clause) -> PlannedIntent? {
        let remove = #"(?:delete|remove|erase|cancel|clear|dismiss|scrap|drop|wipe|scratch|get rid of|call off)(?: out| off)?"#
        let kind = #"(events?|appointments?|appt|meetings?|engagements?|calendar events?|calendar entry|entry|entries|bookings?|lunch|dinner|breakfast|calls?|class|lesson|session|game|match|party|flight|trip|date|interview|reservation)"#
        let place = #"(?: (?:from|off|on|in|of) (?:my |the )?(?:calendar|diary|agenda|schedule|planner))?"#
        let t = c.text
        // "cancel my appointment", "delete the event": an event named by no more than its kind
        // is the next one (asked first, named), never a to-do with the word in it.
        guard let m = pattern.match(#"(?:(.+?),? (?:and|then|and then|so) )?(?:do )?"# + remove + #" (?:my |the )?(?:very )?next (?:(.+?) )?"# + kind + place + #"(.*)"#, t)
                ?? pattern.match(#"(?:(.+?),? (?:and|then|and then|so) )?(?:do )?"# + remove + #" (?:my|the|this|that|our)()\s?"# + kind + place + #"(.*)"#, t)
                ?? pattern.match(#"()(?:whatever|whichever) (?:the |my )?next (?:(.+?) )?"# + kind + #" is"# + place + #",? "# + remove + #" (?:it|that|that one)(.*)"#, t),
              // "don't cancel my next meeting", "remind me to cancel my next appointment": not now.
              !pattern.contains(#"\b(?:don'?t|do not|never|not|no|remind|task|to-?do|note|tell|ask|text|email|message|write)\b"#, m[0]) else { return nil }
        let cut = dates.cut(m[3])
        // Words left after the day ("next event after the party") say more than this reads.
        guard DateSlot.tidy(cut.rest).isEmpty, cut.invalid == nil, cut.recurrence == nil else { return nil }
        var args: [String: JSONValue] = ["next": .bool(true)]
        var title = item(m[1])
        // A kind that is no more than "an event" names none; any other ("meeting", "lunch") is
        // a word the event's title holds.
        let kindWord = m[2].lowercased()
        let generic = ["event", "appointment", "appt", "engagement", "calendar event", "calendar entry", "entry", "entries", "booking"]
        if title.isEmpty, !generic.contains(where: { kindWord.hasPrefix($0) }) {
            title = kindWord.hasSuffix("s") && kindWord != "class" ? String(kindWord.dropLast()) : kindWord
        }
        if !title.isEmpty { args["title"] = .string(title) }
        args.merge(eventDays(cut)) { _, day in day }
        // The store may hold the next one as a task due sooner (Planner.namingByDue): what kind
        // of thing was said is kept for that ("meeting", "appointment", "event").
        var intent = PlannedIntent(.cancelEvent, args, subject: title.isEmpty ? m[2].lowercased() : title)
        // Only a meeting may be a to-do's title ("team meeting"); an appointment or event to
        // cancel is never the to-do that mentions one ("book dentist appointment").
        intent.dueNext = cut.phrase == nil && m[2].lowercased().hasPrefix("meeting")
        return intent
    }

    /// "remove the dentist from my calendar", "cancel dinner with mom on march first": one event
    /// of PocketBrains' own calendar, named by title and, when said, its day.
    func cancelledEvent(_ said: String, in request: String) -> PlannedIntent? {
        var title = item(dates.cut(said).rest)
        // "the birthday event": what kind of thing it is, not its name.
        if let m = pattern.match(#"(.+?) (?:event|calendar event|calendar entry|entry)"#, title) { title = m[0] }
        if let m = pattern.match(#"(?:the|my) (.+)"#, title) { title = m[0] }
        guard !title.isEmpty, pattern.match(#"(?:it|this|that|them|these|those|this one|that one|this event|that event|event|events|the event)"#, title) == nil else { return nil }
        let cut = dates.cut(request)
        var args: [String: JSONValue] = ["title": .string(title)]
        args.merge(eventDays(cut)) { _, day in day }
        return PlannedIntent(.cancelEvent, args, subject: title)
    }

    /// "what's 100 euros in pounds", "how many grams in an ounce".
    func isConversion(_ l: String) -> Bool {
        pattern.match(#"(?:what(?:'s| is)|whats|how (?:much|many) (?:is|are)) \d+(?:[.,]\d+)? ?[\p{L}$€£]+ (?:in|to|into) [\p{L}$€£]+"#, l) != nil
            || pattern.match(#"how many [\p{L}]+ (?:is|are|in) (?:a |an |\d+(?:[.,]\d+)? ?)[\p{L}]+"#, l) != nil
    }

    /// Requests outside what the tools can do: the honest answer is to say so.
    func outOfScope(_ c: Clause) -> [PlannedIntent]? {
        let l = c.lower
        if pattern.match(#"(?:play|shut(?: up| down| off| it| the)?|turn (?:on|off|up|down)|switch (?:on|off)|dim|brighten|set (?:an?|the|my) (?:alarm|timer)|wake me|start (?:a|the) timer|open (?:the )?(?:app|door|garage)|lock|unlock|order (?:a |an )?(?:uber|taxi|cab))\b.*"#, l) != nil {
            return []
        }
        // Working the house, not a list: "close all the open windows", "lock the garage door".
        if pattern.match(#"(?:close|open|shut|lock|unlock|raise|lower)(?: all)?(?: the| my)?(?: open| closed)?(?: [\w-]+)? (?:windows?|doors?|garage|blinds|curtains|shutters|gate|lights?)(?: .*)?"#, l) != nil {
            return []
        }
        if isConversion(l) { return [] }
        if pattern.contains(#"\b(?:weather|forecast|rain(?:ing)? (?:today|tomorrow)|joke|music|songs?|podcast|radio|thermostat|volume|headlines|news|stock (?:prices?|market)|traffic|sunrise|sunset|temperature|exchange rates?|meaning of life|horoscope|lyrics|football|score of)\b"#, l) {
            return []
        }
        // Looking at what another program holds, now: "read me new emails", "check email from
        // John", "review set alarms". PocketBrains holds no mail or alarms, and a to-do called
        // "read email" is not what was asked ("remind me to read ..." still is one).
        if pattern.match(#"(?:please )?(?:read|check|list|review|see|show|get|open|refresh|update|go through|scan)(?: me| for me)?(?: (?:on|all|my|the|any|new|unread|unchecked|latest|recent|last|set|incoming))* (?:e-?mails?|mail|inbox|messages?|texts?|alarms?|notifications?|voicemails?)\b.*"#, l) != nil {
            return []
        }
        return nil
    }

    /// A clause that starts with a verb people use for to-dos ("call Mom tonight") is a new task.
    func imperative(_ c: Clause) -> [PlannedIntent]? {
        guard let first = c.lower.split(separator: " ").first.map(String.init) else { return nil }
        let words = c.lower.split(separator: " ").map(String.init)
        guard VerbLexicon.taskVerbs.contains(first), words.count > 1, !c.question else { return nil }
        // "the plan is fine", "water looks low": a noun followed by a verb is a statement, not a to-do.
        if ["is", "are", "was", "were", "looks", "seems", "has", "had", "went", "will", "would", "can't", "isn't"].contains(words[1]) { return nil }
        return newTask(c.text, bang: c.bang)
    }
}
