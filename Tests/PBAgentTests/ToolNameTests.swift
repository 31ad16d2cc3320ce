import Foundation
import Testing
import PBCore
@testable import PBAgent

/// The planner's tool names and pb-exec's registry are one vocabulary, and what the reconciler and
/// the executor know of a tool (destructive, capture, names a new item) agrees with what the tool does.
@Suite struct ToolNameTests {
    let registry = ToolRegistry.standard

    @Test("every tool the planner can write is one pb-exec runs, and every tool pb-exec runs can be planned")
    func oneVocabulary() {
        let planned = Set(ToolName.allCases)
        // undo and redo run through the undo engine, not the registry.
        let run = Set(registry.names).union(ToolName.allCases.filter(\.takesBackATurn))
        #expect(planned == run, "only planned: \(planned.subtracting(run).map(\.rawValue).sorted()); only run: \(run.subtracting(planned).map(\.rawValue).sorted())")
        #expect(registry.names.count == Set(registry.names).count, "a tool registered twice")
    }

    @Test("a tool that destroys, changes or makes something is one that writes; one a capture may propose never destroys")
    func propertiesAgreeWithTheTools() throws {
        for tool in ToolName.allCases where !tool.takesBackATurn {
            let registered = try #require(registry.tool(named: tool))
            if tool.destructive || tool.changesTask || tool.createsItem || tool.askedFirst {
                #expect(registered.mutates, "\(tool.rawValue) changes the store but is registered as read-only")
            }
            if tool.capture { #expect(!tool.destructive, "\(tool.rawValue): a capture only adds") }
            if tool.namesNewItem { #expect(tool.capture, "\(tool.rawValue) names a new item, so a capture may propose it") }
        }
    }

    @Test("a plan step naming no tool there is is bad input, listing the tools pb-exec runs; a name reads back as written")
    func unknownToolIsBadInput() throws {
        let json = #"{"steps":[{"n":1,"tool":"create_reminder","args":{"title":"call Sam"}}]}"#
        #expect(throws: RecordError.badField(name: "steps[0].tool",
                                             reason: "unknown tool 'create_reminder' (known: \(registry.names.map(\.rawValue).joined(separator: ", ")))")) {
            try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8))
        }
        #expect(throws: RecordError.badField(name: "steps[1].tool",
                                             reason: "unknown tool 'Create_Task' (known: \(registry.names.map(\.rawValue).joined(separator: ", ")))")) {
            try RecordCodec().decode(PlanRecord.self, from: Data(#"{"steps":[{"tool":"agenda"},{"tool":"Create_Task"}]}"#.utf8))
        }
        for tool in ToolName.allCases {
            let step = try RecordCodec().decode(PlanRecord.self, from: Data(#"{"steps":[{"tool":"\#(tool)"}]}"#.utf8)).steps[0]
            #expect(step.tool == tool)
            #expect("\(tool)" == tool.rawValue, "messages write the tool's own name")
        }
    }
}
