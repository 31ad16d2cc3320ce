import Foundation
import Testing
@testable import PBAgent
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
        #expect(try DateCommand.parser(try options([]), environment: [:]).timeZone.secondsFromGMT() == 0)
    }
}
