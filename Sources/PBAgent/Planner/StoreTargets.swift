import Foundation
/// What R9 knows of the store: every item a step could change, by kind, and whether a turn is
/// left to undo. The reconciler holds nil when the store was not read (`pb-plan --no-store`).
public struct StoreTargets: Sendable {
    public var tasks: [TitleMatcher.Candidate]
    public var projects: [TitleMatcher.Candidate]
    public var milestones: [TitleMatcher.Candidate]
    public var notes: [TitleMatcher.Candidate]
    /// A turn that is not undone yet is in the journal.
    public var canUndo: Bool
    /// Each task's due as stored (ISO 8601 date, or instant with its offset), by reference, so a
    /// move to another day can keep the time it had.
    public var dues: [String: String] = [:]
    /// The events of PocketBrains' own calendar (what `schedule` wrote), by UID, and when each starts.
    public var events: [TitleMatcher.Candidate] = []
    /// The project (list) each task is on, by reference: "which item of my shopping list?".
    public var taskProjects: [String: String] = [:]
    public var eventStarts: [String: Date] = [:]

    public init(tasks: [TitleMatcher.Candidate] = [], projects: [TitleMatcher.Candidate] = [], milestones: [TitleMatcher.Candidate] = [],
                notes: [TitleMatcher.Candidate] = [], canUndo: Bool = false) {
        self.tasks = tasks
        self.projects = projects
        self.milestones = milestones
        self.notes = notes
        self.canUndo = canUndo
    }

    /// The first event of the own calendar starting at or after `now`: of a title when one is
    /// given (found whole when `exactly`, else any fit), within the days `on`...`until`, or the
    /// one `uid` names. What "the next event" means to the planner, its question and its pin.
    public func firstEventToCome(after now: Date, zone: TimeZone, title: String? = nil, exactly: Bool = false,
                                 on: String? = nil, until: String? = nil, uid: String? = nil) -> (ref: String, title: String, start: Date)? {
        let matcher = TitleMatcher(preferOpen: true)
        let until = until ?? on
        return events.compactMap { e -> (ref: String, title: String, start: Date)? in
            guard let start = eventStarts[e.ref], start >= now, uid == nil || e.ref == uid else { return nil }
            if let title {
                let fit = matcher.match(title, in: [e])
                if exactly { guard case .found = fit else { return nil } } else if fit == .none { return nil }
            }
            let day = ISOMoment.dayString(start, zone: zone)
            if let on, let until, !(on...until).contains(day) { return nil }
            return (e.ref, e.title, start)
        }.min { $0.start < $1.start }
    }

    /// A store with nothing in it (or none yet): nothing a step could wrongly change.
    public var isEmpty: Bool { tasks.isEmpty && projects.isEmpty && milestones.isEmpty && notes.isEmpty }

    public static let empty = StoreTargets()

    /// Reads them from an open store.
    public init(_ store: AgentStore) throws {
        self.init(tasks: try store.tasks().map { .init(ref: $0.ref, title: $0.title, open: $0.isOpen) },
                  projects: try store.projects().map { .init(ref: $0.ref, title: $0.title, open: $0.status == "active") },
                  milestones: try store.milestones().map { .init(ref: $0.ref, title: $0.title, open: $0.status == "open") },
                  notes: try store.notes().map { .init(ref: $0.ref, title: $0.title, open: true) },
                  canUndo: try store.lastOpenGroup() != nil)
        for t in try store.tasks() {
            if let due = t.due { dues[t.ref] = due }
            if let p = t.projectID { taskProjects[t.ref] = "project:\(p)" }
        }
        if let data = try store.fileContent(SchedulingTools.ownCalendar(store)) {
            for e in EventTools.ownEvents(String(decoding: data, as: UTF8.self), zone: .current) {
                events.append(.init(ref: e.uid, title: e.title, open: true))
                eventStarts[e.uid] = e.start
            }
        }
    }
}
