/// The words the date grammar knows, in one place.
public enum DateVocabulary {
    public static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                             "september", "october", "november", "december"]

    /// Month from a full name or an abbreviation ("sept" too). "may" and "march" are also ordinary
    /// words: the grammar only takes a month name next to a day number, a year, or a cue word.
    static func month(_ word: String) -> Int? {
        if let i = monthNames.firstIndex(of: word) { return i + 1 }
        let short: [String: Int] = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                                    "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12]
        return short[word]
    }

    /// Counting words up to twenty, and the tens up to ninety ("twenty one" is handled by the reader).
    public static let numberWords: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
        "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]

    /// Ordinal words for days of the month ("the third of May").
    static let ordinalWords: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
        "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
        "twentieth": 20, "thirtieth": 30,
    ]

    /// Units of "in N units" and "N units ago".
    public enum Unit: String {
        case second, minute, hour, day, week, fortnight, month, year, decade
    }

    public static func unit(_ word: String) -> Unit? {
        let table: [String: Unit] = [
            "second": .second, "seconds": .second, "sec": .second, "secs": .second,
            "minute": .minute, "minutes": .minute, "min": .minute, "mins": .minute,
            "hour": .hour, "hours": .hour, "hr": .hour, "hrs": .hour, "h": .hour,
            "day": .day, "days": .day,
            "week": .week, "weeks": .week, "wk": .week, "wks": .week,
            "fortnight": .fortnight, "fortnights": .fortnight,
            "month": .month, "months": .month, "mo": .month, "mos": .month,
            "year": .year, "years": .year, "yr": .year, "yrs": .year,
            "decade": .decade, "decades": .decade,
        ]
        return table[word]
    }

    /// One-letter units, read only glued to their number: "1d 2hr 5m", "in 5m", "3w".
    static func compactUnit(_ word: String) -> Unit? {
        ["d": .day, "m": .minute, "w": .week, "s": .second][word]
    }

    static let ordinalSuffixes: Set<String> = ["st", "nd", "rd", "th"]
}
