import Foundation
import PBCore
import PBNeural
import PBDates

/// pb-remember: message records (or plain text lines) in, stored in a memory; the memory
/// records derived from them out, one per item.
public enum RememberCommand {
    public static let spec = CommandSpec(
        name: "pb-remember",
        summary: "remember messages: typed, dated items with workstreams and supersession, in a memory under $PB_HOME",
        operands: "[FILE ...]",
        options: [
            OptionSpec("memory", value: "NAME", help: "the memory to keep them in (default: default)"),
            OptionSpec("now", help: "the time of messages that give none, and of plain text lines (default: the current time)"),
            OptionSpec("speaker", value: "NAME", help: "the speaker of messages that name none"),
            OptionSpec("thread", value: "NAME", help: "the workstream of messages that name none (default: chosen by meaning)"),
            OptionSpec("receipts", help: "write a `remembered` record for each message (its id, time, workstream and items) before its items"),
            OptionSpec("endpoint", value: "URL", help: "cut and type items with an OpenAI-compatible chat server (checked against the message; deterministic when it fails)"),
            OptionSpec("model", value: "NAME", help: "with --endpoint, the model to ask for"),
            OptionSpec("timeout", value: "S", help: "with --endpoint, seconds per message before reading it deterministically (default 60)"),
            OptionSpec("allow-remote", help: "with --endpoint, allow a server that is not on this machine (the messages are shown on stderr first)"),
            OptionSpec("batch", value: "N", help: "messages embedded together (default 32)"),
            OptionSpec("keep-going", help: "write an error record for a bad line and go on (exit 65 at the end)"),
        ])

    /// The longest message line read, as pb-plan's: a memory holds what people say, not files.
    public static let maxLineBytes = 1 << 20

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let name = o.value("memory") ?? "default"
        try MemoryStore.validateName(name)
        let batchSize = try o.int("batch", default: 32, in: 1...4096)
        var now = Date()
        if let text = o.value("now") {
            guard let d = DateValueFormat(timeZone: TimeZone(secondsFromGMT: 0)!).parseInstant(text) else {
                throw ToolFailure(.usage, "--now: expected an ISO 8601 time such as 2026-03-02T09:00:00+01:00, got '\(text)'")
            }
            now = d
        }
        let defaultTime = o.value("now")
        let readers = try RecordLoop.readers(for: o.operands, maxLineBytes: maxLineBytes)
        let encoder = try EmbedCommand.loadEncoder(environment)
        let store = try MemoryStore(name: name, environment: environment)
        let rememberer = try Rememberer(store: store) { encoder.embed($0) }
        rememberer.endpoint = try EndpointExtractor(options: o)
        var routes = (endpoint: 0, fallback: 0)
        var lastFallback: String?
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let writer = NDJSONWriter.standardOutput
        let codec = RecordCodec()
        var summary = (messages: 0, again: 0, items: 0, superseded: 0, forgotten: 0, refused: 0)
        var batch: [(Rememberer.Incoming, InputLine)] = []
        let receipts = o.flag("receipts")

        func flush() throws {
            guard !batch.isEmpty else { return }
            let outcomes = try rememberer.remember(batch.map(\.0))
            for outcome in outcomes {
                switch outcome {
                case .alreadyRemembered(let receipt):
                    summary.again += 1
                    if receipts { try writer.write(receipt) }
                case .remembered(let receipt, let records):
                    summary.messages += 1
                    if let e = receipt.extraction {
                        if e.route == "endpoint" { routes.endpoint += 1 } else { routes.fallback += 1; lastFallback = e.fallback }
                    }
                    if receipts { try writer.write(receipt) }
                    summary.items += records.count
                    summary.superseded += records.reduce(0) { $0 + $1.supersedes.count }
                    for r in records { try writer.write(r) }
                }
            }
            batch.removeAll()
        }

        let status = try loop.run(readers) { line in
            var message: MessageRecord
            if line.data.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
                message = try codec.decode(MessageRecord.self, from: line.data)
                let unknown = message.extra.keys.sorted()
                if !unknown.isEmpty {
                    Diagnostics.shared.warning("\(line.source):\(line.number): \(unknown.count == 1 ? "field" : "fields") \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
                        + "not read (a message has \(MessageRecord.knownKeys.sorted().joined(separator: ", ")))")
                }
            } else {
                message = MessageRecord(time: defaultTime, text: line.text)
            }
            // "forget my locker code" is a request, carried out in its place in the input, never kept.
            if message.role != .assistant, let request = ForgetRequest.read(message.text) {
                try flush()
                let done = try MemoryForgetting.run(request, text: message.text, in: store)
                summary.forgotten += done.status == .forgotten ? done.items.count : 0
                try writer.write(done)
                // What else it said ("Forget Rome, we're going to Paris") is remembered as said.
                guard !request.rest.isEmpty else { return }
                message.text = request.rest
            }
            try Rememberer.checkTimeField(message)
            if message.time == nil { message.time = defaultTime }
            if message.speaker == nil { message.speaker = o.value("speaker") }
            if message.thread == nil { message.thread = o.value("thread") }
            let incoming = try Rememberer.resolve(message, now: now)
            // Forgotten on request and sent again (a sync, the same file once more): it stays forgotten.
            // A reply to a forgotten message (it may quote it) stays out with it.
            let own = try store.wasForgotten(messageID: incoming.id)
            if try own || message.replyTo.map({ try store.wasForgotten(messageID: $0) }) == true {
                summary.refused += 1
                Diagnostics.shared.warning("\(line.source):\(line.number): message '\(incoming.id)' "
                                           + (own ? "was forgotten on request" : "replies to a message forgotten on request")
                                           + "; not remembered again (to keep it after all, send it under a new id)")
                return
            }
            // Already remembered (a re-run after a kill, or the same message twice): once only.
            let earlier = try store.storedHash(ofMessage: incoming.id) ?? batch.first { $0.0.id == incoming.id }?.0.hash
            if let earlier {
                guard earlier == incoming.hash || MemoryStore.wasCut(earlier) else {
                    throw ToolFailure(.badInput, "message '\(incoming.id)' was remembered before with other text, time, speaker or thread; give the changed message a new id")
                }
                summary.again += 1
                if receipts {
                    // In input order: what the batch holds is written first.
                    try flush()
                    if let receipt = try store.receipt(ofMessage: incoming.id) { try writer.write(receipt) }
                }
                return
            }
            batch.append((incoming, line))
            if batch.count >= batchSize { try flush() }
        }
        try flush()
        if rememberer.endpoint != nil {
            Diagnostics.shared.note("items cut by the endpoint for \(routes.endpoint) message\(routes.endpoint == 1 ? "" : "s"), deterministically for \(routes.fallback)"
                                    + (lastFallback.map { " (last: \($0))" } ?? ""))
        }
        Diagnostics.shared.note("memory '\(name)': messages remembered \(summary.messages), already there \(summary.again); items \(summary.items), earlier items superseded \(summary.superseded)"
            + (summary.forgotten > 0 ? ", items forgotten \(summary.forgotten)" : "")
            + (summary.refused > 0 ? ", forgotten messages not remembered again \(summary.refused)" : "") + "; messages in the memory \(try store.messageCount())")
        return status
    }
}
