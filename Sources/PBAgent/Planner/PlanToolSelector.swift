/// Picks the few tools a model is offered for one request (at most `limit`), so a small model
/// chooses among a handful it can tell apart rather than thirty: the grammar's own reading first,
/// then the tools whose verbs or descriptions the request uses, then the tools people ask for most.
/// The model may still plan with none of them; it cannot plan with a tool it was not offered.
public struct PlanToolSelector: Sendable {
    public static let limit = 8

    public let registry: ToolRegistry

    /// Each tool's descriptive words: those of its summary that at most two tools' summaries use,
    /// so "that", "from" and "task" point nowhere and "contacts" or "calendar" do.
    let described: [ToolName: Set<String>]

    public init(registry: ToolRegistry = .standard) {
        self.registry = registry
        let words = Dictionary(uniqueKeysWithValues: registry.tools.map { ($0.name, Set(Self.words($0.summary))) })
        var uses: [String: Int] = [:]
        for set in words.values { for w in set { uses[w, default: 0] += 1 } }
        described = words.mapValues { $0.filter { uses[$0, default: 0] <= 2 && $0.count > 2 } }
    }

    /// The tools an everyday request most often needs, in that order: what fills the offer when
    /// the request's words point at fewer than `limit`.
    static let usual: [ToolName] = [
        .createTask, .completeTask, .rescheduleTask, .deleteTask, .draftMessage, .schedule, .agenda, .createNote,
        .snoozeTask, .setRecurrence, .askNotes, .findContact, .calendarAgenda, .undo, .search, .updateTask,
    ]

    /// Verbs and nouns that name a tool's job beyond its description's own words.
    static let cues: [ToolName: Set<String>] = [
        .createTask: ["remind", "reminder", "todo", "to-do", "need", "must", "remember", "add"],
        .draftMessage: ["text", "message", "email", "e-mail", "whatsapp", "signal", "sms", "tell", "reply", "write", "send"],
        .schedule: ["book", "calendar", "meeting", "appointment", "lunch", "dinner", "event"],
        .findSlot: ["slot", "free", "fit", "time", "hour", "when"],
        .agenda: ["due", "today", "week", "overdue", "list", "plate", "left"],
        .calendarAgenda: ["calendar", "diary", "schedule", "events", "busy"],
        .findContact: ["number", "phone", "email", "address", "contact", "birthday"],
        .askNotes: ["notes", "note", "said", "what", "where", "which"],
        .setRecurrence: ["every", "weekly", "daily", "monthly", "yearly", "repeat", "fortnightly"],
        .snoozeTask: ["snooze", "later", "until", "till"],
        .setPriority: ["urgent", "priority", "important", "asap"],
        .undo: ["undo", "back", "revert", "mind"],
        .redo: ["redo"],
        .brief: ["brief", "morning", "glance", "day"],
        .createNote: ["note", "jot", "idea", "write"],
        .appendNote: ["append", "note"],
        .exportICS: ["export", "ics", "sync"],
        .clearProject: ["clear", "empty", "wipe"],
    ]

    /// The words of a request, lowercased, without punctuation.
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "'" }).map(String.init)
    }

    /// At most `limit` tools for `text`: `reading` (the grammar's tools, in plan order) first.
    public func select(_ text: String, reading: [ToolName], limit: Int = PlanToolSelector.limit) -> [ToolName] {
        var out: [ToolName] = []
        func offer(_ tool: ToolName) {
            if out.count < limit, !out.contains(tool) { out.append(tool) }
        }
        reading.forEach(offer)
        let said = Self.words(text)
        let lemmas = Set(said.map { VerbLexicon.pastLemma($0) ?? $0 })
        var scores: [(ToolName, Int, Int)] = []
        for (rank, tool) in ToolName.allCases.enumerated() {
            var score = 0
            if let cue = Self.cues[tool] { score += 2 * lemmas.intersection(cue).count }
            for lemma in lemmas {
                if let action = VerbLexicon.action(ofLemma: lemma), Self.tools(for: action).contains(tool) { score += 3 }
            }
            score += lemmas.intersection(described[tool] ?? []).count
            if score > 0 { scores.append((tool, score, rank)) }
        }
        for (tool, _, _) in scores.sorted(by: { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }) { offer(tool) }
        Self.usual.forEach(offer)
        return out
    }

    static func tools(for action: VerbLexicon.Action) -> [ToolName] {
        switch action {
        case .complete: return [.completeTask, .completeMilestone]
        case .reschedule: return [.rescheduleTask, .snoozeTask]
        case .delete: return [.deleteTask]
        case .reopen: return [.reopenTask]
        case .search: return [.search]
        case .create: return [.createTask]
        }
    }
}
