import PBCore

/// The tool names pb-plan writes into `plan` steps. The planner only needs names and argument
/// names, so it keeps its own vocabulary instead of depending on the tool registry; pb-exec rejects
/// a name it does not know, which keeps the two honest.
public enum PlannerTool: String, ClosedSet {
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

    /// Tools that make an item later steps can refer to with `$N`.
    public var createsItem: Bool {
        switch self {
        case .createTask, .createProject, .addMilestone, .createNote: return true
        default: return false
        }
    }
}
