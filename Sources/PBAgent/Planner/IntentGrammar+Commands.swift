import PBCore

/// Command frames: a slot grammar for the tools that change an existing item.
extension IntentGrammar {

    func commands(_ c: Clause) -> [PlannedIntent]? {
        for frame in Self.commandFrames {
            guard let groups = frame.match(c.text, with: pattern) else { continue }
            switch frame.build(self, groups) {
            case .read(let intents): return intents
            case .nothing: return nil
            case .notThis: continue
            }
        }
        return nil
    }

    /// The command frames, in the order they are tried.
    static let commandFrames: [CommandFrame] = [
        // Projects.
        CommandFrame(#"(?:create|make|start|set up|add|open|begin|new)(?: up)?(?: a| an| the)?(?: new)? project(?: called| named| titled| for|:)? (.+)"#) { g, m in
            let cut = g.dates.cut(m[0])
            let name = g.item(cut.rest)
            guard !name.isEmpty else { return .nothing }
            var args: [String: JSONValue] = ["title": .string(name)]
            if let due = cut.due { args["due"] = .string(due) }
            return .read([PlannedIntent(.createProject, args, subject: name)])
        },
        // Milestones.
        CommandFrame([
            .init(#"(?:complete|finish|close|tick off|check off|hit|reach|mark)(?: the)? milestone (.+?)(?: (?:in|of|for|on) (?:the )?(?:project )?(.+?))?(?: as)?(?: done| complete| completed| finished| reached)?"#),
            .init(#"(?:the )?milestone (.+?)(?: (?:in|of|for|on) (?:the )?(?:project )?(.+?))? (?:is|was|has been) (?:done|complete|completed|finished|reached|hit)"#),
        ]) { g, m in
            var args: [String: JSONValue] = ["title": .string(g.item(m[0]))]
            if !m[1].isEmpty { args["project"] = .string(g.item(m[1])) }
            return .read([PlannedIntent(.completeMilestone, args, subject: g.item(m[0]))])
        },
        // Notes.
        CommandFrame([
            .init(#"append (.+?) (?:to|onto|into) (?:the |my )?(?:note )?(?:called |titled )?(.+?)(?: note)?"#),
            .init(#"add (.+?) to (?:the |my )?(.+?) note"#),
            .init(#"(?:put|write|add) ["“](.+?)["”] (?:in|into|on) (?:the |my )?(?:note )?(.+?)(?: note)?"#),
        ]) { g, m in
            .init(g.appendNote(text: m[0].trimmingCharacters(in: ["\"", "“", "”"]), note: m[1]))
        },
        // Search.
        CommandFrame(#"(?:search|look|grep|dig)(?: up| through| in| for| around)?(?: in)? (?:my |the )?notes? (?:for|about|on) (.+)"#) { _, m in
            .read([PlannedIntent(.search, ["query": .string(DateSlot.tidy(m[0])), "kind": .string("note")])])
        },
        CommandFrame([
            .init(#"(?:search|look|grep|hunt)(?: everything| everywhere| my stuff| all)?(?: for| up)? (.+)"#),
            .init(#"(?:find|look up|lookup|locate|search for|pull up) (?:anything |everything |stuff |items? )?(?:about |on |related to |mentioning |with |for )?(.+)"#),
        ]) { _, m in
            .read([PlannedIntent(.search, ["query": .string(DateSlot.tidy(m[0]))])])
        },
        // Snooze and duration pushes ("push the report back 2 days").
        CommandFrame(#"snooze (.+?)(?: (?:for|by) "# + count + " " + unit + ")?") { g, m in
            let args = m[1].isEmpty ? [:] : (g.duration(m[1], m[2]) ?? [:])
            return .init(g.onTask(.snoozeTask, m[0], args).map { [$0] })
        },
        CommandFrame(#"(?:push|delay|postpone|move|bump|kick|shift|put off|defer|slide|nudge)(?: back| out)? (.+?) (?:back |out |forward )?(?:by |for )?"# + count + " " + unit + "(?: back| out| later)?") { g, m in
            guard let args = g.duration(m[1], m[2]) else { return .notThis }
            return .init(g.onTask(.snoozeTask, m[0], args).map { [$0] })
        },
        // Priority.
        CommandFrame([
            .init(#"(?:set|change|make|mark|put|bump|raise|lower)(?: the)? priority (?:of|on|for) (.+?) (?:to|as|at) "# + priorityLevel + "(?: priority)?"),
            .init(#"(?:set|change|make|put)(?: the)? (.+?)(?:'s|s'|s) priority (?:to|as|at) "# + priorityLevel),
            .init(#"(?:set|change|make|mark|flag|put)(?: the)? (.+?) (?:to|as|at) "# + priorityLevel + " priority"),
        ]) { g, m in
            .init(g.onTask(.setPriority, m[0], ["priority": .string(IntentGrammar.level(m[1]))]).map { [$0] })
        },
        CommandFrame([
            .init(#"(?:make|mark|flag|set)(?: the)? (.+?) (?:as |to )?(?:an? )?(?:(?:really|very|super|top) )?(urgent|high priority|top priority|important|a priority|priority|a top priority|low priority|not urgent|not important|not a priority|medium priority|normal priority)"#),
            .init(#"(.+?) (?:is|are|'s) (?:now )?(?:(?:really|very|super|top) )?(urgent|important|a priority|top priority|high priority|low priority|not urgent|not important|not a priority|medium priority)"#),
            .init(#"(.+?) (?:isn't|is not|isnt|aren't) (?:really )?(a priority|urgent|important)"#, groups: { [$0[0], "not " + $0[1]] }),
        ]) { g, m in
            let v = m[1].lowercased()
            let p = v.hasPrefix("not") || v.hasPrefix("low") ? "low" : v.hasPrefix("medium") || v.hasPrefix("normal") ? "medium" : "high"
            return .init(g.onTask(.setPriority, m[0], ["priority": .string(p)]).map { [$0] })
        },
        CommandFrame(#"(?:prioriti[sz]e|escalate|expedite)(?: the)? (.+)"#) { g, m in
            .init(g.onTask(.setPriority, m[0], ["priority": .string("high")]).map { [$0] })
        },
        CommandFrame(#"(?:de-?prioriti[sz]e|downgrade|lower the priority of)(?: the)? (.+)"#) { g, m in
            .init(g.onTask(.setPriority, m[0], ["priority": .string("low")]).map { [$0] })
        },
        // Recurrence.
        CommandFrame([
            .init(#"(?:make|set|have) (.+?) (?:to )?(?:repeat|recur|happen|come round|come around|come up)(?: again)? (.+)"#),
            .init(#"(?:repeat|recur) (.+?) ((?:every|each|daily|weekly|monthly|yearly|annually|fortnightly).*)"#),
            .init(#"(.+?) (?:repeats|recurs|comes round|comes around|come round|come around|repeat|recur|happens|should repeat|needs doing|is due) ((?:every|each|daily|weekly|monthly|yearly|annually|fortnightly).*)"#),
            .init(#"make (.+?) (?:a )?(daily|weekly|monthly|yearly|annual|fortnightly)(?: thing| task| one)?"#),
        ]) { g, m in
            guard let rule = g.rule(of: m[1]) else { return .notThis }
            return .init(g.onTask(.setRecurrence, m[0], ["rule": .string(rule)]).map { [$0] })
        },
        CommandFrame(#"(?:stop|don't let|do not let) (.+?) (?:from )?(?:repeating|recurring)"#) { g, m in
            .init(g.onTask(.setRecurrence, m[0], ["rule": .string("none")]).map { [$0] })
        },
        // Dependencies.
        CommandFrame(#"(.+?) (?:is |are )?(?:blocked by|waiting on|waiting for|waits on|waits for|depends on|depend on|dependent on|can(?:'t|not) (?:start|happen) (?:until|before|without)) (.+)"#) { g, m in
            let task = g.item(m[0])
            let by = g.item(m[1])
            guard !task.isEmpty, !by.isEmpty else { return .nothing }
            if g.isPronoun(task) { return .read([PlannedIntent(.addDependency, ["blocked_by": .string(by)], pronoun: true)]) }
            return .read([PlannedIntent(.addDependency, ["task": .string(task), "blocked_by": .string(by)], subject: task)])
        },
        // Renames and links.
        CommandFrame([
            .init(#"(?:rename|retitle)(?: the)?(?: task)? (.+?) (?:to|as) (.+)"#),
            .init(#"change (?:the )?(?:title|name) of (.+?) to (.+)"#),
        ]) { g, m in
            .init(g.onTask(.updateTask, m[0], ["new_title": .string(DateSlot.tidy(m[1]).trimmingCharacters(in: ["\"", "“", "”"]))]).map { [$0] })
        },
        CommandFrame(#"(?:link|connect|relate|associate) (.+?) (?:to|with|and) (.+)"#) { g, m in
            .read([PlannedIntent(.linkItems, ["from": .string(g.item(m[0])), "to": .string(g.item(m[1]))], subject: g.item(m[0]))])
        },
        CommandFrame(#"export (?:.*? )?(?:to|into|as) (\S+\.ics)"#) { _, m in
            .read([PlannedIntent(.exportICS, ["path": .string(m[0])])])
        },
        CommandFrame(#"(?:export|sync|send|push|copy|put) (?:my |all |all my |the )?(?:today'?s |tomorrow'?s |this week'?s )?(?:tasks|to-?dos|calendar|agenda|things|list|to-?do list|task list)(?: to (?:my |the )?(?:calendar|ical|ics))?"#) { _, _ in
            .read([PlannedIntent(.exportICS, ["path": .string("tasks.ics")])])
        },
        // Summaries.
        CommandFrame(#"(?:summari[sz]e|recap|sum up|give me a summary of|summary of)(?: the| my)? (.+)"#) { g, m in
            let cut = g.dates.cut(m[0])
            if let due = cut.due, cut.grain == "day", g.item(cut.rest).isEmpty || ["day", "my day"].contains(g.item(cut.rest).lowercased()) {
                return .read([PlannedIntent(.summarize, ["day": .string(due)])])
            }
            let p = g.item(m[0].replacingOccurrences(of: "project ", with: ""))
            if ["day", "my day", "today"].contains(p.lowercased()) { return .read([PlannedIntent(.summarize, [:])]) }
            if g.isPronoun(p) { return .read([PlannedIntent(.summarize, [:], pronoun: true)]) }
            return .read([PlannedIntent(.summarize, ["project": .string(p)], subject: p)])
        },
        // Reschedules: "reschedule X to DATE", "X is now due Monday", "can X slip to Thursday".
        CommandFrame([
            .init(#"(?:reschedule|move|push|postpone|delay|defer|shift|bump|put off|slide|slip|kick|nudge)(?: back| out| forward| over)?(?:(?: the)? due(?: date)?(?: (?:of|for|on))?|(?: the)? deadline(?: (?:of|for|on))?)? (.+)"#),
            .init(#"(?:change|set|reset|update|make)(?: the)? (?:due(?: date)?|deadline|date) (?:of|for|on) (.+)"#),
            .init(#"(?:change|set|reset|update|make)(?: the)? (.+?)(?:'s|s') (?:due(?: date)?|deadline|date) (.+)"#, groups: joined),
            .init(#"(.+?) (?:is|are) (?:now )?(?:due|happening|moved|pushed|scheduled|rescheduled|postponed) (.+)"#, groups: joined),
            .init(#"(?:can|could|should|may) (.+?) (?:slip|move|wait|go|be moved|be pushed|be done) (.+)"#, groups: joined),
            .init(#"(.+?) (?:can|could|should|will|must) (?:slip|move|wait|go|be moved|be pushed|be done) (.+)"#, groups: joined),
        ]) { g, m in
            g.reschedule(m[0]).map { .read([$0]) } ?? .nothing
        },
    ]

    /// A priority said as a word or a number.
    private static let priorityLevel = #"(high|low|medium|normal|none|urgent|top|highest|lowest|\d)"#

    /// The two groups as one slot ("the report's deadline friday": "the report friday").
    private static let joined: @Sendable ([String]) -> [String] = { [$0[0] + " " + $0[1]] }

    /// A reschedule of the task `slot` names to the date it holds, or nil.
    private func reschedule(_ slot: String) -> PlannedIntent? {
        // "move tomorrow morning's task to friday": the task is the one due then.
        if let n = pattern.match(#"(?:the )?(.+?)(?:'s|’s) (task|reminder|thing|to-?do|one|appointment|meeting|call|job) (?:to|until|till|til|for|on|onto|over to) (.+)"#, slot).map({ [$0[0], $0[2], $0[1]] }) {
            let owner = dates.cut(n[0]), target = dates.cut(n[1])
            if let start = owner.value, let end = owner.valueEnd, start < end, DateSlot.tidy(owner.rest).isEmpty,
               let due = target.due, DateSlot.tidy(target.rest).isEmpty {
                var args: [String: JSONValue] = ["title": .string(n[0] + "'s " + n[2]), "due": .string(due)]
                if let g = target.grain { args["due_grain"] = .string(g) }
                var intent = PlannedIntent(.rescheduleTask, args, subject: n[0] + "'s " + n[2])
                intent.dueWithin = start..<end
                return intent
            }
        }
        let cut = dates.cut(slot)
        guard let due = cut.due else { return nil }
        var rest = cut.rest
        if let r = pattern.match(#"(.+?) (?:to|until|till|til|back to|out to|over to)"#, rest) { rest = r[0] }
        var args: [String: JSONValue] = ["due": .string(due)]
        if let g = cut.grain { args["due_grain"] = .string(g) }
        return onTask(.rescheduleTask, rest, args)
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
