import Foundation
import PBCore

/// The deterministic policies (R1-R9) over a numbered plan, whoever proposed it (the grammar, or
/// a model through `pb-plan --reconcile`). Each step is a proposal that is accepted, modified or
/// rejected; every rule that touched it is named by its stable id. Steps are checked in order:
/// R5 admissible type, R7 clause echo, R6 source grounding, R8 location grounding, R2 date
/// validity, R3 temporal correction, R9 target grounding, R1 dedupe; R4 priority floor runs last, on what is kept,
/// so a merged repeat's date counts. Kept steps are renumbered and their `$N` references
/// rewritten; a step that refers to a rejected one is rejected with it.
public struct PlanReconciler: Sendable {
    public let dates: DateSlot
    /// The store's open tasks and saved notes, which a capture never adds again (R1).
    public var openTasks: [StoredItem]
    public var savedNotes: [StoredItem]
    /// Every item of the store, for R9; nil when the store was not read.
    public var targets: StoreTargets?
    public var registry: ToolRegistry

    public init(dates: DateSlot, openTasks: [StoredItem] = [], savedNotes: [StoredItem] = [], targets: StoreTargets? = nil,
                registry: ToolRegistry = .standard) {
        self.dates = dates
        self.openTasks = openTasks
        self.savedNotes = savedNotes
        self.targets = targets
        self.registry = registry
    }

    static let questionStarts: Set<String> = ["what", "what's", "whats", "when", "when's", "where", "where's", "who", "who's",
                                              "why", "how", "how's", "which", "whose"]
    /// Words in the request that license a priority: without one, a priority was made up.
    static let priorityCues = #"\b(?:urgent(?:ly)?|asap|a\.s\.a\.p|priority|priorities|prioriti[sz]e|de-?prioriti[sz]e|critical|important|immediately|right away|rush|whenever|someday|eventually|at some point|top|pressing|crucial|vital|high|low|medium|normal|escalate|expedite|downgrade)\b|!"#
    static let boilerplate = #"^(?:here (?:is|are)\b|here's\b|sure\b|okay\b|ok\b|certainly\b|of course\b|i(?:'ve| have) (?:added|created|noted|made)\b|the following\b|(?:your |the )?(?:tasks?|to-?dos?|action items?|next steps?|reminders?|summary|notes?|items?)\s*:?\s*$)"#

    /// The reconciled plan. `capture` turns on R1 and R4 and the capture tool list; `listAll`
    /// writes every rule (fired or not) and a review of every proposal, else only what fired.
    public func reconcile(_ plan: PlanRecord, request: String, capture: Bool, listAll: Bool,
                          unknownTools: [ProposedStep] = []) -> PlanRecord {
        var pass = Pass(owner: self, request: request, capture: capture, steps: plan.steps, unknownTools: unknownTools)
        pass.run()
        var out = plan
        out.steps = pass.renumbered()
        let fired = pass.rules.filter { !$0.changes.isEmpty }
        if listAll {
            out.rules = .array(pass.rules.map(\.json))
        } else if !fired.isEmpty {
            out.rules = .array(fired.map(\.json))
        }
        if listAll || !fired.isEmpty {
            out.review = pass.reviews
        }
        // A question asked before writing is moot once the step it asks about is gone.
        if out.confirm != nil, !out.steps.contains(where: { $0.tool.askedFirst }) {
            out.confirm = nil
        }
        // Taking every event of a day out of the calendar is asked first, whoever planned it: the
        // dry run lists what would go.
        for e in out.steps where e.tool == .cancelEvent && e.args["all"] == .bool(true) {
            pass.questions.append(PlanReconciler.clearingQuestion(e.args))
        }
        // So is taking out the next event with no name said: which one it is shows in the dry run.
        for e in out.steps where e.tool == .cancelEvent && e.args["next"] == .bool(true) {
            pass.questions.append("take \(nextEventNamed(e.args)) out of PocketBrains' calendar? (other calendars are only read)")
        }
        // So is taking out one event named by its UID alone (a session's "delete that event").
        for e in out.steps where e.tool == .cancelEvent && e.args["next"] == nil && e.args["all"] == nil && e.args["title"] == nil {
            guard let uid = PlanReconciler.text(e.args["uid"]) else { continue }
            let named = targets?.events.first { $0.ref == uid }.map { "\"\($0.title)\"" } ?? "the event \(uid)"
            pass.questions.append("take \(named) out of PocketBrains' calendar? (other calendars are only read)")
        }
        // So is deleting a whole list with what is on it.
        for d in out.steps where d.tool == .deleteProject {
            let which = PlanReconciler.reference(d.args["id"]) ?? PlanReconciler.text(d.args["title"]).map { "\"\($0)\"" } ?? "the project"
            pass.questions.append("delete \(which) with every task on it?")
        }
        // And emptying one: the list stays, what is on it goes.
        for d in out.steps where d.tool == .clearProject {
            let which = PlanReconciler.reference(d.args["id"]) ?? PlanReconciler.text(d.args["title"]).map { "\"\($0)\"" } ?? "the project"
            let what = d.args["done"] == .bool(true) ? "every done task" : "every task"
            pass.questions.append("delete \(what) on \(which)? (the list stays)")
        }
        // A draft is written only once the user has seen it, whoever planned it.
        if out.confirm == nil {
            for d in out.steps where d.tool == .draftMessage {
                let to = PlanReconciler.text(d.args["to"]) ?? "someone"
                let what = PlanReconciler.text(d.args["channel"]) == "email" ? "an email" : "a message"
                let words = PlanReconciler.text(d.args["text"]).map { ": \"\($0)\"" } ?? ""
                pass.questions.append("draft \(what) to \(to)\(words)? (it is not sent)")
            }
        }
        if !pass.questions.isEmpty {
            out.confirm = ((out.confirm.map { [$0] } ?? []) + pass.questions).joined(separator: " ")
        }
        return out
    }

    /// The event a `next` step would take out, named when the store was read: the first of the
    /// own calendar to start after now, within the day or span given.
    func nextEventNamed(_ args: [String: JSONValue]) -> String {
        let called = PlanReconciler.text(args["title"]).map { " called \"\($0)\"" } ?? ""
        let generic = "the next event\(called) still to come"
        guard let targets else { return generic }
        let first = targets.firstEventToCome(after: dates.parser.now, zone: dates.parser.timeZone, on: PlanReconciler.text(args["on"]),
                                             until: PlanReconciler.text(args["until"]), uid: PlanReconciler.text(args["uid"]))
        guard let first else { return generic + " (none is in the calendar now)" }
        return "\"\(first.title)\" \(dates.format.instant(first.start)), the next event still to come,"
    }

    /// What a step that takes every matching event out of the calendar asks before it runs.
    static func clearingQuestion(_ args: [String: JSONValue]) -> String {
        let on = text(args["on"]), until = text(args["until"])
        let when = on.map { d in until.map { " from \(d) to \($0)" } ?? " on \(d)" } ?? ""
        let called = text(args["title"]).map { " called \"\($0)\"" } ?? ""
        return "take every event\(called)\(when) out of PocketBrains' calendar? (other calendars are only read)"
    }

    // MARK: - Text helpers

    /// A note's words for R1: lowercased, every run of white space one space.
    static func noteKey(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A string argument as the user wrote it ("$$5" is "$5"); nil for a reference or a non-string.
    /// An id as written: a string that is not a step reference, or a whole number.
    static func reference(_ value: JSONValue?) -> String? {
        if case .number(let n)? = value { return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }
        return text(value)
    }

    static func text(_ value: JSONValue?) -> String? {
        guard case .string(let s)? = value else { return nil }
        if s.hasPrefix("$$") { return String(s.dropFirst()) }
        return StepReference(s) == nil ? s : nil
    }

    /// Every word of `words` was said, or all but one of three or more (a plural, a typo).
    static func grounded(_ words: [String], in said: Set<String>) -> Bool {
        let missing = words.filter { !said.contains($0) }
        return missing.isEmpty || (words.count >= 3 && missing.count <= 1)
    }

    /// A message's words: three quarters of them said (a model may turn "I" into "you").
    static func mostlyGrounded(_ words: [String], in said: Set<String>) -> Bool {
        guard !words.isEmpty else { return true }
        return Double(words.filter { said.contains($0) }.count) >= 0.75 * Double(words.count)
    }

    /// Year, month and day of a written value exist on the calendar, and the whole value parses.
    func exists(_ value: String) -> Bool {
        guard dates.format.parseInstant(value) != nil else { return false }
        let parts = value.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return false }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = dates.parser.timeZone
        guard let first = cal.date(from: DateComponents(year: parts[0], month: parts[1], day: 1)),
              let days = cal.range(of: .day, in: .month, for: first) else { return false }
        return days.contains(parts[2])
    }

    /// One run over a plan's steps.
    struct Pass {
        let owner: PlanReconciler
        let request: String
        let capture: Bool
        let steps: [PlanStep]
        /// Proposals naming a tool there is none of, by their number: R5 rejects each in its place.
        let unknownTools: [ProposedStep]
        /// How many steps were proposed, known tools or not.
        let proposals: Int
        let said: Set<String>
        /// The request's date phrases: their first and last days, and the value as the tools write it.
        let phrases: [(first: String, last: String, value: String, timed: Bool, primary: Bool)]
        let hasPriorityCue: Bool
        var rules = ReconciliationRule.all
        var reviews: [PlanReview] = []
        /// Kept steps by their number in the proposal.
        var kept: [(n: Int, step: PlanStep)] = []
        var rejected: Set<Int> = []
        var mergedInto: [Int: Int] = [:]
        var firedOn: [Int: [ReconciliationRule.ID]] = [:]
        /// Questions the plan must ask before it writes (its `confirm`).
        var questions: [String] = []

        init(owner: PlanReconciler, request: String, capture: Bool, steps: [PlanStep], unknownTools: [ProposedStep] = []) {
            self.owner = owner
            self.request = request
            self.capture = capture
            self.steps = steps
            self.unknownTools = unknownTools
            proposals = steps.count + unknownTools.count
            // A verb said in the past ("tidied the garage") is grounded in its lemma ("tidy"), which
            // the grammar writes into a completion's title; irregular pasts ("wrote") likewise.
            var said = Set(TitleMatcher.contentWords(request))
            for w in request.lowercased().split(whereSeparator: { !$0.isLetter }) {
                if let lemma = VerbLexicon.pastLemma(String(w)) { said.insert(TitleMatcher.stem(lemma)) }
            }
            self.said = said
            let format = owner.dates.format
            var found: [(String, String, String, Bool, Bool)] = []
            for m in owner.dates.parser.matches(in: request) where m.error == nil {
                guard let v = m.value else { continue }
                let timed = m.grain == .hour || m.grain == .minute
                let last = m.valueEnd.map { format.date($0.addingTimeInterval(-1)) } ?? format.date(v)
                found.append((format.date(v), max(last, format.date(v)), format.value(v, grain: m.grain), timed, true))
                for a in m.alternatives {
                    let aLast = a.end.map { format.date($0.addingTimeInterval(-1)) } ?? format.date(a.value)
                    found.append((format.date(a.value), max(aLast, format.date(a.value)), format.value(a.value, grain: a.grain),
                                  a.grain == .hour || a.grain == .minute, false))
                }
                if m.recurrence != nil { found.append(("0000-01-01", "9999-12-31", format.value(v, grain: m.grain), timed, false)) }
            }
            // "remind me two days before the dentist on friday": a due counted back from a date said.
            let ahead = ClausePattern.shared.regex(#"\b"# + DateSlot.aheadOf)
            let ns = request as NSString
            if let m = ahead.firstMatch(in: request, range: NSRange(location: 0, length: ns.length)),
               let back = owner.dates.countBack(ns.substring(with: m.range(at: 1)), sign: ns.substring(with: m.range(at: 2)).lowercased() == "after" ? 1 : -1) {
                for p in found where p.4 {
                    guard let v = format.parseInstant(p.2) else { continue }
                    let d = back(v)
                    found.append((format.date(d), format.date(d), format.value(d, grain: .minute), true, false))
                }
            }
            phrases = found
            hasPriorityCue = ClausePattern.shared.contains(PlanReconciler.priorityCues, request.lowercased())
        }

        mutating func change(_ id: ReconciliationRule.ID, _ text: String, step n: Int) {
            if let i = rules.firstIndex(where: { $0.id == id }) { rules[i].changes.append(text) }
            if !(firedOn[n] ?? []).contains(id) { firedOn[n, default: []].append(id) }
        }

        mutating func run() {
            var unknown = unknownTools.sorted { $0.n < $1.n }[...]
            for (i, step) in steps.enumerated() {
                let n = step.n > 0 ? step.n : i + 1
                while let u = unknown.first, u.n < n {
                    refuse(u)
                    unknown = unknown.dropFirst()
                }
                var s = step
                s.n = n
                let outcome = check(&s)
                let fired = firedOn[n] ?? []
                switch outcome {
                case .reject:
                    rejected.insert(n)
                    reviews.append(PlanReview(proposal: n, tool: s.tool.rawValue, outcome: .rejected, rules: fired))
                case .merged(let into):
                    rejected.insert(n)
                    mergedInto[n] = into
                    reviews.append(PlanReview(proposal: n, tool: s.tool.rawValue, outcome: .rejected, rules: fired))
                case .keep:
                    kept.append((n, s))
                    reviews.append(PlanReview(proposal: n, tool: s.tool.rawValue, outcome: fired.isEmpty ? .accepted : .modified, rules: fired))
                }
            }
            unknown.forEach { refuse($0) }
            if capture { priorityFloor() }
            // Steps are numbered after all rules ran: the review says which step each became.
            for (index, k) in kept.enumerated() {
                if let r = reviews.firstIndex(where: { $0.proposal == k.n }) { reviews[r].step = index + 1 }
            }
        }

        /// R5: a proposal naming a tool there is none of.
        mutating func refuse(_ u: ProposedStep) {
            let label = u.title.map { "step \(u.n) \"\($0)\"" } ?? "step \(u.n) (\(u.tool))"
            change(.admissible, "\(label): no tool is called \(u.tool); rejected", step: u.n)
            rejected.insert(u.n)
            reviews.append(PlanReview(proposal: u.n, tool: u.tool, outcome: .rejected, rules: firedOn[u.n] ?? []))
        }

        enum Outcome { case keep, reject, merged(Int) }

        func label(_ s: PlanStep) -> String {
            if let t = PlanReconciler.text(s.args["title"]) { return "step \(s.n) \"\(t)\"" }
            return "step \(s.n) (\(s.tool))"
        }

        mutating func check(_ s: inout PlanStep) -> Outcome {
            // A step built on a rejected one falls with it; one built on a merged repeat uses the kept one.
            for r in StepReference.all(in: .object(s.args)) {
                guard let k = r.step else { continue }
                if k >= s.n || k < 1 || k > proposals {
                    change(.admissible, "\(label(s)): refers to step \(k), which does not come before it; rejected", step: s.n)
                    return .reject
                }
                if rejected.contains(k), mergedInto[k] == nil {
                    let id = firedOn[k]?.first ?? .admissible
                    change(id, "\(label(s)): depends on step \(k), which was rejected; rejected", step: s.n)
                    return .reject
                }
            }
            if !admissible(&s) { return .reject }
            if !clauseEcho(s) { return .reject }
            if !grounding(&s) { return .reject }
            location(&s)
            if !validDates(&s) { return .reject }
            if !temporal(&s) { return .reject }
            if !targetGrounding(s) { return .reject }
            if let into = dedupe(s) { return into < 0 ? .reject : .merged(into) }
            return .keep
        }

        // R5
        mutating func admissible(_ s: inout PlanStep) -> Bool {
            guard s.tool.takesBackATurn || owner.registry.tool(named: s.tool) != nil else {
                change(.admissible, "\(label(s)): no tool is called \(s.tool); rejected", step: s.n)
                return false
            }
            if capture, !s.tool.capture {
                change(.admissible, "\(label(s)): a capture makes new items, and \(s.tool) would change what is there; rejected", step: s.n)
                return false
            }
            guard let tool = owner.registry.tool(named: s.tool) else { return true }
            let known = Set(tool.arguments.map(\.name))
            for key in s.args.keys.sorted() where !known.contains(key) {
                s.args[key] = nil
                change(.admissible, "\(label(s)): \(s.tool) takes no argument \(key); dropped", step: s.n)
            }
            for a in tool.arguments where a.required {
                if s.args[a.name] == nil || s.args[a.name] == .null {
                    change(.admissible, "\(label(s)): \(s.tool) needs \(a.name); rejected", step: s.n)
                    return false
                }
            }
            return true
        }

        // R7
        mutating func clauseEcho(_ s: PlanStep) -> Bool {
            // A note of nothing ("this", "a note"): a stand-in for what it was to say.
            if s.tool == .createNote, s.args["title"] != nil || s.args["body"] != nil,
               let said = PlanReconciler.text(s.args["body"]) ?? PlanReconciler.text(s.args["title"]),
               PlanReconciler.text(s.args["body"]).map({ IntentGrammar.standIn(title: $0, tool: .createNote) != nil }) ?? true,
               IntentGrammar.standIn(title: said, tool: .createNote) != nil {
                change(.clauseEcho, "\(label(s)): a stand-in (\"this\", \"a note\"), not what the note says; rejected", step: s.n)
                return false
            }
            guard s.tool.namesNewItem, let title = PlanReconciler.text(s.args["title"]) else { return true }
            let lower = title.lowercased().trimmingCharacters(in: .whitespaces)
            let first = lower.split(separator: " ").first.map(String.init) ?? ""
            if PlanReconciler.questionStarts.contains(first) || lower.hasSuffix("?") {
                change(.clauseEcho, "\(label(s)): a question, not a thing to do; rejected", step: s.n)
                return false
            }
            if ClausePattern.shared.contains(PlanReconciler.boilerplate, lower) {
                change(.clauseEcho, "\(label(s)): the wording around a list, not an item of it; rejected", step: s.n)
                return false
            }
            if IntentGrammar.standIn(title: title, tool: s.tool) != nil,
               !Planner.quotes(request, PlannedIntent(s.tool, ["title": .string(title)])) {
                change(.clauseEcho, "\(label(s)): a stand-in (\"an item\", \"a new list\"), not a name; rejected", step: s.n)
                return false
            }
            let words = Set(TitleMatcher.contentWords(title))
            let others = steps.filter { $0.n != s.n && $0.tool.namesNewItem }
                .compactMap { PlanReconciler.text($0.args["title"]) }.map { Set(TitleMatcher.contentWords($0)) }
                .filter { !$0.isEmpty && $0 != words }
            if others.filter({ $0.isSubset(of: words) }).count >= 2 {
                change(.clauseEcho, "\(label(s)): repeats other steps of the plan together; rejected", step: s.n)
                return false
            }
            if !others.isEmpty, words == said, said.count >= 4 {
                change(.clauseEcho, "\(label(s)): the whole request again; rejected", step: s.n)
                return false
            }
            return true
        }

        // R6
        mutating func grounding(_ s: inout PlanStep) -> Bool {
            // A new item's name, and the item a command acts on, are words of the request: a
            // model that names something else made it up (or means an item nobody asked about).
            if let title = PlanReconciler.text(s.args["title"]) {
                let words = TitleMatcher.contentWords(title)
                if !PlanReconciler.grounded(words, in: said) {
                    let missing = words.filter { !said.contains($0) }
                    change(.grounding, "\(label(s)): \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) not in the request; rejected", step: s.n)
                    return false
                }
            }
            if s.tool == .draftMessage {
                if let to = PlanReconciler.text(s.args["to"]), !PlanReconciler.grounded(TitleMatcher.contentWords(to), in: said) {
                    change(.grounding, "\(label(s)): the request names no \"\(to)\"; rejected", step: s.n)
                    return false
                }
                for key in ["text", "subject"] {
                    if let t = PlanReconciler.text(s.args[key]), !PlanReconciler.mostlyGrounded(TitleMatcher.contentWords(t), in: said) {
                        change(.grounding, "\(label(s)): the message's \(key) is not the request's words; rejected", step: s.n)
                        return false
                    }
                }
            }
            // A project by reference is no words of anyone's: it stands when the store holds it.
            if s.tool == .createTask, let p = PlanReconciler.text(s.args["project"]),
               !PlanReconciler.grounded(TitleMatcher.contentWords(p), in: said),
               !(ItemRef(p)?.kind == .project && (owner.targets.map { $0.projects.contains { $0.ref == ItemRef(p)?.description } } ?? true)) {
                s.args["project"] = nil
                change(.grounding, "\(label(s)): project \"\(p)\" not in the request; dropped", step: s.n)
            }
            if case .array(let people)? = s.args["attendees"] {
                let keep = people.filter { v in
                    guard let p = PlanReconciler.text(v) else { return true }
                    return PlanReconciler.grounded(TitleMatcher.contentWords(p), in: said)
                }
                if keep.count != people.count {
                    let gone = people.filter { !keep.contains($0) }.compactMap(\.stringValue)
                    s.args["attendees"] = keep.isEmpty ? nil : .array(keep)
                    change(.grounding, "\(label(s)): attendee \(gone.map { "\"\($0)\"" }.joined(separator: ", ")) not in the request; dropped", step: s.n)
                }
            }
            if s.args["priority"] != nil, !hasPriorityCue {
                if s.tool == .setPriority {
                    change(.grounding, "\(label(s)): the request asks for no priority; rejected", step: s.n)
                    return false
                }
                s.args["priority"] = nil
                change(.grounding, "\(label(s)): the request asks for no priority; dropped", step: s.n)
            }
            for key in ["due", "start"] {
                guard let v = PlanReconciler.text(s.args[key]), owner.exists(v) else { continue }
                let day = String(v.prefix(10))
                if phrases.contains(where: { $0.first <= day && day <= $0.last }) { continue }
                let timedOnly = key == "start"
                // Only a phrase's first reading replaces a date (another reading is a guess).
                let candidates = phrases.filter { $0.primary && (!timedOnly || $0.timed) }
                if candidates.count == 1 {
                    s.args[key] = .string(candidates[0].value)
                    change(.grounding, "\(label(s)): \(key) \(v) is no date of the request; set to \(candidates[0].value)", step: s.n)
                } else if key == "start" {
                    change(.grounding, "\(label(s)): start \(v) is no time of the request; rejected", step: s.n)
                    return false
                } else {
                    s.args[key] = nil
                    s.args["due_grain"] = nil
                    change(.grounding, "\(label(s)): \(key) \(v) is no date of the request; dropped", step: s.n)
                }
            }
            return true
        }

        // R8
        mutating func location(_ s: inout PlanStep) {
            guard let place = PlanReconciler.text(s.args["location"]) else { return }
            let words = TitleMatcher.contentWords(place)
            var why: String?
            if words.isEmpty {
                why = "names no place"
            } else if !PlanReconciler.grounded(words, in: said) {
                why = "is not in the request"
            } else if let m = owner.dates.parser.matches(in: place).first, m.end - m.start >= place.utf8.count / 2 {
                why = "is a time, not a place"
            } else if case .array(let people)? = s.args["attendees"],
                      people.compactMap(\.stringValue).contains(where: { $0.lowercased() == place.lowercased() }) {
                why = "is a person coming, not a place"
            }
            if let why {
                s.args["location"] = nil
                change(.location, "\(label(s)): location \"\(place)\" \(why); dropped", step: s.n)
            }
        }

        // R2
        mutating func validDates(_ s: inout PlanStep) -> Bool {
            if s.tool == .createTask, let notes = PlanReconciler.text(s.args["notes"]), notes.hasPrefix("date left out: ") {
                change(.dateValidation, "\(label(s)): \(notes.dropFirst("date left out: ".count))", step: s.n)
            }
            var keys = ["due", "start", "end"]
            if s.tool == .findSlot || s.tool == .calendarAgenda { keys += ["from", "to"] }
            for key in keys {
                guard let v = PlanReconciler.text(s.args[key]), !owner.exists(v) else { continue }
                if s.tool == .schedule || s.tool == .rescheduleTask {
                    change(.dateValidation, "\(label(s)): \(key) \(v) is not a date on the calendar; rejected", step: s.n)
                    return false
                }
                s.args[key] = nil
                if key == "due" { s.args["due_grain"] = nil }
                change(.dateValidation, "\(label(s)): \(key) \(v) is not a date on the calendar; dropped", step: s.n)
            }
            return true
        }

        // R3
        mutating func temporal(_ s: inout PlanStep) -> Bool {
            let now = owner.dates.parser.now
            let today = owner.dates.format.date(now)
            if [.createTask, .rescheduleTask, .updateTask].contains(s.tool), let due = PlanReconciler.text(s.args["due"]),
               String(due.prefix(10)) < today {
                s.args["due"] = .string(today)
                s.args["due_grain"] = .string("day")
                change(.pastDates, "\(label(s)): \(due) is past, moved to \(today)", step: s.n)
            }
            // An event already over is not moved (a day later is another appointment) and not
            // dropped (it may be a record of one): the plan asks before it books it.
            if s.tool == .schedule, let start = PlanReconciler.text(s.args["start"]),
               let at = owner.dates.format.parseInstant(start), at < now {
                change(.pastDates, "\(label(s)): \(start) is past; asked before booking", step: s.n)
                questions.append("\(label(s)) starts at \(start), which is past: book it anyway?")
            }
            return true
        }

        // R9: a step that changes an item already there must name one the store holds: by a
        // reference (task:3, $1), or by a title that fits one exactly or nearly (TitleMatcher, as
        // pb-exec will look it up; a loose or ambiguous fit is left to pb-exec, which asks back).
        // A remark ("I saw a bulldog today") read as a completion, or a request about something
        // the store never held, changes nothing. An empty store (a new user) holds nothing a
        // title could name, so there every such step is rejected with the reason: a plan that
        // would change nothing says so when it is read, not only when pb-exec fails on it.
        // `pb-plan --no-store` (a grammar test, or a plan for another store) checks nothing.
        mutating func targetGrounding(_ s: PlanStep) -> Bool {
            guard let store = owner.targets else { return true }
            // Whether an undo is left to take back is pb-exec's to say: the plan reads no undos.
            if s.tool == .redo { return true }
            if s.tool == .undo {
                if store.canUndo { return true }
                change(.target, "\(label(s)): no turn is left to undo; rejected", step: s.n)
                return false
            }
            var named: [(key: String, kind: String, items: [TitleMatcher.Candidate])] = []
            if s.tool.changesTask {
                if s.args["id"] == nil { named.append(("title", "task", store.tasks)) }
                if let list = PlanReconciler.text(s.args["in_project"]), ItemRef(list) == nil,
                   !store.projects.contains(where: { Planner.titleKey($0.title) == Planner.titleKey(list) }) {
                    change(.target, "\(label(s)): no list in the store is called \"\(list)\"; rejected", step: s.n)
                    return false
                }
            } else if s.tool == .addDependency {
                named += [("task", "task", store.tasks), ("blocked_by", "task", store.tasks)]
            } else if s.tool == .completeMilestone {
                if s.args["id"] == nil { named.append(("title", "milestone", store.milestones)) }
            } else if s.tool == .deleteProject || s.tool == .clearProject {
                if s.args["id"] == nil { named.append(("title", "project", store.projects)) }
            } else if s.tool == .appendNote {
                if s.args["id"] == nil { named.append(("title", "note", store.notes)) }
            } else if s.tool == .cancelEvent, s.args["all"] != .bool(true) {
                named.append(("title", "event", store.events))
                if let uid = PlanReconciler.text(s.args["uid"]), !store.events.contains(where: { $0.ref == uid }) {
                    change(.target, "\(label(s)): no event of PocketBrains' calendar has uid \(uid); rejected", step: s.n)
                    return false
                }
            } else if s.tool == .linkItems {
                let all = store.tasks + store.projects + store.milestones + store.notes
                named += [("from", "item", all), ("to", "item", all)]
            }
            // An id (task:3, or a bare 3) must be one the store holds: a plan made elsewhere (a
            // model's, a script's) can name any number, and pb-exec would change whatever it is.
            let all = store.tasks + store.projects + store.milestones + store.notes
            let idKind: ItemRef.Kind? = s.tool.changesTask ? .task
                : s.tool == .completeMilestone ? .milestone : s.tool == .appendNote ? .note : s.tool == .deleteProject || s.tool == .clearProject ? .project : nil
            var ids: [(key: String, raw: String, kind: ItemRef.Kind?)] = []
            if let kind = idKind, let raw = PlanReconciler.reference(s.args["id"]) { ids.append(("id", raw, kind)) }
            for (key, _, _) in named {
                if let raw = PlanReconciler.text(s.args[key]), ItemRef(raw) != nil { ids.append((key, raw, nil)) }
            }
            for (key, raw, kind) in ids {
                let ref = ItemRef(raw, defaultKind: kind)
                if ref == nil || (kind != nil && ref?.kind != kind) || !all.contains(where: { $0.ref == ref?.description }) {
                    change(.target, "\(label(s)): no \(kind?.rawValue ?? "item") in the store is \(key) \(raw); rejected", step: s.n)
                    return false
                }
            }
            for (key, kind, items) in named {
                guard let text = PlanReconciler.text(s.args[key]), ItemRef(text) == nil else { continue }
                if TitleMatcher(preferOpen: s.tool != .reopenTask).match(text, in: items) == .none {
                    change(.target, "\(label(s)): no \(kind) in the store is \"\(text)\"; rejected", step: s.n)
                    return false
                }
                // A whole list goes, or is emptied, only by its whole name, as pb-exec holds it to.
                if [.deleteProject, .clearProject].contains(s.tool), key == "title",
                   !items.contains(where: { Planner.titleKey($0.title) == Planner.titleKey(text) }) {
                    change(.target, "\(label(s)): no project in the store is called \"\(text)\" (a list goes only by its whole name); rejected", step: s.n)
                    return false
                }
            }
            return true
        }

        // R1: nil to keep, -1 when already open in the store, else the step it merged into.
        mutating func dedupe(_ s: PlanStep) -> Int? {
            if s.tool == .createNote { return dedupeNote(s) }
            guard s.tool == .createTask, let title = PlanReconciler.text(s.args["title"]) else { return nil }
            let key = Set(TitleMatcher.contentWords(title))
            guard !key.isEmpty else { return nil }
            // A capture never adds an open task again. A single request does not either, unless it
            // gives a due on another day than the open one's (a second occurrence, said on purpose).
            // A single request's title must be the open task's as said, articles aside ("drive mum
            // from the airport" is not "drive mum to the airport"); a capture's, its content words.
            // After a step that empties or deletes a list, an open task may be one it takes away
            // ("clear my shopping list and add milk"): the new one is added.
            let emptied = kept.contains { [.clearProject, .deleteProject].contains($0.step.tool) }
            if !emptied, let open = owner.openTasks.first(where: {
                capture ? Set(TitleMatcher.contentWords($0.text)) == key : Planner.titleKey($0.text) == Planner.titleKey(title)
            }), capture || sameDay(s.args["due"], owner.targets?.dues[open.ref]) {
                change(.dedupe, "\(label(s)): already open as \(open.ref) \"\(open.text)\"; not added again", step: s.n)
                return -1
            }
            guard capture else { return nil }
            let rank = ["none": 0, "low": 1, "medium": 2, "high": 3]
            for (i, k) in kept.enumerated() where k.step.tool == .createTask {
                guard let t = PlanReconciler.text(k.step.args["title"]), Set(TitleMatcher.contentWords(t)) == key else { continue }
                // The first stays; it takes the other's date when it has none, and the higher priority.
                var step = k.step
                if step.args["due"] == nil, let due = s.args["due"] {
                    step.args["due"] = due
                    step.args["due_grain"] = s.args["due_grain"]
                }
                if let p = s.args["priority"]?.stringValue, rank[p] ?? 0 > rank[step.args["priority"]?.stringValue ?? "none"] ?? 0 {
                    step.args["priority"] = .string(p)
                }
                kept[i].step = step
                change(.dedupe, "\(label(s)): the same as step \(k.n); merged into it", step: s.n)
                if step != k.step, !(firedOn[k.n] ?? []).contains(.dedupe) { firedOn[k.n, default: []].append(.dedupe) }
                if let r = reviews.firstIndex(where: { $0.proposal == k.n }), step != k.step {
                    reviews[r].outcome = .modified
                    if !reviews[r].rules.contains(.dedupe) { reviews[r].rules.append(.dedupe) }
                }
                return k.n
            }
            return nil
        }

        /// Whether a new task's due (nil: none said) falls on the open task's day, or no day was said.
        func sameDay(_ due: JSONValue?, _ open: String?) -> Bool {
            guard let said = PlanReconciler.text(due) else { return true }
            guard let open else { return false }
            let zone = owner.dates.parser.timeZone
            guard let a = ISOMoment.parse(said, zone: zone), let b = ISOMoment.parse(open, zone: zone) else { return false }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.isDate(a.date, inSameDayAs: b.date)
        }

        // R1 for notes: the same words (case and spacing aside) already saved, or earlier in the
        // plan. A note is not merged into another: one copy is enough.
        mutating func dedupeNote(_ s: PlanStep) -> Int? {
            guard let body = PlanReconciler.text(s.args["body"]) else { return nil }
            let key = PlanReconciler.noteKey(body)
            guard !key.isEmpty else { return nil }
            if let saved = owner.savedNotes.first(where: { PlanReconciler.noteKey($0.text) == key }) {
                change(.dedupe, "\(label(s)): already saved as \(saved.ref); not added again", step: s.n)
                return -1
            }
            for k in kept where k.step.tool == .createNote {
                guard let b = PlanReconciler.text(k.step.args["body"]), PlanReconciler.noteKey(b) == key else { continue }
                change(.dedupe, "\(label(s)): the same note as step \(k.n); merged into it", step: s.n)
                return k.n
            }
            return nil
        }

        // R4
        mutating func priorityFloor() {
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = owner.dates.parser.timeZone
            let tomorrow = owner.dates.format.date(cal.date(byAdding: .day, value: 1, to: owner.dates.parser.now)!)
            for (i, k) in kept.enumerated() where k.step.tool == .createTask && k.step.args["priority"] == nil {
                guard let due = PlanReconciler.text(k.step.args["due"]), String(due.prefix(10)) <= tomorrow else { continue }
                kept[i].step.args["priority"] = .string("medium")
                change(.priorityFloor, "\(label(k.step)): due \(due), priority raised to medium", step: k.n)
                if let r = reviews.firstIndex(where: { $0.proposal == k.n }) {
                    reviews[r].outcome = .modified
                    if !reviews[r].rules.contains(.priorityFloor) { reviews[r].rules.append(.priorityFloor) }
                }
            }
        }

        /// Kept steps numbered 1, 2, ... with every `$N` pointing at the new numbers.
        func renumbered() -> [PlanStep] {
            var number: [Int: Int] = [:]
            for (i, k) in kept.enumerated() { number[k.n] = i + 1 }
            for (from, to) in mergedInto { number[from] = number[to] }
            func rewrite(_ v: JSONValue) -> JSONValue {
                switch v {
                case .string(let s):
                    guard let r = StepReference(s), let k = r.step, let new = number[k] else { return v }
                    return .string("$\(new)" + (r.field.map { "." + $0 } ?? ""))
                case .array(let a): return .array(a.map(rewrite))
                case .object(let o): return .object(o.mapValues(rewrite))
                default: return v
                }
            }
            return kept.enumerated().map { i, k in
                PlanStep(n: i + 1, tool: k.step.tool, args: k.step.args.mapValues(rewrite))
            }
        }
    }
}
