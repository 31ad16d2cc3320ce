import Foundation
import PBCore

/// The OpenAI chat-completions request and response, as far as we write and read them.
enum ChatWireFormat {
    struct Request: Encodable {
        /// Omitted when nil: single-model servers (llama.cpp) answer with the model they loaded.
        var model: String?
        var messages: [ChatMessage]
        var temperature: Double
        var maxTokens: Int
        var stream: Bool
        /// `{"type": "json_object", "schema": ...}`: servers that constrain their output to JSON
        /// (llama.cpp, vLLM, Ollama) do; omitted when nil.
        var responseFormat: JSONValue? = nil

        enum CodingKeys: String, CodingKey {
            case model, messages, temperature, stream
            case maxTokens = "max_tokens"
            case responseFormat = "response_format"
        }
    }

    struct Response: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable { var content: String? }
            var message: Message?
            /// Legacy completions put the text here; some servers still do.
            var text: String?
        }
        struct Usage: Decodable {
            var promptTokens: Int?
            var completionTokens: Int?
            enum CodingKeys: String, CodingKey {
                case promptTokens = "prompt_tokens", completionTokens = "completion_tokens"
            }
        }
        var choices: [Choice]?
        var model: String?
        var usage: Usage?
    }

    /// `{"error": {"message": …}}` (OpenAI, llama.cpp), `{"error": "…"}` (Ollama) or
    /// `{"detail": "…"}` (FastAPI).
    struct ErrorBody: Decodable {
        struct Nested: Decodable { var message: String? }
        var message: String?
        var detail: String?

        enum CodingKeys: String, CodingKey { case error, detail }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let nested = try? c.decode(Nested.self, forKey: .error) {
                message = nested.message
            } else {
                message = try? c.decode(String.self, forKey: .error)
            }
            // A structured `detail` (a list of validation errors) is left to the body snippet.
            detail = try? c.decode(String.self, forKey: .detail)
        }
    }

    static func encode(_ request: Request) throws -> Data {
        let encoder = JSONEncoder()
        // Sorted keys: the payload written to stderr before a remote call is byte-stable.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(request)
    }

    /// The completion in a 2xx body.
    static func decodeCompletion(_ body: Data, milliseconds: Double) throws -> ChatCompletion {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: body)
        } catch {
            throw EndpointError.badResponse("not a chat completion: \(snippet(body))")
        }
        guard let choice = response.choices?.first else {
            if let message = errorMessage(body) { throw EndpointError.badResponse(message) }
            throw EndpointError.badResponse("no choices in \(snippet(body))")
        }
        guard let content = choice.message?.content ?? choice.text else {
            throw EndpointError.badResponse("choices[0] has no message content")
        }
        let text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw EndpointError.badResponse("the model wrote nothing") }
        return ChatCompletion(text: text, model: response.model, promptTokens: response.usage?.promptTokens,
                              completionTokens: response.usage?.completionTokens, milliseconds: milliseconds)
    }

    /// The server's own words for a failure, or the start of the body.
    static func errorMessage(_ body: Data) -> String? {
        guard let e = try? JSONDecoder().decode(ErrorBody.self, from: body) else { return nil }
        return e.message ?? e.detail
    }

    static func failureMessage(_ body: Data) -> String {
        if let message = errorMessage(body) { return oneLine(message, limit: 300) }
        return body.isEmpty ? "(empty body)" : snippet(body)
    }

    static func snippet(_ body: Data) -> String {
        oneLine(String(decoding: body.prefix(400), as: UTF8.self), limit: 200)
    }

    static func oneLine(_ text: String, limit: Int) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
