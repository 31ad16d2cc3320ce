import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PBEndpoint
import PBCore

// The chat-endpoint client without a model server: policy, URL forms, the wire format, HTTP
// framing, and the transport against loopback sockets this file opens itself. The same client
// against a real llama.cpp server is EndpointLiveTests at the end, enabled by Tests/llm.sh
// through PB_LLM_URL.

@Suite struct EndpointPolicyTests {
    @Test(arguments: [
        "http://127.0.0.1:8080", "http://127.255.3.4/v1", "http://localhost:11434", "http://LOCALHOST./",
        "http://[::1]:8080/v1/chat/completions", "http://[::ffff:127.0.0.1]:9", "https://127.0.0.1",
    ])
    func loopbackHosts(_ text: String) {
        #expect(EndpointPolicy.isLoopback(URL(string: text)!))
    }

    @Test(arguments: [
        "http://127.example.com", "http://128.0.0.1", "http://10.0.0.1:8080", "http://0.0.0.0:8080",
        "http://[::2]", "http://[::ffff:10.0.0.1]", "http://localhost.example.com", "http://127.0.0.1@evil.example/",
        "http://api.example.com/v1", "http://127.1", "file:///tmp/x",
    ])
    func remoteHosts(_ text: String) {
        #expect(!EndpointPolicy.isLoopback(URL(string: text)!))
    }

    @Test func remoteNeedsConsent() throws {
        let remote = URL(string: "https://api.example.com/v1")!
        #expect(throws: EndpointError.refusedRemote("api.example.com")) {
            try EndpointPolicy.check(remote, allowRemote: false)
        }
        try EndpointPolicy.check(remote, allowRemote: true)
        try EndpointPolicy.check(URL(string: "http://127.0.0.1:8080")!, allowRemote: false)
    }

    @Test func onlyHTTPURLsWithAHost() {
        for text in ["ftp://127.0.0.1/x", "file:///tmp/socket", "localhost:8080", "http://127.0.0.1:70000"] {
            #expect(throws: EndpointError.self) { try EndpointPolicy.check(URL(string: text)!, allowRemote: true) }
        }
    }

    @Test func exitStatuses() {
        #expect(EndpointError.refusedRemote("x").exitCode == .usage)
        #expect(EndpointError.timeout(2).exitCode == .unavailable)
        #expect(EndpointError.unreachable("x").exitCode == .unavailable)
        #expect(EndpointError.timeout(0.25).description == "endpoint timed out after 0.25 s")
        #expect(EndpointError.http(503, "busy").description == "endpoint answered HTTP 503: busy")
    }
}

@Suite struct ChatWireFormatTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://localhost:11434/api/openai", "http://localhost:11434/api/openai/v1/chat/completions"),
        ("https://h.example/v1?api-version=2", "https://h.example/v1/chat/completions?api-version=2"),
    ])
    func completionsURL(_ given: String, _ expected: String) {
        #expect(ChatEndpoint.completionsURL(for: URL(string: given)!).absoluteString == expected)
    }

    @Test func requestBodyIsSortedAndOmitsAMissingModel() throws {
        let messages = [ChatMessage(role: "system", content: "Cite [n]."), ChatMessage(role: "user", content: "a/b \"q\"")]
        let anonymous = ChatEndpoint(url: URL(string: "http://127.0.0.1:1")!, model: nil, timeout: 1)
        let body = String(decoding: try anonymous.requestBody(messages, temperature: 0.4, maxTokens: 256), as: UTF8.self)
        #expect(body == #"{"max_tokens":256,"messages":[{"content":"Cite [n].","role":"system"},{"content":"a/b \"q\"","role":"user"}],"stream":false,"temperature":0.4}"#)
        let named = ChatEndpoint(url: URL(string: "http://127.0.0.1:1")!, model: "smollm2", timeout: 1)
        let json = try JSONSerialization.jsonObject(with: named.requestBody(messages, temperature: 0.3, maxTokens: 8)) as! [String: Any]
        #expect(json["model"] as? String == "smollm2")
        #expect(json["stream"] as? Bool == false)
        #expect(json["max_tokens"] as? Int == 8)
    }

    @Test func decodesTheFirstChoiceAndUsage() throws {
        let body = Data(#"{"id":"x","model":"smol.gguf","choices":[{"index":0,"message":{"role":"assistant","content":"  The tank holds 45 litres [1].\n"},"finish_reason":"stop"},{"message":{"content":"second"}}],"usage":{"prompt_tokens":551,"completion_tokens":9,"total_tokens":560}}"#.utf8)
        let c = try ChatWireFormat.decodeCompletion(body, milliseconds: 12.5)
        #expect(c == ChatCompletion(text: "The tank holds 45 litres [1].", model: "smol.gguf", promptTokens: 551,
                                    completionTokens: 9, milliseconds: 12.5))
        let bare = try ChatWireFormat.decodeCompletion(Data(#"{"choices":[{"text":"legacy"}]}"#.utf8), milliseconds: 1)
        #expect(bare.text == "legacy" && bare.model == nil && bare.promptTokens == nil)
    }

    @Test func rejectsWhatIsNotACompletion() {
        let cases = [
            #"{"choices":[]}"#, #"{"choices":[{"message":{"content":null}}]}"#,
            #"{"choices":[{"message":{"content":"  \n"}}]}"#, "<html>busy</html>", #"{"error":{"message":"model not loaded"}}"#,
        ]
        for text in cases {
            #expect(throws: EndpointError.self) { try ChatWireFormat.decodeCompletion(Data(text.utf8), milliseconds: 0) }
        }
        #expect(throws: EndpointError.badResponse("model not loaded")) {
            try ChatWireFormat.decodeCompletion(Data(#"{"error":{"message":"model not loaded"}}"#.utf8), milliseconds: 0)
        }
    }

    @Test func failureMessages() {
        #expect(ChatWireFormat.failureMessage(Data(#"{"error":{"message":"context too long","type":"x"}}"#.utf8)) == "context too long")
        #expect(ChatWireFormat.failureMessage(Data(#"{"error":"model 'x' not found"}"#.utf8)) == "model 'x' not found")
        #expect(ChatWireFormat.failureMessage(Data(#"{"detail":"Not Found"}"#.utf8)) == "Not Found")
        #expect(ChatWireFormat.failureMessage(Data("Bad\ngateway".utf8)) == "Bad gateway")
        #expect(ChatWireFormat.failureMessage(Data()) == "(empty body)")
    }
}

@Suite struct HTTPResponseTests {
    func parse(_ text: String, atEOF: Bool = false) throws -> HTTPResponse? {
        try HTTPResponse.parse(Array(text.utf8), atEOF: atEOF)
    }

    @Test func contentLength() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel") == nil)
        let r = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 5\r\n\r\nhello"))
        #expect(r.status == 200 && r.body == Data("hello".utf8) && r.headers["content-type"] == "application/json")
        #expect(throws: EndpointError.unreachable("the server closed the connection mid-response")) {
            try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", atEOF: true)
        }
    }

    @Test func chunked() throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(try parse(head + "4\r\nWiki\r\n5;x=y\r\npedia\r\n") == nil)
        let r = try #require(try parse(head + "4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n"))
        #expect(String(decoding: r.body, as: UTF8.self) == "Wikipedia")
        #expect(throws: EndpointError.self) { try parse(head + "zz\r\nWiki\r\n") }
    }

    @Test func interimAndUnframedResponses() throws {
        let r = try #require(try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno"))
        #expect(r.status == 404 && r.body == Data("no".utf8))
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\nto the end") == nil)
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\nto the end", atEOF: true)?.body == Data("to the end".utf8))
        #expect(throws: EndpointError.self) { try parse("SSH-2.0-OpenSSH_9.2\r\n\r\n") }
    }
}

/// A one-connection TCP listener on 127.0.0.1 that plays a script: the transport's peer in tests.
final class ScriptedPeer: @unchecked Sendable {
    enum Script { case respond(String), silent, closeAfter(String), closeWithoutAnswer }
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private let finished = DispatchSemaphore(value: 0)

    init(_ script: Script) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 1) == 0 else { throw EndpointError.unreachable("cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(script) }
        thread.start()
    }

    private func serve(_ script: Script) {
        defer { close(fd); finished.signal() }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        // Read the request: headers, then Content-Length bytes of body.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var request: [UInt8] = []
        while true {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            request += buffer[0..<n]
            let text = String(decoding: request, as: UTF8.self)
            if let head = text.range(of: "\r\n\r\n") {
                let length = text[..<head.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if request.count - text[..<head.upperBound].utf8.count >= length { break }
            }
        }
        lock.withLock { received = request }
        switch script {
        case .respond(let text), .closeAfter(let text):
            _ = Array(text.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        case .silent:
            Thread.sleep(forTimeInterval: 3)
        case .closeWithoutAnswer:
            break
        }
    }

    /// The request as the peer read it (waits for the peer to finish).
    func request() -> String {
        _ = finished.wait(timeout: .now() + 5)
        return lock.withLock { String(decoding: received, as: UTF8.self) }
    }

    /// A loopback port with nothing listening: bound, read, released.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func response(_ status: String, _ body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}

@Suite struct EndpointTransportTests {
    static let hello = [ChatMessage(role: "user", content: "Say hello.")]
    static let answer = #"{"model":"m","choices":[{"message":{"role":"assistant","content":"Hello [1]."}}],"usage":{"prompt_tokens":7,"completion_tokens":3}}"#

    func elapsed(_ body: () throws -> Void) -> (Double, Error?) {
        let start = Date()
        do { try body(); return (Date().timeIntervalSince(start), nil) } catch { return (Date().timeIntervalSince(start), error) }
    }

    @Test func postsTheRequestAndReadsTheAnswer() throws {
        let peer = try ScriptedPeer(.respond(ScriptedPeer.response("200 OK", Self.answer)))
        var endpoint = ChatEndpoint(url: URL(string: "http://127.0.0.1:\(peer.port)/v1")!, model: "m", timeout: 5)
        endpoint.apiKey = "sk-test"
        let c = try endpoint.complete(Self.hello, temperature: 0.4, maxTokens: 32)
        #expect(c.text == "Hello [1]." && c.promptTokens == 7 && c.completionTokens == 3 && c.milliseconds > 0)
        let request = peer.request()
        #expect(request.hasPrefix("POST /v1/chat/completions HTTP/1.1\r\n"))
        #expect(request.contains("\r\nHost: 127.0.0.1:\(peer.port)\r\n") && request.contains("\r\nAuthorization: Bearer sk-test\r\n"))
        let body = try endpoint.requestBody(Self.hello, temperature: 0.4, maxTokens: 32)
        #expect(request.hasSuffix("\r\n\r\n" + String(decoding: body, as: UTF8.self)))
    }

    @Test func chunkedAnswersAndHTTPErrors() throws {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(Self.answer.utf8.count - 10, radix: 16) + "\r\n" + Self.answer.dropLast(10) + "\r\n"
            + "a\r\n" + Self.answer.suffix(10) + "\r\n0\r\n\r\n"
        let ok = try ScriptedPeer(.respond(chunked))
        #expect(try ChatEndpoint(url: URL(string: "http://localhost:\(ok.port)")!, model: nil, timeout: 5)
            .complete(Self.hello, temperature: 0, maxTokens: 8).text == "Hello [1].")
        let busy = try ScriptedPeer(.respond(ScriptedPeer.response("503 Service Unavailable", #"{"error":{"message":"busy"}}"#)))
        #expect(throws: EndpointError.http(503, "busy")) {
            try ChatEndpoint(url: URL(string: "http://127.0.0.1:\(busy.port)")!, model: nil, timeout: 5)
                .complete(Self.hello, temperature: 0, maxTokens: 8)
        }
    }

    @Test func aSilentServerTimesOutOnTime() throws {
        let peer = try ScriptedPeer(.silent)
        let endpoint = ChatEndpoint(url: URL(string: "http://127.0.0.1:\(peer.port)")!, model: nil, timeout: 0.3)
        let (seconds, error) = elapsed { _ = try endpoint.complete(Self.hello, temperature: 0, maxTokens: 8) }
        #expect(error as? EndpointError == .timeout(0.3))
        #expect(seconds >= 0.29 && seconds < 1.5)
    }

    @Test func aServerThatGoesAwayIsUnreachable() throws {
        let cut = try ScriptedPeer(.closeAfter("HTTP/1.1 200 OK\r\nContent-Length: 400\r\n\r\n{\"choices\":"))
        #expect(throws: EndpointError.unreachable("the server closed the connection mid-response")) {
            try ChatEndpoint(url: URL(string: "http://127.0.0.1:\(cut.port)")!, model: nil, timeout: 5)
                .complete(Self.hello, temperature: 0, maxTokens: 8)
        }
        let gone = try ScriptedPeer(.closeWithoutAnswer)
        #expect(throws: EndpointError.unreachable("the server closed the connection without answering")) {
            try ChatEndpoint(url: URL(string: "http://127.0.0.1:\(gone.port)")!, model: nil, timeout: 5)
                .complete(Self.hello, temperature: 0, maxTokens: 8)
        }
    }

    @Test func aClosedPortFailsFast() {
        let port = ScriptedPeer.closedPort()
        for transport in [ChatEndpoint.Transport.automatic, .curl] {
            var endpoint = ChatEndpoint(url: URL(string: "http://127.0.0.1:\(port)")!, model: nil, timeout: 10)
            endpoint.transport = transport
            let (seconds, error) = elapsed { _ = try endpoint.complete(Self.hello, temperature: 0, maxTokens: 8) }
            guard case .unreachable(let why)? = error as? EndpointError else {
                Issue.record("expected unreachable, got \(String(describing: error))")
                continue
            }
            #expect(seconds < 2, "\(transport) took \(seconds) s: \(why)")
        }
    }

    @Test func theCurlPathReadsTheSameAnswer() throws {
        let peer = try ScriptedPeer(.respond(ScriptedPeer.response("200 OK", Self.answer)))
        var endpoint = ChatEndpoint(url: URL(string: "http://127.0.0.1:\(peer.port)")!, model: nil, timeout: 5)
        endpoint.transport = .curl
        #expect(try endpoint.complete(Self.hello, temperature: 0, maxTokens: 8).text == "Hello [1].")
        #expect(peer.request().hasPrefix("POST /v1/chat/completions HTTP/1.1\r\n"))
    }

    @Test func aLoopbackOnlyDialSkipsOtherAddresses() {
        // 0.0.0.0 stands in for an address a loopback name might resolve to; it is not loopback,
        // so it is never dialled (and were it dialled, it would still stay on this machine).
        #expect(throws: EndpointError.refusedRemote("0.0.0.0 (resolves to no loopback address)")) {
            try PlainHTTPClient.dial(host: "0.0.0.0", port: ScriptedPeer.closedPort(), deadline: Deadline(seconds: 2), loopbackOnly: true)
        }
        #expect(throws: EndpointError.self) {
            try PlainHTTPClient.dial(host: "localhost", port: ScriptedPeer.closedPort(), deadline: Deadline(seconds: 2), loopbackOnly: true)
        }
    }
}

/// Against a real OpenAI-compatible server (Tests/llm.sh starts llama.cpp's and sets PB_LLM_URL).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PB_LLM_URL"] != nil, "set PB_LLM_URL (Tests/llm.sh does)"),
       .serialized)
struct EndpointLiveTests {
    let url = URL(string: ProcessInfo.processInfo.environment["PB_LLM_URL"] ?? "http://127.0.0.1:1")!

    @Test func answersASmallPrompt() throws {
        let c = try ChatEndpoint(url: url, model: nil, timeout: 60).complete(
            [ChatMessage(role: "system", content: "You answer briefly."),
             ChatMessage(role: "user", content: "What is the capital of France?")], temperature: 0, maxTokens: 24)
        #expect(!c.text.isEmpty)
        #expect((c.promptTokens ?? 0) > 5 && (c.completionTokens ?? 0) > 0)
        print("llm: small prompt: \(Int(c.milliseconds)) ms, \(c.promptTokens ?? -1)+\(c.completionTokens ?? -1) tokens: \(c.text.prefix(80))")
    }

    @Test func answersAPackedSizePrompt() throws {
        // About 550 tokens with the chat template, the size the issue's latency figure is for.
        let facts = (1...17).map { "[\($0)] The pump in unit \($0) was serviced on day \($0 * 3) and holds \($0 * 7) litres of coolant." }
        let prompt = "Evidence:\n" + facts.joined(separator: "\n") + "\n\nQuestion: How many litres does unit 12 hold? Cite [n]."
        // A generous limit: on a busy 2-core machine the 135M model reads only ~40 tokens/s.
        let c = try ChatEndpoint(url: URL(string: url.absoluteString + "/v1")!, model: nil, timeout: 120).complete(
            [ChatMessage(role: "system", content: "Answer only from the evidence and cite it as [n]."),
             ChatMessage(role: "user", content: prompt)], temperature: 0.4, maxTokens: 64)
        #expect(!c.text.isEmpty && (c.promptTokens ?? 0) > 450)
        print("llm: \(c.promptTokens ?? -1)-token prompt: \(Int(c.milliseconds)) ms, \(c.completionTokens ?? -1) tokens out")
    }

    @Test func theCurlPathWorksToo() throws {
        var endpoint = ChatEndpoint(url: url, model: nil, timeout: 60)
        endpoint.transport = .curl
        #expect(!(try endpoint.complete([ChatMessage(role: "user", content: "Say yes.")], temperature: 0, maxTokens: 8).text.isEmpty))
    }

    @Test func aTinyTimeoutFires() {
        let endpoint = ChatEndpoint(url: url, model: nil, timeout: 0.05)
        let start = Date()
        #expect(throws: EndpointError.timeout(0.05)) {
            try endpoint.complete([ChatMessage(role: "user", content: "Write a long story about a lighthouse.")],
                                  temperature: 0.4, maxTokens: 48)
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func anUnreachablePortFailsFast() {
        let start = Date()
        let closed = URL(string: "http://127.0.0.1:\(ScriptedPeer.closedPort())")!
        #expect(throws: EndpointError.self) {
            try ChatEndpoint(url: closed, model: nil, timeout: 30).complete([ChatMessage(role: "user", content: "hi")], temperature: 0, maxTokens: 4)
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }
}

/// Kills the real server (pid PB_LLM_PID) while it is answering: the client must report the
/// endpoint unreachable at once, not hang or crash. Tests/llm.sh runs it alone, then restarts it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PB_LLM_PID"].flatMap { Int32($0) } != nil
                && ProcessInfo.processInfo.environment["PB_LLM_URL"] != nil, "set PB_LLM_URL and PB_LLM_PID (Tests/llm.sh does)"))
struct EndpointKillTests {
    final class Outcome: @unchecked Sendable { var error: Error?; var answered = false }

    @Test func aServerKilledMidRequestIsUnreachable() throws {
        let env = ProcessInfo.processInfo.environment
        let pid = try #require(env["PB_LLM_PID"].flatMap { Int32($0) })
        let endpoint = ChatEndpoint(url: URL(string: env["PB_LLM_URL"]!)!, model: nil, timeout: 60)
        let story = (1...40).map { "Chapter \($0) of the lighthouse keeper's log records the weather and the ships." }
        let messages = [ChatMessage(role: "user", content: story.joined(separator: " ") + " Now continue the log at length.")]
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try endpoint.complete(messages, temperature: 0.8, maxTokens: 512); outcome.answered = true }
            catch { outcome.error = error }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(kill(pid, SIGKILL) == 0)
        let killed = Date()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(!outcome.answered, "the server answered within 0.3 s: nothing was in flight to cut")
        guard case .unreachable? = outcome.error as? EndpointError else {
            Issue.record("expected unreachable, got \(String(describing: outcome.error))")
            return
        }
        #expect(Date().timeIntervalSince(killed) < 2)
        print("llm: killed mid-request: \(outcome.error!) after \(Int(Date().timeIntervalSince(killed) * 1000)) ms")
    }
}
