import Foundation
import PBCore
@testable import PBAgent

/// A fresh store in a temporary PB_HOME per test, and plans written as JSON text.
final class AgentFixture {
    let home: URL
    let store: AgentStore
    /// Thursday 26 November 2026, 18:00 UTC.
    var now = "2026-11-26T18:00:00Z"

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        store = try AgentStore(path: home.appendingPathComponent("store.sqlite").path)
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    /// Runs one plan given as JSON (kind and now may be left out).
    @discardableResult
    func exec(_ json: String, dryRun: Bool = false) throws -> ResultRecord {
        let plan = try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8))
        return try PlanExecutor(store: store, calendarDirectory: home.path, dryRun: dryRun, defaultNow: now).execute(plan)
    }

    /// One step as a plan.
    @discardableResult
    func step(_ tool: String, _ args: String = "{}") throws -> StepResult {
        try exec(#"{"steps":[{"n":1,"tool":"\#(tool)","args":\#(args)}]}"#).steps[0]
    }

    @discardableResult
    func undo(_ scope: UndoEngine.Scope = .last) throws -> UndoRecord {
        let clock = try AgentClock(text: now)
        return try UndoEngine(store: store).undo(scope, now: clock.now, zone: clock.zone)
    }

    @discardableResult
    func redo(dryRun: Bool = false) throws -> UndoRecord {
        let clock = try AgentClock(text: now)
        return try UndoEngine(store: store).redo(dryRun: dryRun, now: clock.now, zone: clock.zone)
    }

    func task(_ id: Int64) throws -> TaskItem? { try store.task(id) }

    func count(_ table: String) throws -> Int64 { try store.scalarInt("SELECT count(*) FROM \(table)") ?? -1 }
}

extension StepResult {
    var refID: String? { ref?["id"]?.stringValue }
}
