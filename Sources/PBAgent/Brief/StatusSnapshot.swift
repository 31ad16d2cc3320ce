import Foundation
import PBCore

/// A small JSON file under PB_HOME (`status.json`) for status bars and widgets: the counts of the
/// morning brief, a short `text`, a `tooltip` and a `class`, the fields waybar's custom modules
/// read (`return-type: json`); i3status and polybar read `.text` with jq. It is rewritten whole
/// and atomically after every change to the store (pb-exec, pb-undo) and by `pb-brief --status`,
/// which a timer runs at the start of the day so the counts follow the date.
public enum StatusSnapshot {
    public static func path(home: String) -> String {
        (home as NSString).appendingPathComponent("status.json")
    }

    /// The snapshot's record: `kind` status.
    public static func record(_ brief: MorningBrief) -> JSONValue {
        let zone = brief.clock.zone
        let open = brief.dueOpen.count
        var text: String
        if brief.dueToday.isEmpty, brief.overdue.isEmpty {
            text = "nothing due"
        } else if open == 0, brief.overdue.isEmpty {
            text = "all done"
        } else {
            text = [open > 0 ? "\(open) due" : nil, brief.overdue.isEmpty ? nil : "\(brief.overdue.count) overdue"]
                .compactMap { $0 }.joined(separator: " · ")
        }
        var tooltip = [brief.headline]
        if !brief.overdue.isEmpty { tooltip.append("overdue: " + brief.overdue.prefix(5).map(\.title).joined(separator: ", ")) }
        if !brief.dueOpen.isEmpty { tooltip.append("due today: " + brief.dueOpen.prefix(5).map(\.title).joined(separator: ", ")) }
        let className = !brief.overdue.isEmpty ? "overdue" : open > 0 ? "due" : "clear"
        var o: [String: JSONValue] = [
            "kind": .string("status"),
            "day": .string(brief.day),
            "updated": .string(ISOMoment.format(brief.clock.now, zone: zone)),
            "text": .string(text),
            "tooltip": .string(tooltip.joined(separator: "\n")),
            "class": .string(className),
            "headline": .string(brief.headline),
            "counts": brief.json["counts"] ?? .null,
        ]
        if let t = brief.overdue.first ?? brief.dueOpen.first {
            o["next_task"] = .object(["id": .string(t.ref), "title": .string(t.title), "due": t.due.map(JSONValue.string) ?? .null])
        } else {
            o["next_task"] = .null
        }
        if let e = brief.upcoming.first {
            o["next_event"] = .object(["title": .string(e.title), "start": .string(ISOMoment.format(e.start, zone: zone)),
                                       "end": .string(ISOMoment.format(e.end, zone: zone))])
        } else {
            o["next_event"] = .null
        }
        return .object(o)
    }

    /// Writes the snapshot of `brief` to `status.json` in `home`, atomically.
    public static func write(_ brief: MorningBrief, home: String) throws {
        var data = try RecordCodec().encodeValue(record(brief))
        data.append(0x0A)
        try AtomicFile.write(data, to: path(home: home))
    }

    /// After a change to the store: the snapshot made anew from it. A snapshot that cannot be
    /// made or written is said on standard error and changes nothing else: the store's change
    /// stands (a status bar showing old counts is not worth failing a committed plan for).
    public static func refresh(store: AgentStore, clock: AgentClock, calendarDirectory: String?, workHours: String?) {
        let home = (store.path as NSString).deletingLastPathComponent
        do {
            let brief = try MorningBrief.make(store: store, home: home, clock: clock, calendarDirectory: calendarDirectory, workHours: workHours)
            try write(brief, home: home)
        } catch {
            Diagnostics.shared.warning("\(path(home: home)): the status snapshot was not rewritten: \(error)")
        }
    }
}
