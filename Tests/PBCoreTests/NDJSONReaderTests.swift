import Foundation
import Testing
@testable import PBCore

/// A class so that each test's files are removed when its instance goes.
@Suite final class NDJSONReaderTests {
    private var files: [String] = []
    deinit { for path in files { try? FileManager.default.removeItem(atPath: path) } }

    func reader(_ text: String) throws -> NDJSONReader {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pb-reader-\(UUID().uuidString).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        files.append(path)
        return try NDJSONReader(path: path)
    }

    @Test func numbersLinesAndSkipsBlanks() throws {
        let lines = Array(try reader("{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}"))
        #expect(lines.map(\.number) == [1, 4, 5])
        #expect(lines.map(\.text) == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
    }

    @Test func longLinesCrossBufferBoundaries() throws {
        let long = String(repeating: "x", count: 200_000)
        let lines = Array(try reader("\"\(long)\"\n\"y\"\n"))
        #expect(lines.count == 2)
        #expect(lines[0].data.count == 200_002)
    }

    @Test func linesPastTheLimitAreCountedNotKept() throws {
        let r = try reader(String(repeating: "x", count: 200_000) + "\nshort\n" + String(repeating: "y", count: 11) + "\n")
        r.maxLineBytes = 10
        let lines = Array(r)
        #expect(lines.map(\.number) == [1, 2, 3])
        #expect(lines.map(\.overLength) == [200_000, nil, 11])
        #expect(lines[0].data.count == 10)
        #expect(lines[1].text == "short")
    }

    @Test func theLoopRefusesAnOverLongLineAsBadInput() throws {
        let r = try reader(String(repeating: "x", count: 100) + "\nok\n")
        r.maxLineBytes = 50
        var seen: [String] = []
        #expect(throws: ToolFailure.self) { _ = try RecordLoop(keepGoing: false).run([r]) { seen.append($0.text) } }
        #expect(seen.isEmpty)
        #expect(RecordLoop.overLengthMessage(100, limit: 50).contains("the line is 100 bytes"))
    }

    @Test func missingFileIs66() {
        do {
            _ = try NDJSONReader(path: "/nonexistent/x.jsonl")
            Issue.record("opened")
        } catch let f as ToolFailure {
            #expect(f.code == .cannotOpen)
            #expect(f.message.hasPrefix("/nonexistent/x.jsonl: "))
        } catch { Issue.record("\(error)") }
    }

    @Test func batchesTakeWhatIsReady() throws {
        let r = try reader("1\n2\n3\n")
        #expect(r.nextBatch(max: 2).map(\.text) == ["1", "2"])
        #expect(r.nextBatch(max: 2).map(\.text) == ["3"])
        #expect(r.nextBatch(max: 2).isEmpty)
    }
}
