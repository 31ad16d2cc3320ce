/// How an all-numeric date such as `03/04/2026` is read. A four-digit first field is always
/// year-month-day, whatever the order (`2026/04/03`).
public enum DateOrder: String, CaseIterable, Sendable {
    /// 27/01/2027: day, month, year (the default: most of the world).
    case dayMonthYear = "dmy"
    /// 01/27/2027: month, day, year (the United States).
    case monthDayYear = "mdy"
    /// 2027/01/27 or 27/01/27 read as year, month, day.
    case yearMonthDay = "ymd"
}
