import PBCore

/// Every tool a plan step can name: what pb-plan writes, what pb-exec registers and runs, and
/// what the reconciler knows of each; `ToolNameTests` holds this and the registry together. The
/// order of the cases breaks ties when `PlanToolSelector` offers tools to a model.
public enum ToolName: String, ClosedSet, CustomStringConvertible {
    case createTask = "create_task"
    case updateTask = "update_task"
    case completeTask = "complete_task"
    case reopenTask = "reopen_task"
    case deleteTask = "delete_task"
    case rescheduleTask = "reschedule_task"
    case snoozeTask = "snooze_task"
    case setPriority = "set_priority"
    case setRecurrence = "set_recurrence"
    case addDependency = "add_dependency"
    case createProject = "create_project"
    case deleteProject = "delete_project"
    case clearProject = "clear_project"
    case addMilestone = "add_milestone"
    case completeMilestone = "complete_milestone"
    case createNote = "create_note"
    case appendNote = "append_note"
    case linkItems = "link_items"
    case search = "search"
    case agenda = "agenda"
    case projectStatus = "project_status"
    case projectBlockers = "project_blockers"
    case summarize = "summarize"
    case calendarAgenda = "calendar_agenda"
    case exportICS = "export_ics"
    case askNotes = "ask_notes"
    case findSlot = "find_slot"
    case schedule = "schedule"
    case cancelEvent = "cancel_event"
    case findContact = "find_contact"
    case draftMessage = "draft_message"
    case brief = "brief"
    /// Takes back the previous turn (pb-exec runs it through the undo engine).
    case undo = "undo"
    /// Takes back the last undo (pb-exec runs it through the undo engine).
    case redo = "redo"

    /// A plan naming a tool there is none of is bad input; the message lists the tools the
    /// registry runs, in the order of `pb-exec --tools`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tool = Self(rawValue: text) else {
            let known = ToolRegistry.standard.names.map(\.rawValue).joined(separator: ", ")
            throw RecordError.badField(name: RecordCodec.fieldPath(decoder.codingPath), reason: "unknown tool '\(text)' (known: \(known))")
        }
        self = tool
    }

    /// The name as plans and messages write it (never the case's Swift name).
    public var description: String { rawValue }

    /// Runs through the undo engine instead of the registry: it takes back (or reapplies) a
    /// whole turn, and must be a plan's only step.
    public var takesBackATurn: Bool { self == .undo || self == .redo }

    /// Takes out or closes what the store holds: pb-exec asks about a loose title match ("did
    /// you mean task:4?") instead of acting on it.
    public var destructive: Bool {
        switch self {
        case .deleteTask, .completeTask, .completeMilestone, .cancelEvent, .deleteProject, .clearProject: return true
        default: return false
        }
    }

    /// What a capture (meeting notes, a dump of lines) may propose: new items only, never a
    /// change to what is already there.
    public var capture: Bool {
        switch self {
        case .createTask, .createNote, .setRecurrence, .schedule, .findSlot, .draftMessage, .createProject, .addMilestone: return true
        default: return false
        }
    }

    /// Its `title` is a new item's name, held to R6 (grounded in the request) and R7 (not the
    /// wording around it).
    public var namesNewItem: Bool {
        switch self {
        case .createTask, .schedule, .createProject, .addMilestone: return true
        default: return false
        }
    }

    /// Changes a task the store holds (R9 finds it among the tasks).
    public var changesTask: Bool {
        switch self {
        case .updateTask, .completeTask, .reopenTask, .deleteTask, .rescheduleTask, .snoozeTask, .setPriority, .setRecurrence: return true
        default: return false
        }
    }

    /// Changes or takes back what the store already holds: a model's plan may take such a step
    /// only where the request asks for it (`EndpointPlanner`).
    public var changesExisting: Bool {
        switch self {
        case .addDependency, .completeMilestone, .appendNote, .linkItems, .cancelEvent, .deleteProject, .clearProject, .undo, .redo: return true
        default: return changesTask
        }
    }

    /// A step a plan's `confirm` question may be about: once reconciliation takes every such
    /// step out, the question is moot.
    public var askedFirst: Bool {
        switch self {
        case .schedule, .draftMessage, .cancelEvent, .deleteProject, .clearProject, .deleteTask, .completeTask: return true
        default: return false
        }
    }

    /// Tools that make an item later steps can refer to with `$N`.
    public var createsItem: Bool {
        switch self {
        case .createTask, .createProject, .addMilestone, .createNote: return true
        default: return false
        }
    }
}
