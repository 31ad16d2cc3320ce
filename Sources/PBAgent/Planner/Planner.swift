import Foundation
import PBCore
import PBDates

/// Turns a request into a `plan` record: splits it into clauses, reads each with the intent
/// grammar, numbers the steps, resolves pronouns and project filing to `$N` references, and
/// reconciles new tasks. A multi-line or rambling dump is read as a capture instead (one step per
/// actionable item, the rest one note). Deterministic for a given text and now.
public struct Planner: Sendable {
    public let dates: DateSlot
    public let grammar: IntentGrammar
    public let splitter: ClauseSplitter
    public var reconciler: PlanReconciler
    /// Misspelt grammar words put right before a request is read (not in a dump, whose lines are
    /// kept as written).
    public let spelling: RequestSpelling
    /// What a request no rule reads is recognised as (`LabelledRequests`): set by pb-plan when
    /// the model is installed; nil reads with the grammar alone.
    public var recogniser: (@Sendable (String) -> LabelledRequests.Reading?)?

    /// `openTasks` and `savedNotes` are the store's, which a capture never adds again (R1).
    /// `targets` are every item of the store, which a change must name (R9); nil when unread.
    /// `people` are the contacts' names, lowercased (IntentGrammar.people).
    public init(parser: NaturalDateParser, openTasks: [StoredItem] = [], savedNotes: [StoredItem] = [], targets: StoreTargets? = nil,
                people: Set<String> = [], spelling: RequestSpelling? = nil) {
        dates = DateSlot(parser: parser)
        grammar = IntentGrammar(dates: dates, people: people)
        splitter = ClauseSplitter(grammar: grammar)
        reconciler = PlanReconciler(dates: dates, openTasks: openTasks, savedNotes: savedNotes, targets: targets)
        if let spelling {
            self.spelling = spelling
        } else {
            let titles = openTasks.map(\.text) + (targets.map { $0.tasks + $0.projects + $0.milestones + $0.notes }?.map(\.title) ?? [])
                + Array(people)
            self.spelling = RequestSpelling(titles: titles)
        }
    }

    /// The same planner with the clock at `now` (a record's own time), the store's items kept.
    public func at(_ now: Date) -> Planner {
        let p = dates.parser
        return Planner(parser: NaturalDateParser(now: now, timeZone: p.timeZone, weekStart: p.weekStart, dateOrder: p.dateOrder),
                       openTasks: reconciler.openTasks, savedNotes: reconciler.savedNotes, targets: reconciler.targets,
                       people: grammar.people, spelling: spelling).recognising(with: recogniser)
    }

    /// The same planner, recognising what no rule reads with `recogniser`.
    public func recognising(with recogniser: (@Sendable (String) -> LabelledRequests.Reading?)?) -> Planner {
        var p = self
        p.recogniser = recogniser
        return p
    }

    /// A request is a capture dump when it has several lines or three or more sentences.
    public func looksLikeDump(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        if lines.count > 1 { return true }
        return splitter.sentences(text).count >= 3
    }

    public func plan(_ text: String, capture: Bool? = nil) -> PlanRecord {
        if capture ?? looksLikeDump(text) { return capturePlan(text) }
        let (read, corrections) = spelling.correct(text)
        var record = plan(reading: read)
        record.text = text
        if !corrections.isEmpty {
            let said = corrections.map { "read \"\($0.typed)\" as \"\($0.read)\"" }.joined(separator: ", ")
            record.message = said + (record.message.map { "; " + $0 } ?? "")
        }
        return record
    }

    /// The plan for a request as read (its spelling put right).
    func plan(reading text: String) -> PlanRecord {
        // A whole request that names nothing to act on is asked about before any rule guesses a
        // title from it ("throw away my to do list" is not a task "away my"). An event is left
        // to the rules, which read "cancel this event" as the next one, asked first; and "it" or
        // "that" alone, which may be an undo ("scratch that") or "it" of a session.
        let unnamed = grammar.unnamed(text)
        if let unnamed, unnamed.tool != .cancelEvent || grammar.pointsAtEvent(text), !grammar.pointsOnly(text) {
            return fallback(text, unnamed: unnamed)
        }
        var intents: [PlannedIntent] = []
        var missed: [String] = []
        if let message = grammar.addressedMessage(text) ?? grammar.channelMessage(text) {
            intents = message
        } else {
            var base = 0
            for sentence in splitter.sentences(text) {
                if let listed = grammar.listedChanges(sentence, holds: holdsTask) ?? grammar.openedList(sentence) ?? grammar.referredRemoval(sentence) ?? grammar.statedOccasion(sentence) ?? grammar.whateverNextEvent(sentence) {
                    base += 1
                    intents += listed.map { var i = $0; i.scope = base; return i }
                    continue
                }
                var last = 0
                // The list a clause of this sentence named ("clear my shopping list and add milk"):
                // what a later clause adds with no list of its own goes on it.
                var named: String?
                for (clause, scope) in splitter.scopedSplit(sentence) {
                    last = max(last, scope)
                    var found = grammar.parse(clause)
                    if found == nil, let list = named, let item = grammar.addedWithoutList(clause) {
                        found = grammar.parse("add \(item) to the \(list)")
                    }
                    if let found {
                        intents += found.map { var i = $0; i.scope = base + scope; return i }
                        if let list = found.lazy.compactMap({ i -> String? in
                            if [.clearProject, .createProject].contains(i.tool) { return i.args["title"]?.stringValue }
                            return i.list.map { $0.lowercased().hasSuffix("list") ? $0 : $0 + " list" }
                        }).first { named = list }
                    } else {
                        missed.append(clause)
                    }
                }
                base += last
            }
        }
        if intents.isEmpty { return fallback(text, unnamed: unnamed, recognising: true) }
        // "add a new item", "create a list": something is to be made, but not what. Asked, not
        // written as a task called "a new item".
        if let (standIn, tool) = intents.lazy.compactMap({ i in Self.quotes(text, i) ? nil : grammar.standIn(i).map { (i, $0) } }).first {
            var r = fallback(text, unnamed: unnamed)
            if r.ask == nil {
                var said: [String: JSONValue] = [:]
                if tool == .createTask { said = standIn.args.filter { ["due", "due_grain"].contains($0.key) } }
                if tool == .schedule {
                    if let start = standIn.args["start"] { said["start"] = start }
                    else if let due = standIn.args["due"], ["minute", "hour"].contains(standIn.args["due_grain"]?.stringValue ?? "") { said["start"] = due }
                }
                r.ask = asking(IntentGrammar.Unnamed(tool: tool, needs: .what, args: said))
                r.message = Self.asked(r.ask)
            }
            return r
        }
        // "never mind, forget that": one turn taken back, however many ways one sentence says it
        // ("undo that. undo that too" is two).
        intents = intents.enumerated().filter { i, intent in
            intent.tool != .undo || i == 0 || intents[i - 1].tool != .undo || intents[i - 1].scope != intent.scope
        }.map(\.element)
        intents = Self.listsById(intents)
        intents = emptyingHeldLists(deletingLists(cancellingEvents(filingIntoLists(keepingTime(namingByDue(Self.joiningPronounTasks(intents)))))))
        let (numberedPlan, unresolved) = numbered(text, intents, source: "grammar")
        var record = reconciler.reconcile(numberedPlan, request: text, capture: false, listAll: false)
        if record.steps.isEmpty {
            var r = fallback(text, unnamed: unnamed)
            if r.ask != nil { return r }
            // "mark it done" with nothing before it: which task is asked, as for a delete.
            if !unresolved.isEmpty, !grammar.stopLike(text), let pointed = intents.first(where: { $0.pronoun && $0.referenceArgument != nil }) {
                let needs: PlanAsk.Need = pointed.tool == .cancelEvent ? .event : pointed.referenceArgument == "project" ? .list : .task
                r.ask = asking(IntentGrammar.Unnamed(tool: pointed.tool, needs: needs))
                r.message = Self.asked(r.ask)
                return r
            }
            r.message = (unresolved + Self.rejections(record) + [PlanRecord.nothingLeft]).joined(separator: "; ")
            if let rules = record.rules { r.rules = rules; r.review = record.review }
            return r
        }
        if record.steps.count == 1, let overruled = overruled(text, step: record.steps[0]) { return overruled }
        let notes = missed.map { "not understood: \"\($0)\"" } + unresolved
        if !notes.isEmpty { record.message = notes.joined(separator: "; ") }
        return record
    }

    /// The steps the grammar falls back on when a request reads as no command: a question sent to
    /// a look-up, or a new item made of its words. Only these may be overruled; a change to an
    /// item ("mark the dentist done", "snooze the call") was read from its own verb.
    static let overrulable: Set<ToolName> = [.search, .askNotes, .agenda, .calendarAgenda, .summarize, .projectStatus,
                                                .findContact, .findSlot, .createTask, .createNote]

    /// A one-step plan of a fallback reading that the labelled requests nearest to the request
    /// all read as another kind of request ("calendar wipe for tomorrow" read as a look at
    /// tomorrow's calendar): the step is not taken, and the plan asks what that kind's tool
    /// needs. Nil when they do not all agree, or agree with the step.
    func overruled(_ text: String, step: PlanStep) -> PlanRecord? {
        let planned = step.tool
        guard Self.overrulable.contains(planned) else { return nil }
        // A new item is a fallback reading only when it is the whole request: "remind me to
        // cancel my meeting" and "note that john's number is ..." were read by their frames.
        if planned == .createTask || planned == .createNote {
            guard let said = (step.args["title"] ?? step.args["body"])?.stringValue, PlanToolSelector.words(said) == PlanToolSelector.words(text) else { return nil }
        }
        guard let reading = recognised(text), reading.overrules, let (tool, needs) = reading.kind.asked,
              !reading.kind.tools.contains(planned) else { return nil }
        var r = PlanRecord(text: text, now: dates.format.instant(dates.parser.now), steps: [], source: "examples")
        r.ask = asking(IntentGrammar.Unnamed(tool: tool, needs: needs))
        r.message = "nothing planned: the grammar read this request as \(step.tool), but the requests nearest to it all ask to \(reading.kind.described) (as \"\(reading.example)\"), so it is asked back; nothing in the store was touched"
        return r
    }

    /// What the labelled requests recognise `text` as; never a kind that writes for a question
    /// that asks for something ("what did I delete from my calendar" looks back, it deletes nothing).
    func recognised(_ text: String) -> LabelledRequests.Reading? {
        guard let reading = recogniser?(text) else { return nil }
        if !reading.kind.reads, Self.asksFor(text) { return nil }
        return reading
    }

    /// Whether a request opens with a question word (after a wake word or filler the grammar drops).
    static func asksFor(_ text: String) -> Bool {
        PlanToolSelector.words(text).prefix(3).contains { PlanReconciler.questionStarts.contains($0) }
    }

    /// Whether the store holds an open task of this very title (articles aside); nil when the
    /// store was not read.
    func holdsTask(_ title: String) -> Bool? {
        guard let targets = reconciler.targets else { return nil }
        // Its title as said, articles aside: an item that opens with a verb of its own ("call
        // mom") must be a task's whole title, not words some longer title holds.
        let key = Self.titleKey(title)
        return targets.tasks.contains { $0.open && Self.titleKey($0.title) == key }
    }

    /// A title lowercased, with its articles and possessives and spacing aside.
    static func titleKey(_ title: String) -> String {
        title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" })
            .filter { !["a", "an", "the", "my", "our"].contains($0) }.joined(separator: " ")
    }

    /// What the store holds decides between a task and an event of PocketBrains' own calendar:
    /// a delete of something that is only such an event takes the event out ("cancel the vet
    /// appointment tomorrow", once `schedule` wrote it), and a removal from the calendar of
    /// something that is only a task deletes the task. With the store unread, as the grammar read it.
    func cancellingEvents(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        guard let targets = reconciler.targets else { return intents }
        let matcher = TitleMatcher(preferOpen: true)
        return intents.map { i in
            guard !i.pronoun, i.args["all"] == nil, i.args["id"] == nil, let title = i.args["title"]?.stringValue else { return i }
            // Said as an event's whole title ("cancel the dentist": the event "Dentist", beside a
            // task "Call dentist"), the event; said as a task's whole title, the task.
            func whole(_ said: String, _ items: [TitleMatcher.Candidate]) -> Bool {
                let key = Set(TitleMatcher.contentWords(said))
                return items.contains { Set(TitleMatcher.contentWords($0.title)) == key }
            }
            if i.tool == .deleteTask, !targets.events.isEmpty,
               var event = grammar.cancelledEvent(title, in: title),
               let named = event.args["title"]?.stringValue, matcher.match(named, in: targets.events) != .none,
               matcher.match(title, in: targets.tasks) == .none || (whole(named, targets.events) && !whole(title, targets.tasks)) {
                event.scope = i.scope
                return event
            }
            // The next event is an event: never a to-do that shares a word with it ("lunch with ana").
            if i.tool == .cancelEvent, i.args["next"] == nil, matcher.match(title, in: targets.events) == .none, matcher.match(title, in: targets.tasks) != .none {
                var task = i
                task.tool = .deleteTask
                task.args = ["title": .string(title)]
                return task
            }
            return i
        }
    }

    /// "clear my groceries", "empty the christmas project": a chore by its words, but when the
    /// store holds a project of exactly that name, that list emptied (asked first), not a task
    /// called "clear my groceries".
    func emptyingHeldLists(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        guard let targets = reconciler.targets, !targets.projects.isEmpty else { return intents }
        return intents.map { i in
            guard i.tool == .createTask, i.args.keys.sorted() == ["title"], let title = i.args["title"]?.stringValue,
                  let m = ClausePattern.shared.match(#"(?:clear|empty|wipe)(?: out| down)? (.+)"#, title),
                  let p = targets.projects.first(where: { Self.titleKey($0.title) == Self.titleKey(m[0]) }) else { return i }
            return PlannedIntent(.clearProject, ["title": .string(p.title)], subject: p.title)
        }
    }

    /// A list named by its id, as pb-session writes "delete that" after a turn that made a list
    /// ("delete project:2", "clear project:2"): the list's own tools, which ask first. Read as a
    /// task, "project:2" is no task, and "clear project:2" would be a new task of that title.
    static func listsById(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        intents.map { i in
            // "delete event:<uid>", as a session writes "delete that" after a turn that scheduled
            // one: that event taken out, asked first.
            if [.deleteTask, .cancelEvent].contains(i.tool), case .string(let title)? = i.args["title"],
               title.lowercased().hasPrefix("event:"), !title.contains(" "), title.count > 6 {
                return PlannedIntent(.cancelEvent, ["uid": .string(String(title.dropFirst(6)))], subject: title)
            }
            guard case .string(let title)? = i.args["title"], let ref = projectRef(title) else { return i }
            switch i.tool {
            case .deleteTask: return PlannedIntent(.deleteProject, ["id": .string(ref)], subject: ref)
            case .createTask:
                let verb = title.lowercased().split(separator: " ").filter { $0 != ref && $0 != "list" }.joined(separator: " ")
                guard ["clear", "empty", "wipe", "clear out", "empty out", "clean out"].contains(verb) else { return i }
                return PlannedIntent(.clearProject, ["id": .string(ref)], subject: ref)
            default: return i
            }
        }
    }

    /// "project:2" within a title ("clear project:2", "project:2 list"), when it names one list.
    static func projectRef(_ title: String) -> String? {
        let words = title.lowercased().split(separator: " ").filter { $0.hasPrefix("project:") && Int($0.dropFirst(8)) != nil }
        guard words.count == 1 else { return nil }
        let rest = title.lowercased().split(separator: " ").filter { !$0.hasPrefix("project:") }
        // Only a verb or "list" beside it: "clear project:2", "project:2 list".
        guard rest.allSatisfy({ ["clear", "empty", "wipe", "out", "list", "clean"].contains(String($0)) }) else { return nil }
        return String(words[0])
    }

    /// "delete my shopping list" deletes the list when the store holds a project of that name,
    /// and a task of that name when it holds only the task. With the store unread, the task: of
    /// the two readings, the one that takes less.
    func deletingLists(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        intents.map { i in
            guard i.tool == .deleteProject, let title = i.args["title"]?.stringValue else { return i }
            let matcher = TitleMatcher(preferOpen: true)
            if let targets = reconciler.targets,
               targets.projects.contains(where: { Self.titleKey($0.title) == Self.titleKey(title) }) || matcher.match(title, in: targets.tasks) == .none {
                return i
            }
            var task = i
            task.tool = .deleteTask
            return task
        }
    }

    /// A task put on a named list goes into the store's project of that name ("school supplies",
    /// or "school supplies list"), found as pb-exec finds titles; with no such project, or the
    /// store unread, it stays a task of its own (a list is not made for one item).
    func filingIntoLists(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        guard let targets = reconciler.targets, !targets.projects.isEmpty else { return intents }
        return intents.map { intent in
            guard let name = intent.list, intent.args["project"] == nil else { return intent }
            for title in [name + " list", name] {
                if case .found(let project) = TitleMatcher(preferOpen: true).match(title, in: targets.projects) {
                    var i = intent
                    i.args["project"] = .string(project.ref)
                    return i
                }
            }
            return intent
        }
    }

    /// An item named by when it is due ("tomorrow morning's task") is the one open task the store
    /// has due in that span; with none or several the words stay, and R9 says no task is called that.
    func namingByDue(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        guard let targets = reconciler.targets else { return intents }
        let zone = dates.parser.timeZone
        return intents.map { intent in
            guard intent.dueWithin != nil || intent.dueNext else {
                return intent.tool == .cancelEvent && intent.args["next"] == .bool(true) ? pinned(intent, targets) : intent
            }
            // "tomorrow's task" is any task; "tomorrow's meeting" one whose title says meeting.
            let noun = intent.subject.flatMap { $0.split(separator: " ").last.map { $0.lowercased() } } ?? "task"
            let any: Set<String> = ["task", "thing", "todo", "to-do", "one", "job", "reminder", "event", "item"]
            let dated = targets.tasks.compactMap { task -> (TitleMatcher.Candidate, Date)? in
                guard task.open, let d = targets.dues[task.ref].flatMap({ ISOMoment.parse($0, zone: zone) }) else { return nil }
                if !any.contains(noun), !TitleMatcher.contentWords(task.title).contains(where: { TitleMatcher.contentWords(noun).contains($0) }) { return nil }
                return (task, d.date)
            }
            let due: [TitleMatcher.Candidate]
            var soonest: Date?
            if let span = intent.dueWithin {
                due = dated.filter { span.contains($0.1) }.map(\.0)
            } else {
                // The next one: due soonest from the start of today (a task due today at no time counts).
                let today = dates.startOfToday
                let next = dated.filter { $0.1 >= today }.min { $0.1 < $1.1 }
                due = next.map { [$0.0] } ?? []
                soonest = next?.1
            }
            // The next event to cancel is an event of the own calendar. Only when the calendar
            // holds none to come of the kind said is it a task whose title says that kind ("my
            // next meeting", a task "team meeting"); "my next event" or "appointment" is never a
            // to-do ("book dentist appointment" is work to do, not the appointment).
            if intent.tool == .cancelEvent {
                guard soonest != nil, due.count == 1, !any.contains(noun), noun != "appointment", noun != "appointments" else { return pinned(intent, targets) }
                if targets.firstEventToCome(after: dates.parser.now, zone: zone, title: intent.args["title"]?.stringValue, exactly: true) != nil {
                    return pinned(intent, targets)
                }
                var i = intent
                i.tool = .deleteTask
                i.args = ["id": .string(due[0].ref)]
                i.subject = due[0].title
                i.confirm = "delete \(due[0].ref) \"\(due[0].title)\", the next task called so? (the calendar holds no such event to come)"
                return i
            }
            guard due.count == 1 else { return intent }
            // By its id: the title is the store's words, not the request's, which R6 holds titles to.
            var i = intent
            i.args["title"] = nil
            i.args["id"] = .string(due[0].ref)
            i.subject = due[0].title
            // Found by when it is due, not by its name: a deletion or completion asks first.
            if [.deleteTask, .completeTask].contains(i.tool) {
                i.confirm = "\(i.tool == .deleteTask ? "delete" : "complete") \(due[0].ref) \"\(due[0].title)\"?"
            }
            return i
        }
    }

    /// A next event to take out, found in the store now, pinned by its UID: a plan confirmed
    /// later takes out the event its question named, not one added before it since.
    func pinned(_ intent: PlannedIntent, _ targets: StoreTargets) -> PlannedIntent {
        let first = targets.firstEventToCome(after: dates.parser.now, zone: dates.parser.timeZone, title: intent.args["title"]?.stringValue,
                                             on: intent.args["on"]?.stringValue, until: intent.args["until"]?.stringValue)
        guard let first else { return intent }
        var i = intent
        i.args["uid"] = .string(first.ref)
        return i
    }

    /// A move to another day keeps the time of day the task had ("bump the vet to friday", the
    /// vet being at 9:00, is Friday at 9:00), unless the request says a time of its own.
    func keepingTime(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        guard let targets = reconciler.targets, !targets.dues.isEmpty else { return intents }
        let zone = dates.parser.timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return intents.map { intent in
            var ref: String?
            if case .string(let id)? = intent.args["id"] {
                ref = id
            } else if case .string(let title)? = intent.args["title"], case .found(let task) = TitleMatcher(preferOpen: true).match(title, in: targets.tasks) {
                ref = task.ref
            }
            // A day only ("to friday"), not a week, weekend or month: those name no day to be at.
            guard intent.tool == .rescheduleTask, let ref, case .string(let due)? = intent.args["due"],
                  intent.args["due_grain"] == nil || intent.args["due_grain"] == .string("day"),
                  let day = ISOMoment.parse(due, zone: zone), day.dateOnly,
                  let had = targets.dues[ref].flatMap({ ISOMoment.parse($0, zone: zone) }), !had.dateOnly else { return intent }
            let time = calendar.dateComponents([.hour, .minute, .second], from: had.date)
            // Never to a time already past ("until today" at 10:00 of a 09:00 task): the day stands.
            guard let moved = calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: day.date),
                  moved > dates.parser.now else { return intent }
            var i = intent
            i.args["due"] = .string(dates.format.instant(moved))
            i.args["due_grain"] = .string("minute")
            return i
        }
    }

    /// A dump: one step per actionable item; everything else, in order, as one note.
    public func capturePlan(_ text: String) -> PlanRecord {
        var intents: [PlannedIntent] = []
        var rest: [String] = []
        for item in CaptureLines.items(of: text) {
            if item.heading {
                rest.append(item.text)
                continue
            }
            // A label ("Joe: ...", "Weekend: ...") holds for the sentence it opens ("Weekend:
            // clean the car, mow the lawn"), not for the sentences after it.
            var body = item.text
            var label: String?
            if let m = ClausePattern.shared.match(Self.labelPattern, item.text) {
                label = m[0]
                body = m[1]
            }
            var first = true
            for sentence in splitter.sentences(body) {
                defer { first = false }
                var kept: [String] = []
                var found: [PlannedIntent] = []
                for clause in splitter.clauses(sentence) {
                    if let more = actionable(clause) {
                        found += more
                    } else {
                        kept.append(clause)
                    }
                }
                found = Self.joiningPronounTasks(found)
                intents += first ? label.map { labelled(found, label: $0) } ?? found : found
                if !kept.isEmpty {
                    // Keep the sentence as written when none of it was taken, and its label.
                    let text = kept.count == splitter.clauses(sentence).count ? sentence : kept.joined(separator: "; ")
                    rest.append(first && label != nil ? label! + ": " + text : text)
                }
            }
        }
        var all = intents
        if !rest.isEmpty {
            all.append(PlannedIntent(.createNote, ["body": .string(rest.joined(separator: "\n")), "tags": .array([.string("capture")])]))
        }
        if all.isEmpty { return fallback(text) }
        let (numberedPlan, unresolved) = numbered(text, all, source: "capture")
        var record = reconcile(numberedPlan, capture: true)
        if record.steps.isEmpty { return record }
        if !unresolved.isEmpty { record.message = unresolved.joined(separator: "; ") }
        return record
    }

    /// Reconciles a plan (the grammar's capture, or another planner's for `pb-plan --reconcile`)
    /// against its own text, listing every rule and every proposal's outcome.
    public func reconcile(_ plan: PlanRecord, capture: Bool, unknownTools: [ProposedStep] = []) -> PlanRecord {
        var record = reconciler.reconcile(plan, request: plan.text ?? "", capture: capture, listAll: true, unknownTools: unknownTools)
        if record.steps.isEmpty, !plan.steps.isEmpty || !unknownTools.isEmpty {
            let said = record.message.map { [$0] } ?? []
            record.message = (said + Self.rejections(record) + [PlanRecord.nothingLeft]).joined(separator: "; ")
        }
        return record
    }

    /// What the rules rejected, for a plan's message when nothing is left.
    static func rejections(_ record: PlanRecord) -> [String] {
        guard case .array(let rules)? = record.rules else { return [] }
        var out: [String] = []
        for case .object(let r) in rules {
            guard case .array(let changes)? = r["changes"], case .string(let id)? = r["id"] else { continue }
            out += changes.compactMap(\.stringValue).filter { $0.hasSuffix("rejected") || $0.hasSuffix("not added again") || $0.hasSuffix("not booked") }
                .map { "\(id): \($0)" }
        }
        return out
    }

    /// Two new tasks in one part of a request where the second names the first's object with
    /// "it" or "them" are one task: "draft the fee proposal and send it round by 30 March" is
    /// one thing to do, and a task called "send it round" would mean nothing on its own. The
    /// later date wins when both have one (it usually closes the sentence: "... by 30 March").
    static func joiningPronounTasks(_ intents: [PlannedIntent]) -> [PlannedIntent] {
        var out: [PlannedIntent] = []
        for intent in intents {
            guard let last = out.last, last.tool == .createTask, intent.tool == .createTask, last.scope == intent.scope,
                  !last.pronoun, !intent.pronoun,
                  case .string(let first)? = last.args["title"], case .string(let second)? = intent.args["title"],
                  second.lowercased().split(separator: " ").contains(where: { $0 == "it" || $0 == "them" }),
                  last.args["recurrence"] == nil, intent.args["recurrence"] == nil else {
                out.append(intent)
                continue
            }
            var merged = last
            merged.args["title"] = .string(first + " and " + second)
            merged.subject = first + " and " + second
            if let due = intent.args["due"] {
                merged.args["due"] = due
                merged.args["due_grain"] = intent.args["due_grain"]
            }
            for (key, value) in intent.args where merged.args[key] == nil { merged.args[key] = value }
            out[out.count - 1] = merged
        }
        return out
    }

    /// The new tasks a captured clause asks for, also behind a label ("Weekend: clean the car",
    /// "Joe: book the plumber") or after a name ("Greta will plan the work day"). Nothing of the
    /// line is lost: a label that is a date ("Weekend", "Friday") becomes the due date when the
    /// task has none, a list word ("Todo", "Action") is dropped, and any other label or a name
    /// stays in front of the title ("Joe: book the plumber"): in meeting notes it says whose
    /// action it is, and a task list that showed it as the reader's own would mislead.
    func actionable(_ clause: String) -> [PlannedIntent]? {
        let tasks: Set<ToolName> = [.createTask, .setRecurrence]
        if let found = grammar.parse(clause) {
            if found.allSatisfy({ tasks.contains($0.tool) }) { return found }
            // An event at a stated time and a message with its words are command lines of their
            // own ("Lunch with Ana friday at 1", "Text Priya that I'm running late"); one that
            // would need a free slot found ("Schedule the review next week") is a to-do in notes,
            // not a question to put to the user in the middle of a capture.
            if found.count == 1, found[0].tool == .schedule || found[0].tool == .draftMessage { return found }
            if found.contains(where: { $0.tool == .findSlot }) { return grammar.newTask(clause) }
        }
        if let m = ClausePattern.shared.match(Self.labelPattern, clause),
           let found = grammar.parse(m[1]), found.allSatisfy({ tasks.contains($0.tool) }) {
            return labelled(found, label: m[0])
        }
        // Meeting notes: "Greta will plan the work day", "Sam needs to send the deck".
        if let m = ClausePattern.shared.match(#"(\p{Lu}\p{L}+(?: and \p{Lu}\p{L}+)?) (?:will|is going to|are going to|needs to|need to|has to|have to|should|must|to) (.+)"#, clause),
           let verb = m[1].split(separator: " ").first.map({ $0.lowercased() }), VerbLexicon.taskVerbs.contains(verb),
           let found = grammar.parse(m[1]), found.allSatisfy({ tasks.contains($0.tool) }) {
            return labelled(found, label: m[0])
        }
        return nil
    }

    /// "Label: rest", where the label is not a note cue ("Idea: ...", "Note: ...").
    static let labelPattern = #"(?!(?:idea|note|thought|memo|fyi)\b)(\p{L}[\p{L}\d ]{0,24})(?<!\d):(?!\d)\s*(.+)"#

    static let listLabels: Set<String> = ["todo", "to do", "to-do", "task", "tasks", "action", "actions", "action item",
                                          "action items", "reminder", "reminders", "next", "next step", "next steps"]

    /// New tasks read behind `label`: the label as due date, dropped, or in front of the title.
    func labelled(_ found: [PlannedIntent], label: String) -> [PlannedIntent] {
        let trimmed = label.trimmingCharacters(in: .whitespaces)
        if Self.listLabels.contains(trimmed.lowercased()) { return found }
        let cut = dates.cut(trimmed)
        if let due = cut.due, DateSlot.tidy(cut.rest).isEmpty {
            return found.map { intent in
                guard intent.tool == .createTask, intent.args["due"] == nil else { return intent }
                var i = intent
                i.args["due"] = .string(due)
                if let grain = cut.grain { i.args["due_grain"] = .string(grain) }
                return i
            }
        }
        return found.map { intent in
            guard intent.tool == .createTask, case .string(let title)? = intent.args["title"] else { return intent }
            var i = intent
            i.args["title"] = .string(trimmed + ": " + title)
            i.subject = trimmed + ": " + title
            return i
        }
    }

    /// The honest answer when no rule read the request: a plan with no steps that says so.
    public func fallback(_ text: String) -> PlanRecord {
        fallback(text, unnamed: grammar.unnamed(text))
    }

    /// The same, with the request's unnamed reading already made (`IntentGrammar.unnamed`);
    /// `recognising`, when no rule read any part of it and it names nothing the store does not
    /// keep ("remove the last item from my cart"), asks by the labelled requests nearest to it.
    func fallback(_ text: String, unnamed: IntentGrammar.Unnamed?, recognising: Bool = false) -> PlanRecord {
        var r = PlanRecord(text: text, now: dates.format.instant(dates.parser.now), steps: [], source: "fallback")
        if let unnamed {
            r.ask = asking(unnamed)
            r.message = Self.asked(r.ask)
            return r
        }
        if let why = grammar.declined(text) {
            r.message = why
            return r
        }
        if let emptied = grammar.unnamedEmptying(text) {
            r.ask = asking(emptied)
            r.message = Self.asked(r.ask)
            return r
        }
        if let noun = grammar.outsideNoun(text) {
            r.message = "nothing planned: PocketBrains keeps tasks, projects, notes and calendars, and \"\(noun)\" is not one of them; nothing in the store was touched"
            return r
        }
        if recognising, let reading = recognised(text), let (tool, needs) = reading.kind.asked {
            r.source = "examples"
            r.ask = asking(IntentGrammar.Unnamed(tool: tool, needs: needs))
            r.message = "nothing planned: no rule of the grammar reads this request, but the requests nearest to it ask to \(reading.kind.described) (as \"\(reading.example)\"), so it is asked back; nothing in the store was touched"
            return r
        }
        r.message = "nothing matched: no rule of the grammar reads this request; try \"remind me to ...\", a command such as \"reschedule X to friday\", or a question such as \"what's due today?\""
        return r
    }

    /// Whether the request gave the intent's title in quotes: a title said as such ("add \"new
    /// item\" to the list") is meant, however much it reads like a stand-in.
    static func quotes(_ text: String, _ intent: PlannedIntent) -> Bool {
        guard let title = (intent.args["title"] ?? intent.args["body"])?.stringValue, !title.isEmpty else { return false }
        return [("\"", "\""), ("\u{201C}", "\u{201D}"), ("'", "'")].contains { text.localizedCaseInsensitiveContains($0.0 + title + $0.1) }
    }

    /// The message of a plan that asks: what it was not told (the question is in `ask`).
    static func asked(_ ask: PlanAsk?) -> String {
        let what: String
        switch ask?.needs {
        case .task?: what = "which task"
        case .list?: what = "which list"
        case .event?: what = "which event"
        case .when?: what = "which day"
        case .who?: what = "whom"
        case .what?, nil: what = "what to write"
        }
        return "nothing planned: the request does not say \(what) (asked); nothing in the store was touched"
    }

    /// The question for an unnamed request, with the store's candidates when there are few
    /// enough to list (none when the store was not read).
    func asking(_ u: IntentGrammar.Unnamed) -> PlanAsk {
        var choices: [String]?
        if let targets = reconciler.targets {
            let now = dates.parser.now
            let zone = dates.parser.timeZone
            let found: [String]
            switch u.needs {
            case .list: found = targets.projects.filter(\.open).map(\.title)
            case .task:
                // On the list the request named, when the store has it; else every open task.
                let list = u.list.flatMap { name in
                    [name, name + " list"].lazy.compactMap { n -> String? in
                        if case .found(let p) = TitleMatcher(preferOpen: true).match(n, in: targets.projects) { return p.ref }
                        return nil
                    }.first
                }
                let open = targets.tasks.filter { $0.open && (list == nil || targets.taskProjects[$0.ref] == list) }
                // Two tasks of one title are told apart by their references.
                let counts = Dictionary(open.map { (Self.titleKey($0.title), 1) }, uniquingKeysWith: +)
                found = open.map { counts[Self.titleKey($0.title), default: 0] > 1 ? "\($0.title) (\($0.ref))" : $0.title }
            case .event:
                found = targets.events.compactMap { e -> (String, Date)? in
                    guard let start = targets.eventStarts[e.ref], start >= now else { return nil }
                    return (e.title + ", " + ISOMoment.dayString(start, zone: zone) + " " + Self.clock(start, zone: zone), start)
                }.sorted { $0.1 < $1.1 }.map(\.0)
            case .what, .when, .who: found = []
            }
            // One line each: a title's line breaks and tabs would read as more choices.
            let lines = found.map { $0.components(separatedBy: .newlines).joined(separator: " ").replacingOccurrences(of: "\t", with: " ") }
            if !lines.isEmpty, lines.count <= 8 { choices = lines }
        }
        return PlanAsk(tool: u.tool, needs: u.needs, question: IntentGrammar.question(u.tool, u.needs), choices: choices,
                       args: u.args.isEmpty ? nil : u.args)
    }

    /// "15:00" in the zone days are counted in.
    static func clock(_ d: Date, zone: TimeZone) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        let p = c.dateComponents([.hour, .minute], from: d)
        return String(format: "%02d:%02d", p.hour ?? 0, p.minute ?? 0)
    }

    /// A value of the user's text as pb-exec must read it: a string starting with "$" escaped
    /// as "$$" (StepReference), inside arrays and objects too.
    static func literal(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s): return s.hasPrefix("$") ? .string("$" + s) : value
        case .array(let a): return .array(a.map(literal))
        case .object(let o): return .object(o.mapValues(literal))
        default: return value
        }
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
        var confirm: [String] = []
        for intent in intents {
            // Every string so far is the user's text: one starting with "$" ("mark $1 as done",
            // "a project called $$5") is written "$$..." so pb-exec reads it as text, not as a
            // reference. The references added below are the planner's own.
            var args = intent.args.mapValues(Self.literal)
            let n = steps.count + 1
            if intent.pronoun, let key = intent.referenceArgument {
                if key == "project", let p = projectStep {
                    args["project"] = .string("$\(p)")
                } else if let s = subject?.step {
                    args[key == "title" ? "id" : key] = .string("$\(s)")
                } else if let title = subject?.title {
                    args[key] = Self.literal(.string(title))
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
            for (arg, field) in intent.fromPrevious where n > 1 { args[arg] = .string("$\(n - 1).\(field)") }
            if let q = intent.confirm { confirm.append(q) }
            steps.append(PlanStep(n: n, tool: intent.tool, args: args))
            if intent.tool.createsItem {
                subject = (intent.subject, n)
            } else if let s = intent.subject {
                subject = (s, nil)
            }
            if intent.tool == .createProject { projectStep = n; projectScope = intent.scope; filed = 0 }
        }
        var record = PlanRecord(text: text, now: dates.format.instant(dates.parser.now), steps: steps, source: source)
        if !confirm.isEmpty { record.confirm = confirm.joined(separator: " ") }
        return (record, unresolved)
    }
}
