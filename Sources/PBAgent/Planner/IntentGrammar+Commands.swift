import PBCore

/// Command frames: a slot grammar for the tools that change an existing item.
extension IntentGrammar {

    func commands(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text
        let count = IntentGrammar.count
        let unit = IntentGrammar.unit

        // Projects.
        if let m = pattern.match(#"(?:create|make|start|set up|add|open|begin|new)(?: up)?(?: a| an| the)?(?: new)? project(?: called| named| titled| for|:)? (.+)"#, t) {
            let cut = dates.cut(m[0])
            let name = item(cut.rest)
            guard !name.isEmpty else { return nil }
            var args: [String: JSONValue] = ["title": .string(name)]
            if let due = cut.due { args["due"] = .string(due) }
            return [PlannedIntent(.createProject, args, subject: name)]
        }
        // Milestones.
        if let m = pattern.match(#"(?:complete|finish|close|tick off|check off|hit|reach|mark)(?: the)? milestone (.+?)(?: (?:in|of|for|on) (?:the )?(?:project )?(.+?))?(?: as)?(?: done| complete| completed| finished| reached)?"#, t)
            ?? pattern.match(#"(?:the )?milestone (.+?)(?: (?:in|of|for|on) (?:the )?(?:project )?(.+?))? (?:is|was|has been) (?:done|complete|completed|finished|reached|hit)"#, t) {
            var args: [String: JSONValue] = ["title": .string(item(m[0]))]
            if !m[1].isEmpty { args["project"] = .string(item(m[1])) }
            return [PlannedIntent(.completeMilestone, args, subject: item(m[0]))]
        }
        // Notes.
        if let m = pattern.match(#"append (.+?) (?:to|onto|into) (?:the |my )?(?:note )?(?:called |titled )?(.+?)(?: note)?"#, t)
            ?? pattern.match(#"add (.+?) to (?:the |my )?(.+?) note"#, t)
            ?? pattern.match(#"(?:put|write|add) ["“](.+?)["”] (?:in|into|on) (?:the |my )?(?:note )?(.+?)(?: note)?"#, t) {
            return appendNote(text: m[0].trimmingCharacters(in: ["\"", "“", "”"]), note: m[1])
        }
        // Search.
        if let m = pattern.match(#"(?:search|look|grep|dig)(?: up| through| in| for| around)?(?: in)? (?:my |the )?notes? (?:for|about|on) (.+)"#, t) {
            return [PlannedIntent(.search, ["query": .string(DateSlot.tidy(m[0])), "kind": .string("note")])]
        }
        if let m = pattern.match(#"(?:search|look|grep|hunt)(?: everything| everywhere| my stuff| all)?(?: for| up)? (.+)"#, t)
            ?? pattern.match(#"(?:find|look up|lookup|locate|search for|pull up) (?:anything |everything |stuff |items? )?(?:about |on |related to |mentioning |with |for )?(.+)"#, t) {
            return [PlannedIntent(.search, ["query": .string(DateSlot.tidy(m[0]))])]
        }
        // Snooze and duration pushes ("push the report back 2 days").
        if let m = pattern.match(#"snooze (.+?)(?: (?:for|by) "# + count + " " + unit + ")?", t) {
            let args = m[1].isEmpty ? [:] : (duration(m[1], m[2]) ?? [:])
            return onTask(.snoozeTask, m[0], args).map({ [$0] })
        }
        if let m = pattern.match(#"(?:push|delay|postpone|move|bump|kick|shift|put off|defer|slide|nudge)(?: back| out)? (.+?) (?:back |out |forward )?(?:by |for )?"# + count + " " + unit + "(?: back| out| later)?", t),
           let args = duration(m[1], m[2]) {
            return onTask(.snoozeTask, m[0], args).map({ [$0] })
        }
        // Priority.
        let level = #"(high|low|medium|normal|none|urgent|top|highest|lowest|\d)"#
        if let m = pattern.match(#"(?:set|change|make|mark|put|bump|raise|lower)(?: the)? priority (?:of|on|for) (.+?) (?:to|as|at) "# + level + "(?: priority)?", t)
            ?? pattern.match(#"(?:set|change|make|put)(?: the)? (.+?)(?:'s|s'|s) priority (?:to|as|at) "# + level, t)
            ?? pattern.match(#"(?:set|change|make|mark|flag|put)(?: the)? (.+?) (?:to|as|at) "# + level + " priority", t) {
            return onTask(.setPriority, m[0], ["priority": .string(IntentGrammar.level(m[1]))]).map({ [$0] })
        }
        if let m = pattern.match(#"(?:make|mark|flag|set)(?: the)? (.+?) (?:as |to )?(?:an? )?(?:(?:really|very|super|top) )?(urgent|high priority|top priority|important|a priority|priority|a top priority|low priority|not urgent|not important|not a priority|medium priority|normal priority)"#, t)
            ?? pattern.match(#"(.+?) (?:is|are|'s) (?:now )?(?:(?:really|very|super|top) )?(urgent|important|a priority|top priority|high priority|low priority|not urgent|not important|not a priority|medium priority)"#, t)
            ?? pattern.match(#"(.+?) (?:isn't|is not|isnt|aren't) (?:really )?(a priority|urgent|important)"#, t).map({ [$0[0], "not " + $0[1]] }) {
            let v = m[1].lowercased()
            let p = v.hasPrefix("not") || v.hasPrefix("low") ? "low" : v.hasPrefix("medium") || v.hasPrefix("normal") ? "medium" : "high"
            return onTask(.setPriority, m[0], ["priority": .string(p)]).map({ [$0] })
        }
        if let m = pattern.match(#"(?:prioriti[sz]e|escalate|expedite)(?: the)? (.+)"#, t) {
            return onTask(.setPriority, m[0], ["priority": .string("high")]).map({ [$0] })
        }
        if let m = pattern.match(#"(?:de-?prioriti[sz]e|downgrade|lower the priority of)(?: the)? (.+)"#, t) {
            return onTask(.setPriority, m[0], ["priority": .string("low")]).map({ [$0] })
        }
        // Recurrence.
        if let m = pattern.match(#"(?:make|set|have) (.+?) (?:to )?(?:repeat|recur|happen|come round|come around|come up)(?: again)? (.+)"#, t)
            ?? pattern.match(#"(?:repeat|recur) (.+?) ((?:every|each|daily|weekly|monthly|yearly|annually|fortnightly).*)"#, t)
            ?? pattern.match(#"(.+?) (?:repeats|recurs|comes round|comes around|come round|come around|repeat|recur|happens|should repeat|needs doing|is due) ((?:every|each|daily|weekly|monthly|yearly|annually|fortnightly).*)"#, t)
            ?? pattern.match(#"make (.+?) (?:a )?(daily|weekly|monthly|yearly|annual|fortnightly)(?: thing| task| one)?"#, t),
           let rule = rule(of: m[1]) {
            return onTask(.setRecurrence, m[0], ["rule": .string(rule)]).map({ [$0] })
        }
        if let m = pattern.match(#"(?:stop|don't let|do not let) (.+?) (?:from )?(?:repeating|recurring)"#, t) {
            return onTask(.setRecurrence, m[0], ["rule": .string("none")]).map({ [$0] })
        }
        // Dependencies.
        if let m = pattern.match(#"(.+?) (?:is |are )?(?:blocked by|waiting on|waiting for|waits on|waits for|depends on|depend on|dependent on|can(?:'t|not) (?:start|happen) (?:until|before|without)) (.+)"#, t) {
            let task = item(m[0])
            let by = item(m[1])
            guard !task.isEmpty, !by.isEmpty else { return nil }
            if isPronoun(task) { return [PlannedIntent(.addDependency, ["blocked_by": .string(by)], pronoun: true)] }
            return [PlannedIntent(.addDependency, ["task": .string(task), "blocked_by": .string(by)], subject: task)]
        }
        // Renames and links.
        if let m = pattern.match(#"(?:rename|retitle)(?: the)?(?: task)? (.+?) (?:to|as) (.+)"#, t)
            ?? pattern.match(#"change (?:the )?(?:title|name) of (.+?) to (.+)"#, t) {
            return onTask(.updateTask, m[0], ["new_title": .string(DateSlot.tidy(m[1]).trimmingCharacters(in: ["\"", "“", "”"]))]).map({ [$0] })
        }
        if let m = pattern.match(#"(?:link|connect|relate|associate) (.+?) (?:to|with|and) (.+)"#, t) {
            return [PlannedIntent(.linkItems, ["from": .string(item(m[0])), "to": .string(item(m[1]))], subject: item(m[0]))]
        }
        if let m = pattern.match(#"export (?:.*? )?(?:to|into|as) (\S+\.ics)"#, t) {
            return [PlannedIntent(.exportICS, ["path": .string(m[0])])]
        }
        if pattern.match(#"(?:export|sync|send|push|copy|put) (?:my |all |all my |the )?(?:today'?s |tomorrow'?s |this week'?s )?(?:tasks|to-?dos|calendar|agenda|things|list|to-?do list|task list)(?: to (?:my |the )?(?:calendar|ical|ics))?"#, t) != nil {
            return [PlannedIntent(.exportICS, ["path": .string("tasks.ics")])]
        }
        // Summaries.
        if let m = pattern.match(#"(?:summari[sz]e|recap|sum up|give me a summary of|summary of)(?: the| my)? (.+)"#, t) {
            let cut = dates.cut(m[0])
            if let due = cut.due, cut.grain == "day", item(cut.rest).isEmpty || ["day", "my day"].contains(item(cut.rest).lowercased()) {
                return [PlannedIntent(.summarize, ["day": .string(due)])]
            }
            let p = item(m[0].replacingOccurrences(of: "project ", with: ""))
            if ["day", "my day", "today"].contains(p.lowercased()) { return [PlannedIntent(.summarize, [:])] }
            if isPronoun(p) { return [PlannedIntent(.summarize, [:], pronoun: true)] }
            return [PlannedIntent(.summarize, ["project": .string(p)], subject: p)]
        }
        // Reschedules: "reschedule X to DATE", "X is now due Monday", "can X slip to Thursday".
        if let m = pattern.match(#"(?:reschedule|move|push|postpone|delay|defer|shift|bump|put off|slide|slip|kick|nudge)(?: back| out| forward| over)?(?:(?: the)? due(?: date)?(?: (?:of|for|on))?|(?: the)? deadline(?: (?:of|for|on))?)? (.+)"#, t)
            ?? pattern.match(#"(?:change|set|reset|update|make)(?: the)? (?:due(?: date)?|deadline|date) (?:of|for|on) (.+)"#, t)
            ?? pattern.match(#"(?:change|set|reset|update|make)(?: the)? (.+?)(?:'s|s') (?:due(?: date)?|deadline|date) (.+)"#, t).map({ [$0[0] + " " + $0[1]] })
            ?? pattern.match(#"(.+?) (?:is|are) (?:now )?(?:due|happening|moved|pushed|scheduled|rescheduled|postponed) (.+)"#, t).map({ [$0[0] + " " + $0[1]] })
            ?? pattern.match(#"(?:can|could|should|may) (.+?) (?:slip|move|wait|go|be moved|be pushed|be done) (.+)"#, t).map({ [$0[0] + " " + $0[1]] })
            ?? pattern.match(#"(.+?) (?:can|could|should|will|must) (?:slip|move|wait|go|be moved|be pushed|be done) (.+)"#, t).map({ [$0[0] + " " + $0[1]] }) {
            // "move tomorrow morning's task to friday": the task is the one due then.
            if let n = pattern.match(#"(?:the )?(.+?)(?:'s|’s) (task|reminder|thing|to-?do|one|appointment|meeting|call|job) (?:to|until|till|til|for|on|onto|over to) (.+)"#, m[0]).map({ [$0[0], $0[2], $0[1]] }) {
                let owner = dates.cut(n[0]), target = dates.cut(n[1])
                if let start = owner.value, let end = owner.valueEnd, start < end, DateSlot.tidy(owner.rest).isEmpty,
                   let due = target.due, DateSlot.tidy(target.rest).isEmpty {
                    var args: [String: JSONValue] = ["title": .string(n[0] + "'s " + n[2]), "due": .string(due)]
                    if let g = target.grain { args["due_grain"] = .string(g) }
                    var intent = PlannedIntent(.rescheduleTask, args, subject: n[0] + "'s " + n[2])
                    intent.dueWithin = start..<end
                    return [intent]
                }
            }
            let cut = dates.cut(m[0])
            if let due = cut.due {
                var rest = cut.rest
                if let r = pattern.match(#"(.+?) (?:to|until|till|til|back to|out to|over to)"#, rest) { rest = r[0] }
                var args: [String: JSONValue] = ["due": .string(due)]
                if let g = cut.grain { args["due_grain"] = .string(g) }
                if let intent = onTask(.rescheduleTask, rest, args) { return [intent] }
            }
        }
        return nil
    }

    static func level(_ word: String) -> String {
        switch word.lowercased() {
        case "high", "urgent", "top", "highest", "3": return "high"
        case "medium", "normal", "2": return "medium"
        case "low", "lowest", "1": return "low"
        default: return "none"
        }
    }
}
