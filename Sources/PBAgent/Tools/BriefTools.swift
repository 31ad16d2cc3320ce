import Foundation
import PBCore

/// The morning brief as a tool, so "brief me" through pb-do reads the same day as pb-brief.
enum BriefTools {
    static let brief = AgentTool(.brief, "the day at a glance: overdue, due today and how much is done, today's events and free working time, what was done yesterday", mutates: false, arguments: [
        .init("dir", "the folder of .ics files (default: PB_CALENDAR_DIR; PocketBrains' own calendar is always read)"),
        .init("min_free", "the shortest free stretch worth listing, in minutes (default 30)"),
    ], run: { ctx in
        let minFree = try ctx.args.int("min_free", in: 5...1440) ?? 30
        let home = (ctx.store.path as NSString).deletingLastPathComponent
        let b = try MorningBrief.make(store: ctx.store, home: home, clock: ctx.clock, calendarDirectory: try ctx.args.text("dir") ?? ctx.calendarDirectory,
                                      workHours: ctx.workHours, minFree: minFree)
        return ToolOutcome(ref: nil, summary: b.headline, data: .object(b.json))
    })

    static let all = [brief]
}
