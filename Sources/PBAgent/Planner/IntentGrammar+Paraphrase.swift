import Foundation
import PBCore

/// Paraphrase frames over verb lemmas, and statements of state ("paid the water bill").
extension IntentGrammar {

    /// The first word's lemma picks the action from the lexicon; the slot around it is the item.
    func paraphrase(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text
        // Phrasal completions: "tick X off", "cross off X", "mark X as done", "done with X".
        if let m = pattern.match(#"(?:tick|check|cross|strike|scratch) (?:off )?(.+?)(?: off)?(?: (?:my|the) (?:list|to-?do list|tasks))?"#, t),
           pattern.match(#"(?:tick|check|cross|strike|scratch) (?:off .+|.+ off(?: (?:my|the) (?:list|to-?do list|tasks))?)"#, t) != nil {
            return onTask(.completeTask, m[0]).map { [$0] }
        }
        // "mark the gas bill as paid", "mark milk bought", "mark as done the gas bill".
        if let m = pattern.match(#"(?:mark|set|flag) (.+?) (?:as )?(?:done|complete|completed|finished|closed|paid|bought|sent|handled|sorted)"#, t)
            ?? pattern.match(#"(?:mark|set|flag) as (?:done|complete|completed|finished|paid|bought|sent|handled|sorted) (.+)"#, t)
            ?? pattern.match(#"(?:i'?m |i am |we'?re |we are )?(?:all )?(?:done|finished) with (.+)"#, t)
            ?? pattern.match(#"(?:wrap|close) up (.+)"#, t)
            ?? pattern.match(#"(?:wrap|close) (.+?) up"#, t) {
            return onTask(.completeTask, m[0]).map { [$0] }
        }
        if let m = pattern.match(#"(?:mark|set) (.+?) (?:as )?(?:not done|undone|incomplete|open|unfinished|to do)"#, t)
            ?? pattern.match(#"(?:un-?complete|un-?finish|un-?tick|un-?check|reopen|re-open|resurrect|revive|restore|bring back) (.+)"#, t) {
            return onTask(.reopenTask, m[0]).map { [$0] }
        }
        if let m = pattern.match(#"(?:get rid of|forget about|take off|knock off) (.+?)(?: (?:from|off) (?:my |the )?(?:list|tasks|to-?do list))?"#, t) {
            return onTask(.deleteTask, m[0]).map { [$0] }
        }
        let words = t.split(separator: " ").map(String.init)
        guard words.count > 1 else { return nil }
        let lemma = words[0].lowercased()
        guard let action = VerbLexicon.action(ofLemma: lemma) else { return nil }
        var rest = words.dropFirst().joined(separator: " ")
        if let m = pattern.match(#"(?:off|up|out|back|down|away) (.+)"#, rest) { rest = m[0] }
        switch action {
        case .complete:
            // "cross stitch a pillow", "cross check the invoices": to cross or tick is to complete
            // only with off or out ("cross out the milk", "tick off the gas bill").
            if ["cross", "tick"].contains(lemma), !["off", "out"].contains(words[1].lowercased()) { return nil }
            // "mark next monday as a holiday", "mark friday": marked as something other than done
            // (done was read above), or a day rather than a task, is not a completion.
            if lemma == "mark", pattern.contains(#"\bas\b"#, rest) || DateSlot.tidy(dates.cut(rest).rest).isEmpty { return nil }
            // "finish the report by friday" is work to do by then, not work done.
            if ["finish", "complete", "wrap"].contains(lemma), let when = dates.cut(rest).value, when >= dates.startOfToday {
                return newTask(t)
            }
            if let m = pattern.match(#"(.+?) (?:off|up)"#, rest) { rest = m[0] }
            return onTask(.completeTask, rest).map { [$0] }
        case .delete:
            if lemma == "drop", pattern.match(#"off .+|.+ off"#, words.dropFirst().joined(separator: " ")) != nil { return nil }
            let offAList = pattern.match(#"(.+?) (?:from|off) (?:my |the )?(?:list|tasks|to-?do list|todos)"#, rest)
            if let m = offAList { rest = m[0] }
            // "remove the dentist appointment on friday", "delete my meeting with sam tomorrow",
            // "remove the birthday event": an event on a day said, or called an event, taken out
            // of the calendar (a task of that name instead, when the store has no such event and
            // has the task). "cancel the dentist appointment", no day said, may be a to-do: the
            // store decides (Planner).
            let undated = dates.cut(rest)
            if let m = pattern.match(#"(?:the |my |our )?(?:.+ )?(event|appointment|appt|meeting|reservation)s?(?: (?:with|at|for|in) .+)?"#, undated.rest),
               undated.phrase != nil || m[0] == "event", offAList == nil,
               !pattern.contains(#"\b(?:lists?|items?|notes?|tasks?|reminders?)\b"#, rest), let event = cancelledEvent(rest, in: t) {
                return [event]
            }
            return onTask(.deleteTask, rest).map { [$0] }
        case .reopen:
            return onTask(.reopenTask, rest).map { [$0] }
        case .search:
            return [PlannedIntent(.search, ["query": .string(DateSlot.tidy(rest))])]
        case .reschedule:
            // Without a date or a duration, "postpone X" pushes it a day; "move the car" is a task.
            guard ["postpone", "delay", "defer", "put", "bump", "push"].contains(lemma) else { return nil }
            if lemma == "put", pattern.match(#"off .+"#, words.dropFirst().joined(separator: " ")) == nil { return nil }
            return onTask(.snoozeTask, rest).map { [$0] }
        case .create:
            return nil
        }
    }

    /// "paid the water bill" completes "pay the water bill"; "the gutters are done" completes "the gutters".
    func statementOfState(_ c: Clause) -> [PlannedIntent]? {
        guard !c.question else { return nil }
        let t = c.text
        // "I did not say it", "I haven't paid it yet": a denial completes nothing.
        if pattern.contains(#"\b(?:not|never|n't|nt|no longer|yet to)\b"#, c.lower.replacingOccurrences(of: "n't", with: " n't")) { return nil }
        // "the subscription is cancelled" is the to-do "cancel the subscription" done; "the dentist
        // is cancelled" is no call to the dentist made, and completes nothing else.
        if let m = pattern.match(#"(.+?) (?:is|are|'s|has been|have been|was|were|got) (?:now |all |finally |already )?(?:cancelled|canceled|called off)"#, t) {
            return onTask(.completeTask, "cancel " + m[0]).map { [$0] }
        }
        if let m = pattern.match(#"(?:that'?s|that is) (.+?) (?:sorted|done|finished|dealt with|taken care of|handled|out of the way)"#, t)
            ?? pattern.match(#"(.+?) (?:is|are|'s|has been|have been|was|were) (?:now |all |finally |already )?(?:done|finished|sorted|complete|completed|taken care of|handled|dealt with|clean|fixed|paid|booked|sent|submitted|over)"#, t) {
            return onTask(.completeTask, m[0]).map { [$0] }
        }
        var words = t.split(separator: " ").map(String.init)
        while let w = words.first?.lowercased(), ["i", "we", "just", "already", "finally", "have", "i've", "we've", "had", "i'd", "also", "today", "yesterday"].contains(w) {
            words.removeFirst()
        }
        guard words.count > 1, let lemma = VerbLexicon.pastLemma(words[0]) else { return nil }
        // "I needed to prepare", "I wanted to call", "I meant to": intentions, not things done.
        if ["need", "want", "try", "mean", "hope", "plan", "forget", "decide", "wish", "like", "have", "intend"].contains(lemma),
           words.count > 2, words[1].lowercased() == "to" { return nil }
        var rest = words.dropFirst().joined(separator: " ")
        if let m = pattern.match(#"(.+?) (?:today|yesterday|this morning|earlier|already|just now|at last|finally)"#, rest) { rest = m[0] }
        // "got it exactly", "did this wrong": a pronoun with more after it is talk about the
        // conversation, not an item; a bare "done it" is left to the planner's pronoun rules.
        if let first = rest.split(separator: " ").first.map({ $0.lowercased() }), ["it", "this", "that", "them"].contains(first),
           rest.split(separator: " ").count > 1 { return nil }
        if VerbLexicon.action(ofLemma: lemma) == .complete { return onTask(.completeTask, rest).map { [$0] } }
        return onTask(.completeTask, lemma + " " + rest).map { [$0] }
    }
}
