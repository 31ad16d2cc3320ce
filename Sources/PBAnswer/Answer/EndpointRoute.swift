import Foundation
import PBCore
import PBEndpoint

/// The `--endpoint` route of pb-answer: the packed prompt to an OpenAI-compatible chat server,
/// its reply resolved into sentence citations, and the extractive composer whenever the server
/// fails, times out or is not needed. The receipt says which happened.
public struct EndpointRoute {
    public let endpoint: ChatEndpoint
    public let url: URL
    public let remote: Bool
    public let model: String?
    public let temperature: Double?
    public let remoteChars: Int

    /// nil without --endpoint; a usage error for a bad URL or a remote one without consent.
    public init?(options o: ParsedOptions) throws {
        guard let raw = o.value("endpoint") else { return nil }
        let url = try EndpointPolicy.option(raw, allowRemote: o.flag("allow-remote"))
        self.url = url
        remote = !EndpointPolicy.isLoopback(url)
        model = o.value("model")
        temperature = o.value("temperature") == nil ? nil : try o.double("temperature", default: 0.4, in: 0...2)
        remoteChars = try o.int("remote-chars", default: 6000, in: 240...10_000_000)
        let timeout = try o.double("timeout", default: 60, in: 0.001...86_400)
        endpoint = ChatEndpoint(url: url, model: model, timeout: timeout)
    }

    /// Temperature by mode, as the seed sets it: 0.4 in the standard modes, 0.3 in the most precise.
    static func temperature(mode: Mode) -> Double { mode == .deep ? 0.3 : 0.4 }

    public func answer(_ q: QueryRecord, mode: Mode, composer: ExtractiveComposer, resolver: CitationResolver) -> AnswerRecord {
        let clock = ContinuousClock()
        let t = temperature ?? Self.temperature(mode: mode)
        var receipt = Receipt(intended: .endpoint, attempted: [], actual: .extractive, endpoint: url.absoluteString, model: model, temperature: t)
        func fallback(_ why: String) -> AnswerRecord {
            var a = composer.compose(question: q.questionText, context: q.context, reading: q.analysis)
            receipt.attempted.append(.extractive)
            receipt.actual = .extractive
            receipt.fallback = why
            receipt.timings.merge(a.receipt.timings) { $1 }
            a.receipt = receipt
            return a
        }
        guard let context = q.context, !context.evidence.isEmpty else {
            return fallback("no evidence to send")
        }
        // Evidence that does not answer the question is not sent anywhere: when the composer finds
        // nothing on the desk that answers it (no sentence near enough, no value of the kind a
        // lookup asks for), the answer is withheld here, before a byte leaves.
        let local = composer.compose(question: q.questionText, context: q.context, reading: q.analysis)
        if Abstention.isDeclined(local.text) {
            receipt.attempted.append(.extractive)
            receipt.fallback = "nothing sent: the evidence does not answer the question"
            return Abstention.declinedAnswer(route: .extractive, receipt: receipt)
        }
        var messages = [ChatMessage(role: "system", content: context.instructions), ChatMessage(role: "user", content: context.prompt)]
        if remote {
            let minimal = PayloadMinimizer.minimise(context, question: q.text, budgetChars: remoteChars)
            messages = minimal.messages
            receipt.payloadChars = minimal.payloadChars
            receipt.omitted = minimal.omitted
            // Consent is informed and for this payload: at a terminal the person sees the exact
            // messages and says yes or no; in a pipe --allow-remote consented, and the bytes about
            // to leave the machine are written to standard error before they do.
            let readable = messages.map { "[\($0.role)]\n\($0.content)" }.joined(separator: "\n\n")
            switch ConsentPrompt.ask(payload: readable, destination: url.absoluteString) {
            case .no:
                return fallback("not sent: declined at the terminal")
            case .yes, .noTerminal:
                if let payload = try? RecordCodec().encodeValue(messages) {
                    FileHandle.standardError.write(Data("pb-answer: sending to \(url.absoluteString): ".utf8) + payload + Data("\n".utf8))
                }
            }
        } else {
            receipt.payloadChars = context.instructions.count + context.prompt.count
            receipt.omitted = 0
        }
        receipt.attempted.append(.endpoint)
        let began = clock.now
        let completion: ChatCompletion
        do {
            completion = try endpoint.complete(messages, temperature: t, maxTokens: max(16, context.reserved))
        } catch {
            receipt.timings["request_ms"] = ExtractiveComposer.milliseconds(clock.now - began)
            return fallback("endpoint failed: \(error)")
        }
        receipt.timings["request_ms"] = ExtractiveComposer.milliseconds(clock.now - began)
        receipt.actual = .endpoint
        if receipt.model == nil { receipt.model = completion.model }
        let text = completion.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return fallback("endpoint returned an empty answer") }
        if Abstention.mentionsDecline(text) {
            return Abstention.declinedAnswer(route: .endpoint, receipt: receipt)
        }
        let resolveStart = clock.now
        var answer = resolver.resolve(text, context: context, route: .endpoint, receipt: receipt)
        answer.receipt.timings["resolve_ms"] = ExtractiveComposer.milliseconds(clock.now - resolveStart)
        return answer
    }
}
