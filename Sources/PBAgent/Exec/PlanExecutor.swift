import Foundation
import PBCore

/// Runs plans: one transaction and one journal group per plan. Each step runs inside a savepoint:
/// its references are resolved, the tool runs, its postcondition is checked, and its inverse is
/// journaled. The first failed step is rolled back to its savepoint (its own writes and journal
/// entry vanish), the remaining steps are skipped, and the steps before it stay, undoable as the
/// plan's group. With `dryRun` the whole transaction is rolled back at the end.
public struct PlanExecutor {
    public let store: AgentStore
    public var registry: ToolRegistry
    public var calendarDirectory: String?
    /// PB_WORK_HOURS, for find_slot.
    public var workHours: String?
    /// PB_CONTACTS and PB_FROM, for the contact and draft tools.
    public var contactsPath: String?
    public var from: String?
    public var dryRun: Bool
    /// Runs plans that ask first (`confirm`) for real (pb-exec --yes); else they run as dry runs.
    public var confirmed = false
    /// The `now` for plans that carry none (nil: the current time).
    public var defaultNow: String?

    public init(store: AgentStore, registry: ToolRegistry = .standard, calendarDirectory: String? = nil, dryRun: Bool = false, defaultNow: String? = nil) {
        self.store = store
        self.registry = registry
        self.calendarDirectory = calendarDirectory
        self.dryRun = dryRun
        self.defaultNow = defaultNow
    }

    /// The plan's steps, numbered, once its shape is known to be right: every tool exists, step
    /// numbers increase, and references point only at earlier steps. Anything else is malformed.
    public func validate(_ plan: PlanRecord) throws -> [PlanStep] {
        // A plan that asks is waiting to be told what it acts on: steps beside the question would
        // run before it is answered.
        if plan.ask != nil, !plan.steps.isEmpty {
            throw RecordError.badField(name: "ask", reason: "a plan with an ask has no steps; answer it with a new request")
        }
        var steps: [PlanStep] = []
        var previous = 0
        for (i, var step) in plan.steps.enumerated() {
            if step.n == 0 { step.n = i + 1 }
            guard step.n > previous else {
                throw RecordError.badField(name: "steps[\(i)].n", reason: "step numbers must increase, got \(step.n) after \(previous)")
            }
            if step.tool.takesBackATurn {
                let does = step.tool == .undo ? "takes back the previous turn" : "takes back the last undo"
                guard plan.steps.count == 1 else {
                    throw RecordError.badField(name: "steps[\(i)].tool", reason: "\(step.tool.rawValue) \(does) and must be a plan's only step")
                }
                guard step.args.isEmpty else {
                    let use = step.tool == .undo ? "it reverts the last turn; use pb-undo for a group or an entry" : "it reapplies the last undone turn"
                    throw RecordError.badField(name: "steps[\(i)].args", reason: "\(step.tool.rawValue) takes no arguments (\(use))")
                }
                steps.append(step)
                previous = step.n
                continue
            }
            guard registry.tool(named: step.tool) != nil else {
                // ToolName's decoding already refuses a name there is no tool of; a registry
                // built without one of the tools is this.
                throw RecordError.badField(name: "steps[\(i)].tool", reason: "no tool '\(step.tool.rawValue)' in this registry (known: \(registry.names.map(\.rawValue).joined(separator: ", ")))")
            }
            for r in StepReference.all(in: .object(step.args)) {
                if let n = r.step, !steps.contains(where: { $0.n == n }) {
                    throw RecordError.badField(name: "steps[\(i)].args", reason: "$\(n) refers to a step that does not come before step \(step.n)")
                }
                if r.step == nil, steps.isEmpty {
                    throw RecordError.badField(name: "steps[\(i)].args", reason: "$last in the first step refers to nothing")
                }
            }
            previous = step.n
            steps.append(step)
        }
        if let now = plan.now ?? defaultNow {
            do { _ = try AgentClock(text: now) } catch {
                throw RecordError.badField(name: "now", reason: "expected an ISO 8601 date and time, got '\(now)'")
            }
        }
        return steps
    }

    public func execute(_ plan: PlanRecord) throws -> ResultRecord {
        let steps = try validate(plan)
        // A plan that asks before it writes ("schedule ... at the first free slot?") runs as a
        // dry run until it is confirmed: by pb-exec --yes or by the plan's own "confirmed": true.
        let asking = plan.confirm != nil && !confirmed && plan.confirmed != true
        let dryRun = self.dryRun || asking
        if steps.count == 1, steps[0].tool.takesBackATurn {
            return try takeBack(steps[0], of: plan, dryRun: dryRun)
        }
        let clock = try AgentClock(text: plan.now ?? defaultNow)
        store.clock = clock
        try store.begin()
        do {
            let run = try runSteps(steps, clock: clock, dryRun: dryRun)
            var result = ResultRecord(group: dryRun ? nil : run.group, text: plan.text, now: plan.now ?? defaultNow,
                                      status: run.failed == nil ? .ok : .failed, steps: run.results,
                                      undoable: !dryRun && run.group != nil,
                                      message: message(of: plan, run, asking: asking, dryRun: dryRun), dryRun: dryRun ? true : nil)
            result.extra = plan.carriedOn
            result.ask = plan.ask
            // The result must print before anything is committed: a change saved but reported as
            // failed would be made again by a re-run.
            _ = try RecordCodec().encode(result)
            if dryRun { store.rollback() } else { try store.commit() }
            if !dryRun, run.group != nil {
                StatusSnapshot.refresh(store: store, clock: clock, calendarDirectory: calendarDirectory, workHours: workHours)
            }
            return result
        } catch {
            store.rollback()
            throw error
        }
    }

    /// "Undo that" reverts the last turn through the undo engine, all or nothing, so
    /// pb-plan | pb-exec can take back what the previous request did; "redo" reapplies the turn
    /// the last undo took back.
    private func takeBack(_ step: PlanStep, of plan: PlanRecord, dryRun: Bool) throws -> ResultRecord {
        var engine = UndoEngine(store: store)
        engine.calendarDirectory = calendarDirectory
        engine.workHours = workHours
        let clock = try AgentClock(text: plan.now ?? defaultNow)
        let u = step.tool == .redo ? try engine.redo(dryRun: dryRun, now: clock.now, zone: clock.zone)
                                   : try engine.undo(.last, dryRun: dryRun, now: clock.now, zone: clock.zone)
        let ok = u.status != .refused
        let summary = u.message + (u.problems.map { ": " + $0.joined(separator: "; ") } ?? "")
        // A redo's group is the new one, which undoes it.
        let group = u.redoGroup ?? u.group
        var result = StepResult(n: step.n, tool: step.tool, status: ok ? .ok : .failed,
                                ref: group.map { ["group": .string($0)] }, summary: ok ? summary : nil, error: ok ? nil : summary)
        result.data = .array(u.reverted.map { .object(["entry": .string($0.entry), "tool": .string($0.tool), "summary": .string($0.summary)]) })
        var record = ResultRecord(group: dryRun ? nil : u.redoGroup, text: plan.text, now: plan.now ?? defaultNow, status: ok ? .ok : .failed,
                                  steps: [result], undoable: !dryRun && u.redoGroup != nil, message: summary, dryRun: dryRun ? true : nil)
        record.extra = plan.carriedOn
        record.ask = plan.ask
        return record
    }

    /// What running a plan's steps came to, inside the store's open transaction.
    struct StepRun {
        var results: [StepResult] = []
        /// The steps that journaled a change.
        var wrote: [Int] = []
        var failed: (n: Int, tool: ToolName, error: String)?
        /// The journal group the changes went into; nil when nothing was written.
        var group: String?
    }

    /// Runs the steps in order, each in a savepoint: a step that fails has its own changes taken
    /// back and the steps after it are skipped; the steps before it stand.
    private func runSteps(_ steps: [PlanStep], clock: AgentClock, dryRun: Bool) throws -> StepRun {
        var run = StepRun()
        let groupID = try store.nextGroupID()
        var refs: [Int: [String: JSONValue]] = [:]
        var last: (n: Int, ref: [String: JSONValue])?
        for step in steps {
            if run.failed != nil {
                run.results.append(StepResult(n: step.n, tool: step.tool, status: .skipped))
                continue
            }
            try store.savepoint()
            do {
                let (outcome, entry) = try runStep(step, group: groupID, clock: clock, refs: refs, last: last)
                try store.releaseSavepoint()
                if entry != nil { run.group = groupID; run.wrote.append(step.n) }
                if let ref = outcome.ref {
                    refs[step.n] = ref
                    if ref["id"] != nil { last = (step.n, ref) }
                }
                run.results.append(StepResult(n: step.n, tool: step.tool, status: .ok, ref: outcome.ref, summary: outcome.summary,
                                              data: outcome.data, entry: dryRun ? nil : entry))
            } catch let refused as UnsafeInput {
                // Not a failed step but malformed input: nothing of the plan is kept.
                store.abandonEntry()
                throw ToolFailure(.badInput, "step \(step.n): \(step.tool): \(refused)")
            } catch {
                try undoFailedStep()
                let message = Self.describe(error)
                run.failed = (step.n, step.tool, message)
                run.results.append(StepResult(n: step.n, tool: step.tool, status: .failed, error: message))
            }
        }
        if let group = run.group { try store.claimGroupID(group) }
        return run
    }

    /// One step: its `$N` references resolved, the tool run and its postcondition checked, its
    /// change journaled in `group` (the entry's id, nil when it wrote nothing).
    private func runStep(_ step: PlanStep, group: String, clock: AgentClock, refs: [Int: [String: JSONValue]],
                         last: (n: Int, ref: [String: JSONValue])?) throws -> (ToolOutcome, String?) {
        guard let tool = registry.tool(named: step.tool) else { throw AgentError.badReference("no tool \(step.tool)") }
        let args = try StepReference.resolve(.object(step.args), refs: refs, last: last)
        guard case .object(let resolved) = args else { throw AgentError.badReference("arguments are not an object") }
        var ctx = ToolContext(store: store, clock: clock, calendarDirectory: calendarDirectory, args: resolved,
                              destructive: step.tool.destructive, workHours: workHours)
        ctx.contactsPath = contactsPath
        ctx.from = from
        store.beginEntry()
        let outcome = try tool.run(ctx)
        if let problem = try tool.check(ctx, outcome) { throw AgentError.postcondition(problem) }
        let entry = try store.finishEntry(group: group, tool: tool.name.rawValue, summary: outcome.summary)
        return (outcome, entry)
    }

    /// A failed step leaves nothing behind: its journal entry is dropped and the store goes back
    /// to the savepoint taken before it.
    private func undoFailedStep() throws {
        store.abandonEntry()
        try store.rollbackToSavepoint()
    }

    /// The result's message: the planner's own word first (why nothing matched, what it left out,
    /// what it asks), then what is in place, then, for a plan that asks first, how to go ahead.
    private func message(of plan: PlanRecord, _ run: StepRun, asking: Bool, dryRun: Bool) -> String {
        var message = Self.message(results: run.results, wrote: run.wrote, failed: run.failed, group: run.group, dryRun: dryRun)
        if asking, let question = plan.confirm, run.failed == nil {
            message = "asks first: \(question) " + message + "; to go ahead, run it again confirmed (pb-exec --yes, pb-do --yes)"
        }
        guard let said = plan.message, !said.isEmpty else { return message }
        // A plan without steps that says why needs no "the plan has no steps" after it.
        if run.results.isEmpty { return said + (dryRun ? "; dry run: nothing was written" : "; nothing was changed") }
        return said + "; " + message
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let e as AgentError: return e.description
        case let e as CustomStringConvertible: return e.description
        default: return String(describing: error)
        }
    }

    static func stepList(_ ns: [Int]) -> String {
        let words = ns.map(String.init)
        let joined = words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
        return (ns.count == 1 ? "step " : "steps ") + joined
    }

    /// Says plainly what is in place: which steps wrote and how to undo them, which failed, which
    /// were skipped.
    static func message(results: [StepResult], wrote: [Int], failed: (n: Int, tool: ToolName, error: String)?, group: String?, dryRun: Bool) -> String {
        let skipped = results.filter { $0.status == .skipped }.map(\.n)
        var parts: [String] = []
        if dryRun {
            if results.isEmpty { return "dry run: the plan has no steps; nothing was written" }
            if let failed {
                parts.append("dry run: step \(failed.n) (\(failed.tool)) would fail: \(failed.error)")
            } else {
                parts.append("dry run: \(results.count == 1 ? "the step" : "all \(results.count) steps") would succeed")
            }
            if !wrote.isEmpty { parts.append("\(stepList(wrote)) would change the store") }
            if !skipped.isEmpty { parts.append("\(stepList(skipped)) would be skipped") }
            parts.append("nothing was written")
            return parts.joined(separator: "; ")
        }
        if let failed {
            parts.append("step \(failed.n) (\(failed.tool)) failed: \(failed.error); its own changes were reverted")
            if let group, !wrote.isEmpty {
                parts.append("\(stepList(wrote)) \(wrote.count == 1 ? "is" : "are") in place and can be undone with pb-undo --group \(group)")
            } else {
                parts.append("nothing was changed")
            }
            if !skipped.isEmpty { parts.append("\(stepList(skipped)) \(skipped.count == 1 ? "was" : "were") skipped") }
            return parts.joined(separator: "; ")
        }
        if results.isEmpty { return "the plan has no steps; nothing was changed" }
        let done = results.count == 1 ? "the step is done" : "all \(results.count) steps are done"
        if let group { return "\(done); undo with pb-undo --group \(group)" }
        return "\(done); nothing was changed"
    }
}
