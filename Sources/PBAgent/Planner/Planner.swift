import Foundation
import PBCore

/// Turns a request into a `plan` record: splits it into clauses, reads each with the intent
/// grammar, numbers the steps, resolves pronouns and project filing to `$N` references, and
/// reconciles new tasks. A multi-line or rambling dump is read as a capture instead (one step per
/// actionable item, the rest one note). Deterministic for a given text and now.
public struct Planner: Sendable {
    public let dates: DateSlot
    public let grammar: IntentGrammar
    public let splitter: ClauseSplitter
    public let reconciler: CaptureReconciler

    public init(parser: NaturalDateParser) {
        dates = DateSlot(parser: parser)
        grammar = IntentGrammar(dates: dates)
        splitter = ClauseSplitter(grammar: grammar)
        reconciler = CaptureReconciler(dates: dates)
    }

    /// A request is a capture dump when it has several lines or three or more sentences.
    public func looksLikeDump(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        if lines.count > 1 { return true }
        return splitter.sentences(text).count >= 3
    }

    public func plan(_ text: String, capture: Bool? = nil) -> PlanRecord {
        if capture ?? looksLikeDump(text) { return capturePlan(text) }
        var intents: [PlannedIntent] = []
        var missed: [String] = []
        for (clause, scope) in splitter.scopedSplit(text) {
            if let found = grammar.parse(clause) {
                intents += found.map { var i = $0; i.scope = scope; return i }
            } else {
                missed.append(clause)
            }
        }
        if intents.isEmpty { return fallback(text) }
        let (reconciled, rules) = reconciler.reconcile(intents, capture: false)
        var (record, unresolved) = numbered(text, reconciled, source: "grammar")
        if record.steps.isEmpty {
            var r = fallback(text)
            r.extra["message"] = .string((unresolved + ["nothing left to plan"]).joined(separator: "; "))
            return r
        }
        let fired = rules.filter { !$0.changes.isEmpty }
        if !fired.isEmpty { record.rules = .array(fired.map(\.json)) }
        let notes = missed.map { "not understood: \"\($0)\"" } + unresolved
        if !notes.isEmpty { record.extra["message"] = .string(notes.joined(separator: "; ")) }
        return record
    }

    /// Seed 004: one step per actionable item; everything else, in order, as one note.
    public func capturePlan(_ text: String) -> PlanRecord {
        var intents: [PlannedIntent] = []
        var rest: [String] = []
        for item in CaptureLines.items(of: text) {
            if item.heading {
                rest.append(item.text)
                continue
            }
            for sentence in splitter.sentences(item.text) {
                var kept: [String] = []
                for clause in splitter.clauses(sentence) {
                    if let found = actionable(clause) {
                        intents += found
                    } else {
                        kept.append(clause)
                    }
                }
                if !kept.isEmpty {
                    // Keep the sentence as written when none of it was taken.
                    rest.append(kept.count == splitter.clauses(sentence).count ? sentence : kept.joined(separator: "; "))
                }
            }
        }
        let (reconciled, rules) = reconciler.reconcile(intents, capture: true)
        var all = reconciled
        if !rest.isEmpty {
            all.append(PlannedIntent(.createNote, ["body": .string(rest.joined(separator: "\n")), "tags": .array([.string("capture")])]))
        }
        if all.isEmpty { return fallback(text) }
        var (record, unresolved) = numbered(text, all, source: "capture")
        record.rules = .array(rules.map(\.json))
        if !unresolved.isEmpty { record.extra["message"] = .string(unresolved.joined(separator: "; ")) }
        return record
    }

    /// The new tasks a captured clause asks for, also behind a label ("Weekend: clean the car").
    func actionable(_ clause: String) -> [PlannedIntent]? {
        let tasks: Set<PlannerTool> = [.createTask, .setRecurrence]
        if let found = grammar.parse(clause), found.allSatisfy({ tasks.contains($0.tool) }) { return found }
        if let m = ClausePattern.shared.match(#"(?!(?:idea|note|thought|memo|fyi)\b)\p{L}[\p{L}\d ]{0,24}:\s*(.+)"#, clause),
           let found = grammar.parse(m[0]), found.allSatisfy({ tasks.contains($0.tool) }) {
            return found
        }
        // Meeting notes: "Greta will plan the work day", "Sam needs to send the deck".
        if let m = ClausePattern.shared.match(#"\p{Lu}\p{L}+(?: and \p{Lu}\p{L}+)? (?:will|is going to|are going to|needs to|need to|has to|have to|should|must|to) (.+)"#, clause),
           let verb = m[0].split(separator: " ").first.map({ $0.lowercased() }), VerbLexicon.taskVerbs.contains(verb),
           let found = grammar.parse(m[0]), found.allSatisfy({ tasks.contains($0.tool) }) {
            return found
        }
        return nil
    }

    /// The honest answer when no rule read the request: a plan with no steps that says so.
    public func fallback(_ text: String) -> PlanRecord {
        var r = PlanRecord(text: text, now: dates.format.instant(dates.parser.now), steps: [], source: "fallback")
        r.extra["message"] = .string("nothing matched: no rule of the grammar reads this request; try \"remind me to ...\", a command such as \"reschedule X to friday\", or a question such as \"what's due today?\"")
        return r
    }

    /// Numbers the intents into steps. Pronouns become `$N` (an item made earlier in the plan) or
    /// the title of the item the request is about; tasks after "create project" are filed into it.
    func numbered(_ text: String, _ intents: [PlannedIntent], source: String) -> (PlanRecord, [String]) {
        var steps: [PlanStep] = []
        var unresolved: [String] = []
        var subject: (title: String?, step: Int?)? = nil
        var projectStep: Int?
        var projectScope: Int?
        var filed = 0
        for intent in intents {
            var args = intent.args
            let n = steps.count + 1
            if intent.pronoun, let key = intent.referenceArgument {
                if key == "project", let p = projectStep {
                    args["project"] = .string("$\(p)")
                } else if let s = subject?.step {
                    args[key == "title" ? "id" : key] = .string("$\(s)")
                } else if let title = subject?.title {
                    args[key] = .string(title)
                } else {
                    unresolved.append("could not tell what \"it\" means in a \(intent.tool.rawValue) step; left out")
                    continue
                }
            }
            // A new part of the request ("..., then ...") still files into the project when the
            // project has no tasks yet ("create project Move, then remind me to book the van"),
            // but not once its own tasks were listed ("add 2 tasks: a and b, then call Mom").
            if intent.tool == .createTask, args["project"] == nil, let p = projectStep,
               intent.scope == projectScope || filed == 0 {
                args["project"] = .string("$\(p)")
                projectScope = intent.scope
                filed += 1
            }
            steps.append(PlanStep(n: n, tool: intent.tool.rawValue, args: args))
            if intent.tool.createsItem {
                subject = (intent.subject, n)
            } else if let s = intent.subject {
                subject = (s, nil)
            }
            if intent.tool == .createProject { projectStep = n; projectScope = intent.scope; filed = 0 }
        }
        let record = PlanRecord(text: text, now: dates.format.instant(dates.parser.now), steps: steps, source: source)
        return (record, unresolved)
    }
}
