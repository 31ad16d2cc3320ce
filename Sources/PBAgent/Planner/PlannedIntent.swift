import Foundation
import PBCore

/// One tool call the grammar read from a clause, before it is numbered into a plan step.
public struct PlannedIntent: Equatable, Sendable {
    public var tool: ToolName
    public var args: [String: JSONValue]
    /// The item the clause is about (a task's title, a project's name), for pronouns in later clauses.
    public var subject: String?
    /// The clause named its item with a pronoun ("make it urgent"); the planner fills the reference.
    public var pronoun: Bool
    /// Which part of the request the clause came from (a new part after "then" or a full stop):
    /// tasks are filed into a project created in the same part only.
    public var scope = 0
    /// Arguments that take a field of the step just before ("start" from find_slot's "start"),
    /// written as `$N.field` when the plan is numbered.
    public var fromPrevious: [String: String] = [:]
    /// A question the plan asks before it writes ("schedule ... at the first free slot?"): the
    /// plan record carries it as `confirm`, and pb-exec runs it as a dry run until confirmed.
    public var confirm: String?
    /// The item is named by when it is due ("move tomorrow morning's task to friday"): the
    /// planner names the one open task due in this span, when the store has exactly one.
    public var dueWithin: Range<Date>?
    /// The item is named as the next one due ("delete my next meeting"): the planner names the
    /// open task of that kind due soonest from now, when the store has one.
    public var dueNext = false
    /// The list a new task was put on ("add pencils to the school supplies list"): the planner
    /// files it into the store's project of that name, when the store has one.
    public var list: String?

    public init(_ tool: ToolName, _ args: [String: JSONValue] = [:], subject: String? = nil, pronoun: Bool = false) {
        self.tool = tool
        self.args = args
        self.subject = subject
        self.pronoun = pronoun
    }

    /// The argument that names the item this tool acts on, when it names one by title.
    var referenceArgument: String? {
        switch tool {
        case .completeTask, .reopenTask, .deleteTask, .rescheduleTask, .snoozeTask, .setPriority, .setRecurrence,
             .updateTask, .completeMilestone, .appendNote:
            return "title"
        case .addDependency: return "task"
        case .projectStatus, .projectBlockers, .addMilestone, .summarize: return "project"
        default: return nil
        }
    }
}
