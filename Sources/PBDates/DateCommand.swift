import Foundation
import PBCore

/// pb-date: finds date phrases in text lines or records and writes one `date` record per phrase.
public enum DateCommand {
    /// A line is at most this long (its text or its record): the phrase reader's work grows
    /// faster than the text, and pb-plan reads its requests under the same bound.
    public static let maxLineBytes = 65_536

    public static let spec = CommandSpec(
        name: "pb-date",
        summary: "find and resolve natural-language dates in text lines or records",
        operands: "[FILE ...]",
        options: [
            OptionSpec("now", value: "TIME", help: "resolve against this ISO 8601 time (default: the current time)"),
            OptionSpec("time-zone", value: "TZ", help: "time zone: IANA name, UTC or +HH:MM (default: $TZ, else the system's)"),
            OptionSpec("week-start", value: "DAY", help: "monday or sunday: what 'this week' and 'next friday' count from (default monday)"),
            OptionSpec("date-order", value: "ORDER", help: "dmy, mdy or ymd: how 03/04/2026 reads (default dmy)"),
            OptionSpec("keep-going", short: "k", help: "turn a bad input line into an error record and go on (exit 65 at the end)"),
        ])

    /// The parser the options describe. Without `--time-zone` or `TZ` the zone is the system's
    /// (`/etc/localtime`), as date(1) and pb-exec read it: a user in Los Angeles who never set `TZ`
    /// means 9am in Los Angeles, not in UTC.
    public static func parser(_ o: ParsedOptions, environment: [String: String] = ProcessInfo.processInfo.environment,
                              systemZone: () -> TimeZone = { DateValueFormat.systemTimeZone() },
                              clock: () -> Date = Date.init) throws -> NaturalDateParser {
        let zone: TimeZone
        if let name = o.value("time-zone") {
            guard let z = DateValueFormat.timeZone(named: name) else { throw ToolFailure(.usage, "--time-zone: unknown time zone '\(name)'") }
            zone = z
        } else if let name = environment["TZ"], !name.isEmpty {
            guard let z = DateValueFormat.timeZone(named: name) else {
                throw ToolFailure(.usage, "TZ: unknown time zone '\(name)' (give --time-zone)")
            }
            zone = z
        } else {
            zone = systemZone()
        }
        var now = clock()
        if let text = o.value("now") {
            guard let d = DateValueFormat(timeZone: zone).parseInstant(text) else {
                throw ToolFailure(.usage, "--now: expected an ISO 8601 time such as 2026-11-29T10:00:00Z, got '\(text)'")
            }
            now = d
        }
        let week: Weekday = try o.choice("week-start", ["monday", "sunday"], default: "monday") == "sunday" ? .sunday : .monday
        let order = DateOrder(rawValue: try o.choice("date-order", ["dmy", "mdy", "ymd"], default: "dmy"))!
        return NaturalDateParser(now: now, timeZone: zone, weekStart: week, dateOrder: order)
    }

    public static func run(_ o: ParsedOptions) throws -> ExitCode {
        let parser = try parser(o)
        let format = DateValueFormat(timeZone: parser.timeZone)
        // The same bound as pb-plan's: a line of 50 MB once took pb-date past 1 GB of memory.
        let readers = try RecordLoop.readers(for: o.operands, maxLineBytes: maxLineBytes)
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let writer = NDJSONWriter.standardOutput
        return try loop.run(readers) { line in
            for record in try records(for: line, parser: parser, format: format) {
                if let error = record.error { Diagnostics.shared.error(error, at: line) }
                try writer.write(record)
            }
        }
    }

    /// The output records for one input line: a plain text line, or a JSON object with `text`
    /// (any kind; its other fields pass through).
    public static func records(for line: InputLine, parser: NaturalDateParser, format: DateValueFormat) throws -> [DateRecord] {
        let text: String
        var extra: [String: JSONValue] = [:]
        if line.data.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
            let object = try RecordCodec().decodeObject(line.data)
            switch object["text"] {
            case .string(let s)?: text = s
            case nil, .null?: throw RecordError.missingField("text")
            default: throw RecordError.badField(name: "text", reason: "expected a string")
            }
            extra = object.filter { !DateRecord.knownKeys.contains($0.key) }
        } else {
            text = line.text
        }
        let matches = parser.matches(in: text)
        if matches.isEmpty {
            var r = DateRecord(text: text)
            r.extra = extra
            return [r]
        }
        return matches.map {
            var r = DateRecord(text: text, match: $0, format: format)
            r.extra = extra
            return r
        }
    }
}
