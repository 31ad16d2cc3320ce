import Foundation
import PBCore
import Testing
@testable import PBAgent
@testable import PBDates

/// Seed 004's policies R1-R8 over numbered plans, from the grammar (captures) and from another
/// planner (`reconcile`, as `pb-plan --reconcile` calls it).
@Suite("PlanReconciler")
struct PlanReconcilerTests {
    let planner = fixedPlanner()

    func rule(_ p: PlanRecord, _ id: String) -> [String] {
        guard case .array(let rules)? = p.rules else { return [] }
        for case .object(let r) in rules where r["id"] == .string(id) {
            if case .array(let changes)? = r["changes"] { return changes.compactMap(\.stringValue) }
        }
        return []
    }

    /// The review as (proposal, outcome, rules, kept step number or nil).
    func review(_ p: PlanRecord) -> [(Int, String, [String], Int?)] {
        (p.review ?? []).map { ($0.proposal, $0.outcome.rawValue, $0.rules.map(\.rawValue), $0.step) }
    }

    /// Reconciles a plan another planner proposed for `text`.
    func reconcile(_ text: String, _ steps: [PlanStep], capture: Bool = false, store: Planner? = nil) -> PlanRecord {
        let p = store ?? planner
        return p.reconciler.reconcile(PlanRecord(text: text, steps: steps), request: text, capture: capture, listAll: true)
    }

    func step(_ n: Int, _ tool: ToolName, _ args: [String: JSONValue]) -> PlanStep { PlanStep(n: n, tool: tool, args: args) }

    // MARK: R1 to R4, on captures

    @Test("the rules are R1 to R9 in order, each with its own name, and every one is listed when asked")
    func ruleIDs() throws {
        #expect(ReconciliationRule.ID.allCases.map(\.rawValue) == (1...9).map { "R\($0)" })
        #expect(Set(ReconciliationRule.all.map(\.name)).count == 9)
        let p = planner.reconciler.reconcile(planner.plan("remind me to buy milk"), request: "remind me to buy milk", capture: false, listAll: true)
        guard case .array(let rules)? = p.rules else { Issue.record("no rules"); return }
        #expect(rules.compactMap { if case .object(let r) = $0 { return r["id"]?.stringValue }; return nil } == ReconciliationRule.ID.allCases.map(\.rawValue))
    }

    @Test("R1 merges identical items and says so")
    func dedupe() {
        let p = planner.plan("Call the vet tomorrow. Call the vet tomorrow. Buy cat food.")
        #expect(p.tools == ["create_task", "create_task"])
        #expect(rule(p, "R1").count == 1)
        // The kept one is due tomorrow, so R4 modifies it; the repeat is rejected into it.
        #expect(review(p).map(\.1) == ["modified", "rejected", "accepted"])
        #expect(review(p)[1].2 == ["R1"])
    }

    @Test("R1 never adds a task that is open in the store, and names it")
    func dedupeAgainstStore() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-11-26T10:00:00Z")!
        let stored = Planner(parser: NaturalDateParser(now: now, timeZone: zone),
                             openTasks: [StoredItem(ref: "task:7", text: "buy milk")])
        let p = stored.plan("- Buy the milk\n- pick up dry cleaning")
        #expect(p.tools == ["create_task"])
        #expect(p.arg(0, "title") == "pick up dry cleaning")
        #expect(rule(p, "R1") == ["step 1 \"Buy the milk\": already open as task:7 \"buy milk\"; not added again"])
        #expect(review(p).map(\.1) == ["rejected", "accepted"])
        #expect(review(p)[1].3 == 1, "the kept step is renumbered 1")
        // A single request is checked too: the open task is named, not added again, unless the
        // request gives another day (a second occurrence said on purpose).
        let again = stored.plan("remind me to buy milk")
        #expect(again.steps.isEmpty)
        #expect(rule(again, "R1") == ["step 1 \"buy milk\": already open as task:7 \"buy milk\"; not added again"])
        #expect(stored.plan("remind me to buy milk on friday").tools == ["create_task"], "the open one has no day")
    }

    @Test("R1 never saves a note that is already saved, case and spacing aside")
    func dedupeNotes() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-11-26T10:00:00Z")!
        let text = "Sprint review\nJoe: book the plumber\nBudget looks tight"
        let first = planner.plan(text)
        #expect(first.tools == ["create_task", "create_note"])
        guard let body = first.steps[1].args["body"]?.stringValue else { Issue.record("no note body"); return }
        let stored = Planner(parser: NaturalDateParser(now: now, timeZone: zone),
                             savedNotes: [StoredItem(ref: "note:3", text: body.uppercased().replacingOccurrences(of: "\n", with: "\n\n"))])
        let again = stored.plan(text)
        #expect(again.tools == ["create_task"])
        #expect(rule(again, "R1").first?.contains("already saved as note:3") == true)
    }

    @Test("R2 records a date that does not exist")
    func dateValidation() {
        let p = planner.plan("Renew the passport on Feb 30\nPack for the trip")
        #expect(p.arg(0, "due") == nil)
        #expect(rule(p, "R2").first?.contains("29") == true)
    }

    @Test("R2 rejects an event on a day that does not exist; R3 asks before booking one already past")
    func eventDates() {
        let bad = reconcile("lunch with Sam on Friday at 1pm", [step(1, .schedule, ["title": "lunch with Sam", "start": "2026-11-31T13:00:00+00:00"])])
        #expect(bad.steps.isEmpty)
        #expect(!rule(bad, "R2").isEmpty)
        let past = reconcile("lunch with Sam yesterday at 1pm", [step(1, .schedule, ["title": "lunch with Sam", "start": "2026-11-25T13:00:00+00:00"])])
        #expect(past.tools == ["schedule"])
        #expect(past.confirm?.contains("past") == true)
        #expect(!rule(past, "R3").isEmpty)
    }

    @Test("R3 moves a past date forward to today")
    func pastDates() {
        let p = planner.plan("remind me to call the bank yesterday\nbuy milk")
        #expect(p.arg(0, "due") == "2026-11-26")
        #expect(rule(p, "R3").count == 1)
    }

    @Test("R4 raises a task due by tomorrow to medium, not one with a priority")
    func priorityFloor() {
        let p = planner.plan("call mum tomorrow\nbook the venue tomorrow asap\nwrite the report next month")
        #expect(p.arg(0, "priority") == "medium")
        #expect(p.arg(1, "priority") == "high")
        #expect(p.arg(2, "priority") == nil)
        #expect(rule(p, "R4").count == 1)
    }

    @Test("a single request is not deduplicated or floored, and lists no rules when none fired")
    func singleRequest() {
        let p = planner.plan("call mum tomorrow")
        #expect(p.arg(0, "priority") == nil)
        #expect(p.rules == nil)
        #expect(p.review == nil)
    }

    // MARK: R5 to R8, on plans from elsewhere

    @Test("R5 rejects a proposal naming a tool there is none of, in its place, and keeps the rest of the plan")
    func unknownToolInItsPlace() throws {
        var object: [String: JSONValue] = ["text": "remind me to call Sam and buy milk", "steps": .array([
            .object(["tool": "create_task", "args": .object(["title": "call Sam"])]),
            .object(["tool": "create_reminder", "args": .object(["title": "call Sam"])]),
            .object(["tool": "create_task", "args": .object(["title": "buy milk"])]),
        ])]
        let unknown = ProposedStep.unknown(in: &object)
        #expect(unknown == [ProposedStep(n: 2, tool: "create_reminder", title: "call Sam")])
        let plan = try RecordCodec().decode(PlanRecord.self, from: RecordCodec().encodeValue(JSONValue.object(object)), raw: object)
        #expect(plan.steps.map(\.n) == [1, 3])
        let p = planner.reconcile(plan, capture: false, unknownTools: unknown)
        #expect(p.tools == ["create_task", "create_task"])
        #expect(review(p).map(\.0) == [1, 2, 3] && review(p).map(\.1) == ["accepted", "rejected", "accepted"])
        #expect(rule(p, "R5") == ["step 2 \"call Sam\": no tool is called create_reminder; rejected"])
        let only = planner.reconcile(PlanRecord(text: "remind me to call Sam", steps: []), capture: false,
                                     unknownTools: [ProposedStep(n: 1, tool: "create_reminder", title: nil)])
        #expect(only.steps.isEmpty && only.message?.hasSuffix(PlanRecord.nothingLeft) == true)
    }

    @Test("R5 rejects a missing required argument, and a capture that would change items")
    func admissible() {
        let missing = reconcile("add a task to buy bread", [step(1, .createTask, ["due": "2026-11-27"])])
        #expect(missing.steps.isEmpty)
        #expect(!rule(missing, "R5").isEmpty)
        let capture = reconcile("Standup\n- Ana finished the slides\n- book room for Friday",
                                [step(1, .completeTask, ["title": "slides"]), step(2, .createTask, ["title": "book room"])], capture: true)
        #expect(capture.tools == ["create_task"])
        #expect(review(capture).map(\.1) == ["rejected", "accepted"])
    }

    @Test("R5 drops an argument the tool does not take and says the step was modified")
    func unknownArgument() {
        let p = reconcile("remind me to call the bank", [step(1, .createTask, ["title": "call the bank", "reminder_time": "09:00"])])
        #expect(p.tools == ["create_task"])
        #expect(p.steps[0].args["reminder_time"] == nil)
        #expect(review(p).first?.1 == "modified")
        #expect(review(p).first?.2 == ["R5"])
    }

    @Test("R6 rejects an invented task, corrects an invented day, drops an invented priority and attendee")
    func grounding() {
        let invented = reconcile("Call Ana about the lease tomorrow", [
            step(1, .createTask, ["title": "Call Ana about the lease", "due": "2026-11-27"]),
            step(2, .createTask, ["title": "Sign the contract"]),
        ])
        #expect(invented.tools == ["create_task"])
        #expect(review(invented).map(\.1) == ["accepted", "rejected"])
        let day = reconcile("pay the water bill on Monday", [step(1, .createTask, ["title": "pay the water bill", "due": "2026-12-01"])])
        #expect(day.arg(0, "due") == "2026-11-30")
        let priority = reconcile("order new printer ink", [step(1, .createTask, ["title": "order new printer ink", "priority": "high"])])
        #expect(priority.steps[0].args["priority"] == nil)
        let attendee = reconcile("lunch with Sam on Friday at 1pm", [step(1, .schedule, [
            "title": "lunch with Sam", "start": "2026-11-27T13:00:00+00:00", "attendees": .array([.string("Sam"), .string("Priya")]),
        ])])
        #expect(attendee.steps[0].args["attendees"] == .array([.string("Sam")]))
        #expect(!rule(attendee, "R6").isEmpty)
    }

    @Test("R6 grounds a completion's lemma in the past tense the user said")
    func groundedLemma() {
        let p = planner.plan("tidied the garage")
        #expect(p.tools == ["complete_task"])
        #expect(p.arg(0, "title") == "tidy the garage")
    }

    @Test("R6 rejects a draft to someone not named, or with words not said")
    func draftGrounding() {
        #expect(reconcile("tell the team I'm running late", [step(1, .draftMessage, ["to": "Priya", "channel": "sms", "text": "I'm running late"])]).steps.isEmpty)
        let said = reconcile("text Sam that I'm running late", [step(1, .draftMessage, ["to": "Sam", "channel": "sms", "text": "I'm running late"])])
        #expect(said.tools == ["draft_message"])
        #expect(review(said).first?.1 == "accepted")
    }

    @Test("R7 rejects a question, list boilerplate and a step that repeats the others")
    func clauseEcho() {
        #expect(planner.plan("todo: what's due today?").steps.isEmpty)
        let p = reconcile("buy eggs and call Joe", [
            step(1, .createTask, ["title": "buy eggs"]), step(2, .createTask, ["title": "call Joe"]),
            step(3, .createTask, ["title": "buy eggs and call Joe"]),
        ])
        #expect(p.tools == ["create_task", "create_task"])
        #expect(review(p)[2].2 == ["R7"])
    }

    @Test("R8 keeps a place the request names and drops one it does not, or that is a time")
    func location() {
        let named = reconcile("lunch with Sam on Friday at 1pm at Luigi's", [step(1, .schedule, [
            "title": "lunch with Sam", "start": "2026-11-27T13:00:00+00:00", "location": "Luigi's",
        ])])
        #expect(named.arg(0, "location") == "Luigi's")
        let invented = reconcile("lunch with Sam on Friday at 1pm", [step(1, .schedule, [
            "title": "lunch with Sam", "start": "2026-11-27T13:00:00+00:00", "location": "the Ritz",
        ])])
        #expect(invented.steps[0].args["location"] == nil)
        #expect(review(invented).first?.2 == ["R8"])
        let time = reconcile("lunch with Sam on Friday at 1pm", [step(1, .schedule, [
            "title": "lunch with Sam", "start": "2026-11-27T13:00:00+00:00", "location": "1pm",
        ])])
        #expect(time.steps[0].args["location"] == nil)
    }

    // MARK: R9, on changes to what is there

    func withStore(_ tasks: [String], milestones: [String] = [], canUndo: Bool = true) -> Planner {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-11-26T10:00:00Z")!
        let targets = StoreTargets(tasks: tasks.enumerated().map { .init(ref: "task:\($0.offset + 1)", title: $0.element, open: true) },
                                   milestones: milestones.enumerated().map { .init(ref: "milestone:\($0.offset + 1)", title: $0.element, open: true) },
                                   canUndo: canUndo)
        return Planner(parser: NaturalDateParser(now: now, timeZone: zone), targets: targets)
    }

    @Test("R9 keeps a change to a task the store holds, exactly or nearly, and rejects one to nothing it holds")
    func targetGrounding() {
        let store = withStore(["walk the dog", "file the tax return", "pay the bank fee"])
        #expect(store.plan("walked the dog").tools == ["complete_task"])
        #expect(store.plan("complete the tax returns").tools == ["complete_task"], "a plural is a near-exact fit")
        let remark = store.plan("I saw a bulldog today")
        #expect(remark.steps.isEmpty)
        #expect(rule(remark, "R9") == ["step 1 \"see a bulldog\": no task in the store is \"see a bulldog\"; rejected"])
        #expect(store.plan("delete the bank letter").steps.isEmpty, "one of two words in no title names nothing")
        #expect(store.plan("complete milestone design approved").steps.isEmpty, "the store has no milestones")
        // A reference names its item; a step on an item the plan makes names it by $N.
        let ref = reconcile("mark task 1 as done", [step(1, .completeTask, ["id": "task:1"])], store: store)
        #expect(ref.tools == ["complete_task"])
        #expect(store.plan("add a task to water the plants and make it repeat every week").tools == ["create_task", "set_recurrence"])
    }

    @Test("R9 holds an id to an item the store holds: a plan made elsewhere can name any number")
    func targetGroundingByID() {
        let store = withStore(["walk the dog"], milestones: ["design approved"])
        #expect(reconcile("done", [step(1, .completeTask, ["id": 1])], store: store).tools == ["complete_task"])
        #expect(reconcile("done", [step(1, .completeTask, ["id": "1"])], store: store).tools == ["complete_task"])
        let missing = reconcile("delete walk the dog", [step(1, .deleteTask, ["id": 7, "title": "walk the dog"])], store: store)
        #expect(missing.steps.isEmpty)
        #expect(rule(missing, "R9").first?.contains("no task in the store is id 7") == true)
        #expect(reconcile("delete it", [step(1, .deleteTask, ["id": "milestone:1"])], store: store).steps.isEmpty, "a milestone's id is not a task's")
        #expect(reconcile("walk blocked by x", [step(1, .addDependency, ["task": "task:1", "blocked_by": "task:9"])], store: store).steps.isEmpty)
        #expect(reconcile("design approved", [step(1, .completeMilestone, ["id": "milestone:1"])], store: store).tools == ["complete_milestone"])
        #expect(reconcile("done", [step(1, .completeTask, ["id": 1])]).tools == ["complete_task"], "no store read: nothing checked")
    }

    @Test("R9 checks nothing when the store was not read, rejects every named change on an empty one, and undo needs a turn to take back")
    func targetGroundingScope() {
        #expect(planner.plan("I saw a bulldog today").tools == ["complete_task"], "no store read: the grammar's reading stands")
        let empty = withStore([]).plan("delete the yoga class")
        #expect(empty.steps.isEmpty, "a new user's empty store holds no yoga class")
        #expect(rule(empty, "R9") == ["step 1 \"the yoga class\": no task in the store is \"the yoga class\"; rejected"])
        #expect(withStore([]).plan("add a task to water the plants and make it repeat every week").tools == ["create_task", "set_recurrence"])
        #expect(withStore(["buy milk"]).plan("undo that").tools == ["undo"])
        let none = withStore(["buy milk"], canUndo: false).plan("undo that")
        #expect(none.steps.isEmpty)
        #expect(rule(none, "R9").first?.contains("no turn is left to undo") == true)
    }

    // MARK: numbering and references

    @Test("kept steps are renumbered and references rewritten; a step on a rejected one goes with it")
    func renumbering() {
        let p = reconcile("create project Garden and add a task buy seeds", [
            step(1, .createTask, ["title": "water the lawn"]),
            step(2, .createProject, ["title": "Garden"]),
            step(3, .createTask, ["title": "buy seeds", "project": "$2"]),
            step(4, .addDependency, ["task": "$1", "blocked_by": "$3"]),
        ])
        #expect(p.tools == ["create_project", "create_task"])
        #expect(p.steps.map(\.n) == [1, 2])
        #expect(p.steps[1].args["project"] == .string("$1"))
        #expect(review(p).map(\.1) == ["rejected", "accepted", "accepted", "rejected"])
        #expect(review(p).map(\.3) == [nil, 1, 2, nil])
        #expect(review(p)[3].2 == ["R6"], "rejected with the rule that rejected its referent")
    }

    @Test("a forward reference is not admissible")
    func forwardReference() {
        let p = reconcile("paint the shed project: buy paint", [
            step(1, .createTask, ["title": "buy paint", "project": "$2"]), step(2, .createProject, ["title": "Paint the shed"]),
        ])
        #expect(review(p).first?.1 == "rejected")
        #expect(review(p).first?.2 == ["R5"])
    }
}

// Plans written out in the tests read as they would in JSON.
extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}
