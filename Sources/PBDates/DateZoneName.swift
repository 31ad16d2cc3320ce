import Foundation

/// Time zones named after a time in the text: "3pm GMT", "9am PST", "10:30 CET", "noon IST",
/// "GMT+2", "UTC-05:00", "5pm eastern time". The time is read in that zone and the result given
/// in the user's zone.
///
/// An abbreviation is its fixed offset, as written ("EST" is UTC-5 even in July; "EDT" is the
/// summer one). The words "eastern", "central", "mountain" and "pacific" (with "time") follow the
/// US zones' daylight saving. Abbreviations that name several zones are read as the one most
/// people mean in English text, documented in pb-date(1): IST is India (+05:30), CST US Central
/// (-06:00), BST British Summer Time (+01:00).
enum DateZoneName {
    static let fixed: [String: Int] = [
        "utc": 0, "gmt": 0, "wet": 0, "west": 60, "bst": 60, "ist": 330, "cet": 60, "cest": 120, "eet": 120,
        "eest": 180, "msk": 180, "sgt": 480, "hkt": 480, "awst": 480, "jst": 540, "kst": 540, "acst": 570,
        "aest": 600, "aedt": 660, "nzst": 720, "nzdt": 780, "est": -300, "edt": -240, "cst": -360, "cdt": -300,
        "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "akst": -540, "akdt": -480, "hst": -600,
    ]

    static let regional: [String: String] = [
        "eastern": "America/New_York", "central": "America/Chicago", "mountain": "America/Denver",
        "pacific": "America/Los_Angeles",
        // "23:00 ET": the same zones by their short names, which follow daylight saving.
        "et": "America/New_York", "ct": "America/Chicago", "mt": "America/Denver", "pt": "America/Los_Angeles",
    ]
}

extension DatePhraseReader {
    /// A zone after a time at `i`: the zone and the index of its last token.
    func zoneName(at i: Int) -> (TimeZone, Int)? {
        guard let w = word(i) else { return nil }
        if let minutes = DateZoneName.fixed[w] {
            var offset = minutes
            var last = i
            // "GMT+2", "UTC-05:00", "UTC+5:30".
            if w == "gmt" || w == "utc", let sign = symbol(i + 1), sign == "+" || sign == "-", glued(i + 1) || glued(i + 2),
               var h = number(i + 2) {
                var m = 0
                last = i + 2
                // "+0900" as well as "+09:00" and "+9".
                if digits(i + 2) == 4 { m = h % 100; h /= 100 }
                guard h <= 14, m < 60 else { return nil }
                if symbol(i + 3) == ":", let mm = number(i + 4), mm < 60 { m = mm; last = i + 4 }
                offset = (h * 60 + m) * (sign == "-" ? -1 : 1)
            }
            return TimeZone(secondsFromGMT: offset * 60).map { ($0, last) }
        }
        if let id = DateZoneName.regional[w] {
            if w.count == 2 { return TimeZone(identifier: id).map { ($0, i) } }
            if isWord(i + 1, "time") { return TimeZone(identifier: id).map { ($0, i + 1) } }
        }
        return nil
    }
}
