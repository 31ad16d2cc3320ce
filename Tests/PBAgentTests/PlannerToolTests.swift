import Testing
import PBCore
@testable import PBAgent

/// The planner's tool names and pb-exec's registry are one vocabulary, and what the reconciler and
/// the executor know of a tool (destructive, capture, names a new item) agrees with what the tool does.
@Suite struct PlannerToolTests {
    let registry = ToolRegistry.standard

    @Test("every tool the planner can write is one pb-exec runs, and every tool pb-exec runs can be planned")
    func oneVocabulary() {
        let planned = Set(PlannerTool.allCases.map(\.rawValue))
        // undo and redo run through the undo engine, not the registry.
        let run = Set(registry.names).union([PlanExecutor.undoTool, PlanExecutor.redoTool])
        #expect(planned == run, "only planned: \(planned.subtracting(run).sorted()); only run: \(run.subtracting(planned).sorted())")
        #expect(registry.names.count == Set(registry.names).count, "a tool registered twice")
    }

    @Test("a tool that destroys, changes or makes something is one that writes; one a capture may propose never destroys")
    func propertiesAgreeWithTheTools() throws {
        for tool in PlannerTool.allCases where tool != .undo && tool != .redo {
            let registered = try #require(registry.tool(named: tool.rawValue))
            if tool.destructive || tool.changesTask || tool.createsItem || tool.askedFirst {
                #expect(registered.mutates, "\(tool.rawValue) changes the store but is registered as read-only")
            }
            if tool.capture { #expect(!tool.destructive, "\(tool.rawValue): a capture only adds") }
            if tool.namesNewItem { #expect(tool.capture, "\(tool.rawValue) names a new item, so a capture may propose it") }
        }
    }
}
