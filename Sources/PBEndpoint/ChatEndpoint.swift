import Foundation
import PBCore

/// An OpenAI-compatible chat-completions server (llama.cpp server, Ollama, vLLM, …).
///
/// `url` may be the server's base (`http://127.0.0.1:8080`), its `/v1`, or the full
/// `/v1/chat/completions`. One call is one blocking POST with `stream: false`, bounded as a whole
/// by `timeout` seconds. http:// goes over a plain socket (exact deadline, no proxies);
/// https:// through libcurl (CurlTransport). Whether a URL may be used at all is `EndpointPolicy`'s call.
public struct ChatEndpoint: Sendable {
    /// How a request reaches the server; tests force the libcurl path over plain http.
    enum Transport: Sendable { case automatic, curl }

    public var url: URL
    public var model: String?
    public var timeout: Double
    /// Sent as `Authorization: Bearer …` when set (hosted endpoints want one; local ones do not).
    public var apiKey: String?
    var transport: Transport = .automatic

    public init(url: URL, model: String?, timeout: Double) {
        self.url = url
        self.model = model
        self.timeout = timeout
    }

    /// Where the POST goes: `url` completed to `/v1/chat/completions`.
    public var completionsURL: URL { Self.completionsURL(for: url) }

    public static func completionsURL(for url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        var path = parts.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/chat/completions") {
            // already complete
        } else if path.hasSuffix("/v1") {
            path += "/chat/completions"
        } else {
            path += "/v1/chat/completions"
        }
        parts.path = path
        parts.fragment = nil
        return parts.url ?? url
    }

    /// The exact bytes `complete` sends: what a remote call shows on stderr before sending.
    public func requestBody(_ messages: [ChatMessage], temperature: Double, maxTokens: Int, responseFormat: JSONValue? = nil) throws -> Data {
        try ChatWireFormat.encode(.init(model: model, messages: messages, temperature: temperature,
                                        maxTokens: maxTokens, stream: false, responseFormat: responseFormat))
    }

    /// Sends the messages and returns the first choice. Throws `EndpointError` on any failure,
    /// within `timeout` seconds (plus a few milliseconds of parsing).
    public func complete(_ messages: [ChatMessage], temperature: Double, maxTokens: Int, responseFormat: JSONValue? = nil) throws -> ChatCompletion {
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = Deadline(seconds: timeout)
        let target = completionsURL
        let body = try requestBody(messages, temperature: temperature, maxTokens: maxTokens, responseFormat: responseFormat)
        var headers: [(String, String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"), ("User-Agent", "pocketbrains-pb-answer"),
        ]
        if let apiKey, !apiKey.isEmpty { headers.append(("Authorization", "Bearer \(apiKey)")) }

        let response: HTTPResponse
        switch (target.scheme?.lowercased(), transport) {
        case ("http", .automatic):
            guard let host = EndpointPolicy.normalisedHost(target) else {
                throw EndpointError.unreachable("\(url.absoluteString) names no host")
            }
            let port = target.port ?? 80
            guard (1...65535).contains(port) else {
                throw EndpointError.unreachable("\(url.absoluteString): port \(port) is out of range")
            }
            var path = target.path.isEmpty ? "/" : target.path
            if let query = target.query { path += "?" + query }
            response = try PlainHTTPClient.post(host: host, port: port, path: path, headers: headers, body: body,
                                                deadline: deadline, loopbackOnly: EndpointPolicy.isLoopback(target))
        case ("http", .curl), ("https", _):
            response = try CurlTransport.post(url: target, headers: headers, body: body, deadline: deadline,
                                              loopback: EndpointPolicy.isLoopback(target))
        default:
            throw EndpointError.unreachable("\(url.absoluteString) is not an http or https URL")
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        guard (200...299).contains(response.status) else {
            throw EndpointError.http(response.status, ChatWireFormat.failureMessage(response.body))
        }
        return try ChatWireFormat.decodeCompletion(response.body, milliseconds: milliseconds)
    }
}

extension ChatEndpoint {
    /// The server a program's --endpoint, --model, --timeout and --allow-remote name (as
    /// pb-remember and pb-plan take them); nil without --endpoint. A usage error for a bad URL, a
    /// remote one without --allow-remote, or one of the others without --endpoint.
    public init?(options o: ParsedOptions, defaultTimeout: Double = 60) throws {
        guard let raw = o.value("endpoint") else {
            for other in ["model", "timeout", "allow-remote"] where o.value(other) != nil || o.flag(other) {
                throw ToolFailure(.usage, "--\(other) needs --endpoint URL")
            }
            return nil
        }
        let url = try EndpointPolicy.option(raw, allowRemote: o.flag("allow-remote"))
        self.init(url: url, model: o.value("model"), timeout: try o.double("timeout", default: defaultTimeout, in: 0.001...86_400))
    }
}
