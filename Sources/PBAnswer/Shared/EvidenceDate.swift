import PBCore

/// When a memory's evidence says something happened, in words: the time its item refers to
/// ("On 7 May 2023", "In May 2023", "In 2022", "Between 1 and 7 May 2023"), else the day it
/// was said ("Said on 8 May 2023"). pb-answer opens an answer to a "when" question with it;
/// pb-verify counts its words and numbers as the evidence's own, since they come from the
/// evidence's `time` and `said` fields, not from the writer.
public enum EvidenceDate {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// The phrase for a piece of evidence; nil for a document's (no `time` or `said`).
    public static func phrase(of e: Evidence) -> String? { phrase(time: e.time, said: e.said) }

    public static func phrase(time: String?, said: String?) -> String? {
        if let time, let p = referred(time) { return p }
        if let said, let d = Day(said.prefix(10)) { return "Said on \(d.text)" }
        return nil
    }

    /// "2023-05-07" or "2023-05-01/2023-05-31", as pb-recall writes a hit's `time`.
    static func referred(_ time: String) -> String? {
        let parts = time.split(separator: "/")
        guard let a = parts.first.flatMap({ Day($0) }) else { return nil }
        guard parts.count == 2, let b = Day(parts[1]), b != a else { return parts.count == 1 ? "On \(a.text)" : nil }
        if a.year == b.year, a.day == 1, b.day == Day.length(b.year, b.month) {
            if a.month == 1, b.month == 12 { return "In \(a.year)" }
            if a.month == b.month { return "In \(months[a.month - 1]) \(a.year)" }
            return "Between \(months[a.month - 1]) and \(months[b.month - 1]) \(a.year)"
        }
        if a.year == b.year, a.month == b.month { return "Between \(a.day) and \(b.text)" }
        if a.year == b.year { return "Between \(a.day) \(months[a.month - 1]) and \(b.text)" }
        return "Between \(a.text) and \(b.text)"
    }

    struct Day: Equatable {
        var year: Int, month: Int, day: Int

        init?(_ iso: Substring) {
            let f = iso.split(separator: "-")
            guard iso.count == 10, f.count == 3, let y = Int(f[0]), let m = Int(f[1]), let d = Int(f[2]),
                  (1...12).contains(m), d >= 1, d <= Self.length(y, m) else { return nil }
            year = y; month = m; day = d
        }

        var text: String { "\(day) \(EvidenceDate.months[month - 1]) \(year)" }

        static func length(_ y: Int, _ m: Int) -> Int {
            switch m {
            case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
    }
}
