import Foundation
import PBCore
import PBEndpoint
import PBRetrieval

/// pb-remember --endpoint: an OpenAI-compatible chat model (the route pb-answer takes) cuts a
/// message into items and types them; everything else about an item (its subject, entities,
/// values, the time it refers to) is read by ItemExtractor as always.
///
/// The model's word is checked, never trusted: an item's text must be the message's own words
/// (copied exactly, or one of its sentences nearly word for word), its type one of the six; a
/// sentence the model left out that the deterministic reader would keep is kept with the
/// reader's type, so no endpoint can make something said unreachable. When the server fails,
/// times out, or gives nothing usable, the message is read deterministically and the receipt
/// says why.
public struct EndpointExtractor {
    public let endpoint: ChatEndpoint
    public let url: URL
    public let remote: Bool

    /// An aligned sentence must share at least this share of the words of both.
    static let nearlyWordForWord = 0.6

    /// nil without --endpoint; a usage error for a bad URL or a remote one without consent.
    public init?(options o: ParsedOptions) throws {
        guard let endpoint = try ChatEndpoint(options: o) else { return nil }
        self.init(endpoint: endpoint)
    }

    public init(endpoint: ChatEndpoint) {
        self.endpoint = endpoint
        url = endpoint.url
        remote = !EndpointPolicy.isLoopback(endpoint.url)
    }

    static let instructions = """
        Split the user's message into memory items. Reply with JSON only: {"items": [{"text": "...", "type": "..."}]}. \
        Each text is copied word for word from the message: one sentence or clause. The type is one of: \
        fact (something that is so), decision (a choice made), question (something asked), action (something to do), \
        event (something that happened or will happen at a time), preference (a like or dislike). \
        Leave out greetings and thanks.
        """

    /// The JSON the server is asked to keep to (llama.cpp turns the schema into a grammar).
    static let responseFormat: JSONValue = .object([
        "type": .string("json_object"),
        "schema": .object([
            "type": .string("object"),
            "required": .array([.string("items")]),
            "properties": .object([
                "items": .object([
                    "type": .string("array"),
                    "items": .object([
                        "type": .string("object"),
                        "required": .array([.string("text"), .string("type")]),
                        "properties": .object([
                            "text": .object(["type": .string("string")]),
                            "type": .object(["type": .string("string"), "enum": .array(MemoryItemType.allCases.map { .string($0.rawValue) })]),
                        ]),
                    ]),
                ]),
            ]),
        ]),
    ])

    struct Reply: Decodable {
        struct Item: Decodable {
            var text: String
            var type: String
        }
        var items: [Item]
    }

    /// The message's items by the endpoint, or why not.
    public func items(of text: String, said: Date, zone: TimeZone, reader: ItemExtractor) -> Result<Aligned, ExtractionFailure> {
        let messages = [ChatMessage(role: "system", content: Self.instructions), ChatMessage(role: "user", content: text)]
        if remote, let payload = try? RecordCodec().encodeValue(messages) {
            // Consent is informed: the exact bytes about to leave the machine, before they do.
            FileHandle.standardError.write(Data("pb-remember: sending to \(url.absoluteString): ".utf8) + payload + Data("\n".utf8))
        }
        let reply: String
        do {
            let maxTokens = min(2048, 96 + text.utf8.count / 2)
            reply = try endpoint.complete(messages, temperature: 0, maxTokens: maxTokens, responseFormat: Self.responseFormat).text
        } catch {
            return .failure(ExtractionFailure("endpoint failed: \(error)"))
        }
        return Self.align(reply, to: text, said: said, zone: zone, reader: reader)
    }

    /// The reply's items placed in the message; the sentences they leave out that hold
    /// something, kept as the deterministic reader reads them.
    /// The items placed, and how many of the reply's could not be.
    public struct Aligned {
        public var items: [ExtractedItem]
        public var unplaced: Int
    }

    static func align(_ reply: String, to text: String, said: Date, zone: TimeZone, reader: ItemExtractor) -> Result<Aligned, ExtractionFailure> {
        guard let open = reply.firstIndex(of: "{"), let close = reply.lastIndex(of: "}"), open < close,
              let parsed = try? JSONDecoder().decode(Reply.self, from: Data(reply[open...close].utf8)) else {
            return .failure(ExtractionFailure("the endpoint's reply is not {\"items\": [...]} JSON"))
        }
        let bytes = Array(text.utf8)
        let sentences = reader.sentenceRanges(of: text)
        var placed: [ExtractedItem] = []
        var taken: [Range<Int>] = []
        var unplaced = 0
        for item in parsed.items {
            guard let type = MemoryItemType(rawValue: item.type.lowercased().trimmingCharacters(in: .whitespaces)),
                  let range = place(item.text, in: bytes, sentences: sentences),
                  !taken.contains(where: { $0.overlaps(range) }) else {
                unplaced += 1
                continue
            }
            taken.append(range)
            placed.append(reader.item(of: text, range: range, type: type, said: said, zone: zone))
        }
        guard !placed.isEmpty else {
            return .failure(ExtractionFailure("none of the endpoint's \(parsed.items.count) item\(parsed.items.count == 1 ? "" : "s") is in the message"))
        }
        // What the model left out but says something stays reachable, as the reader has it.
        for item in reader.items(of: text, said: said, zone: zone)
        where ItemExtractor.holdsSomething(item) && !taken.contains(where: { $0.overlaps(item.range) }) {
            placed.append(item)
        }
        return .success(Aligned(items: placed.sorted { $0.range.lowerBound < $1.range.lowerBound }, unplaced: unplaced))
    }

    /// Where an item's text stands in the message: its exact bytes (trimmed), the same words in
    /// another case, or the sentence sharing nearly all its words; nil when none.
    static func place(_ itemText: String, in bytes: [UInt8], sentences: [Range<Int>]) -> Range<Int>? {
        let needle = Array(itemText.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
        func find(_ n: [UInt8], in hay: [UInt8]) -> Int? {
            guard n.count <= hay.count else { return nil }
            for i in 0...(hay.count - n.count) where hay[i] == n[0] && Array(hay[i..<(i + n.count)]) == n { return i }
            return nil
        }
        if let at = find(needle, in: bytes) { return at..<(at + needle.count) }
        let lower = { (b: [UInt8]) in b.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } }
        if let at = find(lower(needle), in: lower(bytes)) { return at..<(at + needle.count) }
        let words = Set(LexicalQuery.terms(itemText))
        guard !words.isEmpty else { return nil }
        var best: (Range<Int>, Double)?
        for r in sentences {
            let own = Set(LexicalQuery.terms(String(decoding: bytes[r], as: UTF8.self)))
            guard !own.isEmpty else { continue }
            let shared = Double(words.intersection(own).count)
            let score = min(shared / Double(words.count), shared / Double(own.count))
            if score >= nearlyWordForWord, best == nil || score > best!.1 { best = (r, score) }
        }
        return best?.0
    }
}

/// Why a message was read deterministically although an endpoint was given.
public struct ExtractionFailure: Error, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
