import Foundation
import Testing
@testable import PBDates
@testable import PBCore

@Suite struct DateCommandTests {
    func options(_ args: [String]) throws -> ParsedOptions {
        guard case .run(let o) = try OptionParser(DateCommand.spec).parse(args) else { throw ToolFailure(.usage, "no run") }
        return o
    }

    func encode(_ r: DateRecord) throws -> String { String(decoding: try RecordCodec().encode(r), as: UTF8.self) }

    @Test func recordsPassFieldsThroughAndWriteNullMatch() throws {
        let p = try DateCommand.parser(try options(["--now", "2026-11-25T10:00:00Z", "--time-zone", "UTC"]))
        let f = DateValueFormat(timeZone: p.timeZone)
        let line = InputLine(data: Data(#"{"kind":"doc","text":"lunch tomorrow","id":7}"#.utf8), source: "<stdin>", number: 1)
        let rs = try DateCommand.records(for: line, parser: p, format: f)
        #expect(try encode(rs[0]) == #"{"alternatives":[],"end":14,"grain":"day","kind":"date","match":"tomorrow","start":6,"text":"lunch tomorrow","value":"2026-11-26","id":7}"#)
        let none = try DateCommand.records(for: InputLine(data: Data("nothing".utf8), source: "<stdin>", number: 2), parser: p, format: f)
        #expect(try encode(none[0]) == #"{"kind":"date","match":null,"text":"nothing"}"#)
    }

    @Test func badInputIsRecordError() throws {
        let p = try DateCommand.parser(try options(["--now", "2026-11-25T10:00:00Z"]), environment: [:])
        let f = DateValueFormat(timeZone: p.timeZone)
        #expect(throws: RecordError.missingField("text")) {
            try DateCommand.records(for: InputLine(data: Data(#"{"id":1}"#.utf8), source: "x", number: 1), parser: p, format: f)
        }
    }

    @Test func optionErrorsAreUsage() throws {
        for args in [["--now", "yesterday"], ["--time-zone", "Mars/Base"], ["--week-start", "friday"], ["--date-order", "dym"], ["--now", "2026-02-30"]] {
            do {
                _ = try DateCommand.parser(try options(args), environment: [:])
                Issue.record("accepted \(args)")
            } catch let f as ToolFailure {
                #expect(f.code == .usage)
            }
        }
    }

    @Test func timeZoneFromEnvironmentAndNowWithoutOffset() throws {
        let p = try DateCommand.parser(try options(["--now", "2026-11-25T10:00"]), environment: ["TZ": "Europe/Lisbon"])
        #expect(p.timeZone.identifier == "Europe/Lisbon")
        #expect(DateValueFormat(timeZone: p.timeZone).instant(p.now) == "2026-11-25T10:00:00+00:00")
        let q = try DateCommand.parser(try options(["--now", "2026-07-01T10:00"]), environment: ["TZ": "Europe/Lisbon"])
        #expect(DateValueFormat(timeZone: q.timeZone).instant(q.now) == "2026-07-01T10:00:00+01:00")
    }

    @Test func withoutTZTheSystemZoneIsRead() throws {
        let la = TimeZone(identifier: "America/Los_Angeles")!
        let p = try DateCommand.parser(try options(["--now", "2026-12-06T23:30:00-08:00"]), environment: [:], systemZone: { la })
        #expect(p.timeZone.identifier == "America/Los_Angeles")
        // Tomorrow at 9 is 9 in Los Angeles on the 7th, not 9 UTC on the 8th.
        let value = p.firstMatch(in: "tomorrow at 9am")?.value
        #expect(value.map { DateValueFormat(timeZone: p.timeZone).instant($0) } == "2026-12-07T09:00:00-08:00")
        // TZ wins over the system; --time-zone over both.
        let q = try DateCommand.parser(try options([]), environment: ["TZ": "UTC"], systemZone: { la })
        #expect(q.timeZone.secondsFromGMT() == 0)
        let r = try DateCommand.parser(try options(["--time-zone", "+02:00"]), environment: ["TZ": "UTC"], systemZone: { la })
        #expect(r.timeZone.secondsFromGMT() == 7200)
    }

    @Test func systemZoneIsWhereLocaltimeLinks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pb-localtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("localtime").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Kolkata")
        #expect(DateValueFormat.systemTimeZone(localtime: link).identifier == "Asia/Kolkata")
        #expect(DateValueFormat.systemTimeZone(localtime: dir.appendingPathComponent("none").path).secondsFromGMT() == 0)
    }

    @Test func posixOffsetsReadAsTheCLibraryReadsThem() {
        #expect(DateValueFormat.timeZone(named: "UTC+2")?.secondsFromGMT() == -7200, "two hours behind UTC, as date(1) reads it")
        #expect(DateValueFormat.timeZone(named: "GMT-5:30")?.secondsFromGMT() == 19800)
        #expect(DateValueFormat.timeZone(named: "+02:00")?.secondsFromGMT() == 7200, "an offset alone is the offset")
        #expect(DateValueFormat.timeZone(named: "UTC+99") == nil)
    }

    @Test func theLocalZoneIsTZAsPbDateReadsIt() throws {
        #expect(DateValueFormat.localTimeZone(environment: ["TZ": "UTC+2"]).secondsFromGMT() == -7200)
        #expect(DateValueFormat.localTimeZone(environment: ["TZ": "<+03>-3"]).secondsFromGMT() == 10800)
    }
}
