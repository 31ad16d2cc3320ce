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

    func construction(_ c: Clause) -> [PlannedIntent]? {
        for k in Self.constructions {
            if let m = pattern.match(k.pattern, c.text), let found = k.build(self, c, m) { return found }
        }
        return nil
    }

    /// Whether a name said as a message's recipient is a person's: one of the contacts, or
    /// capitalised words that are not ordinary words ("Priya", "Sam O'Neill"; not "reminder",
    /// "the landlord", "Team", "Sure", "Sam re").
    func isPerson(_ name: String) -> Bool {
        let words = name.split(separator: " ").map(String.init)
        guard let first = words.first, !Self.notRecipients.contains(first.lowercased()) else { return false }
        if people.contains(name.lowercased()) || (words.count == 1 && people.contains(first.lowercased())) { return true }
        return words.allSatisfy { w in
            guard let c = w.first, c.isUppercase else { return false }
            return !(WordList.shared?.isCommonWord(w) ?? false) || people.contains(w.lowercased())
        }
    }

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
        var tool: PlannerTool
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
