import PBCore

/// What a request asks of the store, by the intents of HWU64 it is labelled with: the kinds a
/// request the grammar cannot read may be recognised as (`LabelledRequests`). `other` is every
/// request the store does not serve (music, weather, alarms, ...).
public enum RequestKind: String, ClosedSet {
    case calendarSet = "calendar_set"
    case calendarQuery = "calendar_query"
    case calendarRemove = "calendar_remove"
    case listsCreateOrAdd = "lists_createoradd"
    case listsQuery = "lists_query"
    case listsRemove = "lists_remove"
    case emailSend = "email_sendemail"
    case emailQueryContact = "email_querycontact"
    case other

    /// The tool a request of this kind would be planned with, and what it must be told first:
    /// a request nobody could read names nothing, so it is only ever asked about, never done.
    var asked: (tool: ToolName, needs: PlanAsk.Need)? {
        switch self {
        case .calendarSet: (.schedule, .what)
        case .calendarQuery: (.calendarAgenda, .when)
        case .calendarRemove: (.cancelEvent, .event)
        case .listsCreateOrAdd: (.createTask, .what)
        case .listsQuery: (.projectStatus, .list)
        case .listsRemove: (.deleteTask, .task)
        case .emailSend: (.draftMessage, .what)
        case .emailQueryContact: (.findContact, .who)
        case .other: nil
        }
    }

    /// The tools a plan for a request of this kind may start with: a one-step plan with another
    /// tool, for a request whose nearest labelled requests all are of this kind, is overruled.
    var tools: Set<ToolName> {
        switch self {
        case .calendarSet: [.createTask, .setRecurrence, .rescheduleTask, .schedule, .findSlot]
        case .calendarQuery: [.agenda, .calendarAgenda, .summarize, .search, .askNotes, .findSlot]
        case .calendarRemove: [.deleteTask, .cancelEvent]
        case .listsCreateOrAdd: [.createTask, .createProject, .createNote, .appendNote]
        case .listsQuery: [.search, .agenda, .projectStatus, .summarize, .askNotes]
        case .listsRemove: [.deleteTask, .deleteProject, .clearProject]
        case .emailSend: [.draftMessage, .createTask]
        case .emailQueryContact: [.findContact]
        case .other: []
        }
    }

    /// Whether a request of this kind only looks: a question may be recognised as one of these,
    /// never as a kind that writes.
    var reads: Bool { self == .calendarQuery || self == .listsQuery || self == .emailQueryContact }

    /// The kind in plain words, for a plan's message: "a request to ...".
    var described: String {
        switch self {
        case .calendarSet: "put something on the calendar"
        case .calendarQuery: "see what is on the calendar"
        case .calendarRemove: "take something off the calendar"
        case .listsCreateOrAdd: "add to a list"
        case .listsQuery: "see what is on a list"
        case .listsRemove: "take something off a list"
        case .emailSend: "write a message"
        case .emailQueryContact: "look up a contact"
        case .other: "do something PocketBrains does not keep"
        }
    }
}
