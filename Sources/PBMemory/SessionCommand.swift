import Foundation
import PBAgent
import PBCore
import PBDates

/// pb-session: the turns of a conversation, for follow-ups. At the head of a pipe it resolves
/// each record's `text` against the session's last turn ("and when is it returned?" -> "when is
/// the deposit returned?") and adds `followup`; at its end (`--record`) it passes the records
/// through and keeps each as a turn: what it asked, what it was about, what it named.
public enum SessionCommand {
    public static let spec = CommandSpec(
        name: "pb-session",
        summary: "resolve follow-ups against a session's last turn, or record turns (--record)",
        operands: "[FILE ...]",
        options: [
            OptionSpec("session", value: "NAME", help: "the session (required): $PB_HOME/sessions/NAME.ndjson"),
            OptionSpec("record", help: "pass records through and keep each as a turn of the session"),
            OptionSpec("turns", value: "N", help: "turns a session keeps (default 5)"),
            OptionSpec("keep-going", help: "write an error record for a bad line and go on (exit 65 at the end)"),
        ])

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        guard let name = o.value("session") else { throw ToolFailure(.usage, "--session NAME is required") }
        do { try PBEnvironment.validateLibraryName(name) } catch {
            throw ToolFailure(.usage, "--session: '\(name)' is not a valid session name (letters, digits, '-', '_', '.')")
        }
        let keep = try o.int("turns", default: 5, in: 1...100)
        let file = environment.home.appendingPathComponent("sessions").appendingPathComponent(name + ".ndjson")
        let session = try SessionFile(url: file, keep: keep)
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let writer = NDJSONWriter.standardOutput
        let codec = RecordCodec()
        let recording = o.flag("record")
        let clock = DateValueFormat(timeZone: TimeZone(secondsFromGMT: 0)!)
        let status = try loop.run(try RecordLoop.readers(for: o.operands)) { line in
            let isRecord = line.data.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{")
            var object = isRecord ? try codec.decodeObject(line.data) : ["text": JSONValue.string(line.text)]
            if recording {
                if let turn = try turn(from: object, line: line, time: clock.instant(Date())) { session.append(turn) }
                writer.writeLine(line.data + [0x0A])
                return
            }
            guard case .string(let text)? = object["text"] else { throw RecordError.missingField("text") }
            if let f = FollowUpResolver.resolve(text, after: session.turns) {
                object["text"] = .string(f.resolved)
                object["followup"] = try JSONDecoder().decode(JSONValue.self, from: codec.encodeValue(f))
            }
            try writer.writeValue(object)
        }
        if recording { try session.save() }
        return status
    }

    /// The turn a finished record makes: a query with its answer, or a pb-exec result.
    static func turn(from object: [String: JSONValue], line: InputLine, time: String) throws -> SessionTurn? {
        guard case .string(let text)? = object["text"] else { return nil }
        if object["kind"]?.stringValue == "result" {
            let r = try RecordCodec().decode(ResultRecord.self, from: line.data)
            // An event has no id but its UID: "event:<uid>", which pb-plan cancels by (one taken
            // out, or to be in a dry run, is named by its one UID in `uids`).
            func reference(_ s: StepResult) -> String? {
                if let id = s.ref?["id"]?.stringValue { return id }
                if let uid = s.ref?["uid"]?.stringValue { return "event:" + uid }
                if case .array(let uids)? = s.ref?["uids"], uids.count == 1, let uid = uids[0].stringValue { return "event:" + uid }
                return nil
            }
            let refs = r.steps.compactMap(reference)
            let written = r.steps.filter { $0.entry != nil }.compactMap(reference)
            let focus = written.last ?? refs.last
            // The things of the kind it acted on last: "add 2 tasks" names its tasks, not the project.
            let kind = focus.map { String($0.prefix { $0 != ":" }) }
            var items: [String] = []
            for id in refs where kind == nil || id.hasPrefix(kind! + ":") { if !items.contains(id) { items.append(id) } }
            return SessionTurn(time: time, text: text, subject: focus ?? "", items: items, focus: focus)
        }
        var items: [String] = []
        if case .object(let answer)? = object["answer"], case .array(let citations)? = answer["citations"] {
            for case .object(let c) in citations {
                if let quote = c["quote"]?.stringValue, !items.contains(quote) { items.append(quote) }
            }
        }
        return SessionTurn(time: time, text: text, subject: FollowUpResolver.subject(of: text), items: items, focus: nil)
    }
}

/// A session's turns on disk, newest last, rewritten whole (a temporary file renamed over it) so
/// a killed run leaves the old turns or the new ones, never half a file.
final class SessionFile {
    let url: URL
    let keep: Int
    private(set) var turns: [SessionTurn] = []

    init(url: URL, keep: Int) throws {
        self.url = url
        self.keep = keep
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let reader = try NDJSONReader(path: url.path)
        for line in reader {
            guard let t = try? JSONDecoder().decode(SessionTurn.self, from: line.data) else {
                throw ToolFailure(.badInput, "\(url.path):\(line.number): not a session turn; move the file aside to start the session again")
            }
            turns.append(t)
        }
    }

    var last: SessionTurn? { turns.last }

    func append(_ t: SessionTurn) {
        turns.append(t)
        if turns.count > keep { turns.removeFirst(turns.count - keep) }
    }

    func save() throws {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var data = Data()
            for t in turns { data += try encoder.encode(t) + [0x0A] }
            try AtomicFile.write(data, to: url.path)
        } catch {
            throw ToolFailure(.ioError, "cannot write the session \(url.path): \(error.localizedDescription)")
        }
    }
}
