import Foundation
import PBAgent
import PBCore

/// What the product knows that a general recogniser does not, as a decoder prompt: how requests
/// to the agent are phrased, and the names the user's store holds (projects, open tasks).
///
/// Whisper reads a prompt as text said just before, so its words and their spelling become
/// likelier: "snooze" over "use", "MOT" as the user writes it, a project called "Garden". The
/// phrasing is written here once (sentences in the agent's grammar about none of the user's
/// things); the store's names are read from it at each run, newest first, within a budget that
/// leaves most of the decoder's 448 positions to the speech.
public struct SpeechVocabulary: Sendable {
    /// Requests in the agent's phrasing, one for each kind of change the agent makes and each kind
    /// of question it answers: tasks made, done, snoozed, moved and repeated; notes; projects;
    /// the agenda; undo; contacts; drafts. A small model hears a command word it was just shown
    /// ("snooze", "jot down", "overdue", "undo") where it would write a commoner word alike.
    static let phrasing = "Remind me to book the car in for its service on Thursday. Add a task: order more light bulbs. "
        + "Todo: clear the gutters. Mark bleed the radiators as done. Paid the council tax. Snooze the insurance letter. "
        + "Reschedule the dog's grooming to next week. Make descale the kettle repeat every month. "
        + "Jot down that the boiler code is on the door. Append \"check the fuses\" to the house note. "
        + "Create a project called Kitchen. What's due this week? What is overdue? Undo that. "
        + "What's the plumber's phone number? Email Dad saying the parcel came."

    public let projects: [String]
    public let tasks: [String]

    public init(projects: [String] = [], tasks: [String] = []) {
        self.projects = projects
        self.tasks = tasks
    }

    /// The store's open projects and tasks, newest first; none when there is no store yet.
    public static func read(_ environment: PBEnvironment) -> SpeechVocabulary {
        let path = AgentStore.defaultPath(environment)
        guard FileManager.default.fileExists(atPath: path), let store = try? AgentStore(readingOnly: path) else { return SpeechVocabulary() }
        let projects = ((try? store.projects(where: "status = 'open'")) ?? []).reversed().map(\.title)
        let tasks = ((try? store.tasks(where: "status = 'open'")) ?? []).reversed().map(\.title)
        return SpeechVocabulary(projects: Array(projects), tasks: Array(tasks))
    }

    /// Characters of a prompt: about four a token, so some 200 of the 223 positions a prompt may
    /// take (pb-listen gives up names when the tokens are more).
    public static let budget = 800

    /// The prompt: the phrasing, then as many of the store's names as keep it within `characters`.
    public func prompt(characters: Int = budget) -> String {
        var text = Self.phrasing
        func add(_ label: String, _ names: [String]) {
            var taken: [String] = []
            for name in names where !name.isEmpty {
                let next = " \(label): " + (taken + [name]).joined(separator: ", ") + "."
                guard text.count + next.count <= characters else { break }
                taken.append(name)
            }
            if !taken.isEmpty { text += " \(label): " + taken.joined(separator: ", ") + "." }
        }
        add("Projects", projects)
        add("Tasks", tasks)
        return text
    }
}
