/// Every tool, in a fixed order (the order of the man page and of `pb-exec --tools`).
public struct ToolRegistry: Sendable {
    public let tools: [AgentTool]

    public static let standard = ToolRegistry(tools: TaskTools.all + ItemTools.all + QueryTools.all + NotesTools.all + CalendarTools.all + SchedulingTools.all + EventTools.all + DraftTools.all + BriefTools.all)

    public func tool(named name: ToolName) -> AgentTool? { tools.first { $0.name == name } }

    public var names: [ToolName] { tools.map(\.name) }
}
