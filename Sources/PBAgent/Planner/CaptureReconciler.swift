import Foundation
import PBCore

/// Applies the reconciliation rules to the new tasks of a plan, in id order, and records on each
/// rule what it changed. Only `create_task` intents are touched: commands name existing items.
public struct CaptureReconciler: Sendable {
    public let dates: DateSlot

    public init(dates: DateSlot) {
        self.dates = dates
    }

    /// R1 (dedupe) and R4 (priority floor) apply to captures only: a single request means what it says.
    public func reconcile(_ intents: [PlannedIntent], capture: Bool) -> ([PlannedIntent], [ReconciliationRule]) {
        var r1 = ReconciliationRule.dedupe, r2 = ReconciliationRule.dateValidation
        var r3 = ReconciliationRule.pastDates, r4 = ReconciliationRule.priorityFloor
        var out: [PlannedIntent] = []
        var seen: [String: Int] = [:]
        let rank = ["none": 0, "low": 1, "medium": 2, "high": 3]
        for intent in intents {
            guard intent.tool == .createTask, case .string(let title)? = intent.args["title"] else {
                out.append(intent)
                continue
            }
            let key = CaptureReconciler.key(title)
            if capture, let at = seen[key] {
                // Keep the first; it takes the earlier due and the higher priority of the two.
                var kept = out[at]
                if kept.args["due"] == nil, let due = intent.args["due"] {
                    kept.args["due"] = due
                    kept.args["due_grain"] = intent.args["due_grain"]
                }
                if let p = intent.args["priority"]?.stringValue, rank[p] ?? 0 > rank[kept.args["priority"]?.stringValue ?? "none"] ?? 0 {
                    kept.args["priority"] = .string(p)
                }
                out[at] = kept
                r1.changes.append("merged a repeated \"\(title)\" into step \(at + 1)")
                continue
            }
            var t = intent
            if case .string(let notes)? = t.args["notes"], notes.hasPrefix("date left out: ") {
                r2.changes.append("\"\(title)\": \(notes.dropFirst("date left out: ".count))")
            }
            let today = dates.format.date(dates.parser.now)
            if case .string(let due)? = t.args["due"], String(due.prefix(10)) < today {
                t.args["due"] = .string(today)
                t.args["due_grain"] = .string("day")
                r3.changes.append("\"\(title)\": \(due) is past, moved to \(today)")
            }
            if capture, t.args["priority"] == nil, case .string(let due)? = t.args["due"] {
                var cal = Calendar(identifier: .gregorian)
                cal.timeZone = dates.parser.timeZone
                let tomorrow = dates.format.date(cal.date(byAdding: .day, value: 1, to: dates.parser.now)!)
                if String(due.prefix(10)) <= tomorrow {
                    t.args["priority"] = .string("medium")
                    r4.changes.append("\"\(title)\": due \(due), priority raised to medium")
                }
            }
            seen[key] = out.count
            out.append(t)
        }
        return (out, [r1, r2, r3, r4])
    }

    /// Titles that differ only in case, spacing, articles or end punctuation are the same item.
    static func key(_ title: String) -> String {
        title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .filter { !["the", "a", "an", "my"].contains($0) }.joined(separator: " ")
    }
}
