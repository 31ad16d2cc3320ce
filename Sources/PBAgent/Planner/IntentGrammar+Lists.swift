import Foundation
import PBCore

/// List frames: "add 3 tasks: a, b and c" and "create project Garden: dig beds, buy seeds".
extension IntentGrammar {

    static let listFrame = #"(?:add|create|make|new|put down|capture|log)(?: the following| these| some| (?:\d+|two|three|four|five|six|seven|eight|a few|a couple of))?(?: new| more)? (?:tasks|todos|to-dos|items|things|reminders)(?: (?:to|in|for|under) (?:my |the )?(?:project )?(.+?))?\s*(?::|-|—)\s*(.+)"#
    static let projectListFrame = #"(?:create|start|make|set up|new)(?: a| an)?(?: new)? project(?: called| named| titled)? ((?:(?!\s+and\s+).)+?)\s*(?::|—| with (?:the )?(?:tasks?|steps|items):?)\s*(.+)"#

    func list(_ c: Clause) -> [PlannedIntent]? {
        if let m = pattern.match(IntentGrammar.listFrame, c.text) {
            var intents: [PlannedIntent] = []
            for entry in listItems(m[1]) { intents += newTask(entry) ?? [] }
            guard !intents.isEmpty else { return nil }
            if !m[0].isEmpty, !["list", "to-do list", "todo list", "tasks"].contains(m[0].lowercased()) {
                for i in intents.indices where intents[i].tool == .createTask { intents[i].args["project"] = .string(item(m[0])) }
            }
            return intents
        }
        if let m = pattern.match(IntentGrammar.projectListFrame, c.text) {
            let name = item(m[0])
            guard !name.isEmpty else { return nil }
            var intents = [PlannedIntent(.createProject, ["title": .string(name)], subject: name)]
            for entry in listItems(m[1]) { intents += newTask(entry) ?? [] }
            return intents
        }
        return nil
    }

    func listItems(_ text: String) -> [String] {
        let r = ClausePattern.shared.regex(#",\s*(?:and\s+|then\s+)?|;\s*|\s+and\s+|\s+&\s+"#)
        let ns = text as NSString
        var out: [String] = []
        var cursor = 0
        for m in r.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            out.append(ns.substring(with: NSRange(location: cursor, length: m.range.location - cursor)))
            cursor = m.range.location + m.range.length
        }
        out.append(ns.substring(from: cursor))
        return out.map { DateSlot.tidy($0) }.filter { !$0.isEmpty }
    }
}
