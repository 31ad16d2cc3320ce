import Foundation

/// Whisper's byte-level BPE (GPT-2's), read from the model folder's `tokenizer.json`: text tokens
/// to bytes for transcripts, and text to tokens for a prompt (the user's names and words).
///
/// The special tokens are found by their text, not by number, so an English-only model and a
/// multilingual one (whose ids differ by one) both read right; the timestamp tokens follow
/// `<|notimestamps|>`, one per 20 ms.
public struct WhisperTokenizer: Sendable {
    /// The special tokens decoding needs.
    public struct Specials: Sendable, Equatable {
        public let endOfText, startOfTranscript, translate, transcribe, startOfLM, startOfPrevious, noSpeech, noTimestamps: Int
        public let english: Int?
        public var timestampBegin: Int { noTimestamps + 1 }
    }

    public let specials: Specials
    /// Whether the model names a language and a task after `<|startoftranscript|>` (multilingual).
    public let multilingual: Bool
    /// Token id to its byte-level text (GPT-2's printable stand-ins for bytes).
    private let pieces: [String]
    private let ids: [String: Int]
    private let ranks: [String: Int]

    /// What is read of `tokenizer.json`, decoded into these types rather than walked as
    /// `[String: Any]` (which took a third of a short request's model load). As leniently as
    /// a walk would: a merge or an added token that is not of the expected form is passed over
    /// (the other merges keep their order), and `merges` or `added_tokens` of another type is as
    /// if absent.
    private struct File: Decodable {
        struct Model: Decodable {
            let vocab: [String: Int]
            let merges: [Merge]
            enum CodingKeys: String, CodingKey { case vocab, merges }
            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                vocab = try c.decode([String: Int].self, forKey: .vocab)
                merges = (try? c.decode([Merge].self, forKey: .merges)) ?? []
            }
        }
        /// A merge is "a b" in older files and ["a", "b"] in newer ones; nil when it is neither.
        struct Merge: Decodable {
            let text: String?
            init(from decoder: Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let text = try? c.decode(String.self) { self.text = text; return }
                if let pair = try? c.decode([String].self), pair.count == 2 { text = pair[0] + " " + pair[1]; return }
                text = nil
            }
        }
        struct Added: Decodable {
            let id: Int?
            let content: String?
            enum CodingKeys: String, CodingKey { case id, content }
            init(from decoder: Decoder) throws {
                let c = try? decoder.container(keyedBy: CodingKeys.self)
                id = try? c?.decode(Int.self, forKey: .id)
                content = try? c?.decode(String.self, forKey: .content)
            }
        }
        let model: Model
        let added: [Added]
        enum CodingKeys: String, CodingKey { case model, added = "added_tokens" }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            model = try c.decode(Model.self, forKey: .model)
            added = (try? c.decode([Added].self, forKey: .added)) ?? []
        }
    }

    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SpeechModelError.unreadable(url.path, error.localizedDescription)
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw SpeechModelError.malformed(url.path, "not a tokenizer.json with a BPE vocabulary (\(Self.reason(error)))")
        }
        var ids = file.model.vocab
        for added in file.added {
            if let id = added.id, let content = added.content { ids[content] = id }
        }
        var ranks: [String: Int] = [:]
        ranks.reserveCapacity(file.model.merges.count)
        for (rank, merge) in file.model.merges.enumerated() {
            if let text = merge.text { ranks[text] = rank }
        }
        func special(_ text: String) throws -> Int {
            guard let id = ids[text] else { throw SpeechModelError.malformed(url.path, "no \(text) token") }
            return id
        }
        specials = Specials(endOfText: try special("<|endoftext|>"), startOfTranscript: try special("<|startoftranscript|>"),
                            translate: try special("<|translate|>"), transcribe: try special("<|transcribe|>"),
                            startOfLM: try special("<|startoflm|>"), startOfPrevious: try special("<|startofprev|>"),
                            noSpeech: try (ids["<|nospeech|>"].map { $0 } ?? special("<|nocaptions|>")),
                            noTimestamps: try special("<|notimestamps|>"), english: ids["<|en|>"])
        let largest = ids.values.max() ?? 0
        var pieces = [String](repeating: "", count: largest + 1)
        for (text, id) in ids where id >= 0 { pieces[id] = text }
        self.pieces = pieces
        self.ids = ids
        self.ranks = ranks
        // An English-only model's vocabulary has one token fewer before the specials (50256
        // `<|endoftext|>` then 50257 `<|startoftranscript|>`), a multilingual one has 50257.
        multilingual = specials.endOfText == 50257
    }

    /// Where a tokenizer.json failed to decode, in a few words (the field, not the decoder's prose).
    static func reason(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ c: DecodingError.Context) -> String {
            c.codingPath.isEmpty ? "the file" : c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let c): return "no \(key.stringValue) in \(path(c))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "\(path(c)) is not of the expected type"
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not JSON" : "\(path(c)) is malformed"
        @unknown default: return "\(error)"
        }
    }

    /// What follows any previous text in a window's prompt.
    public var startSequence: [Int] {
        guard multilingual, let english = specials.english else { return [specials.startOfTranscript] }
        return [specials.startOfTranscript, english, specials.transcribe]
    }

    /// The text of text tokens (ids below `<|endoftext|>`); others are left out.
    public func decode(_ tokens: [Int]) -> String {
        var bytes: [UInt8] = []
        for token in tokens where token >= 0 && token < specials.endOfText && token < pieces.count {
            for scalar in pieces[token].unicodeScalars {
                if let byte = Self.byteOf[scalar.value] { bytes.append(byte) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text tokens for `text`, as GPT-2 cuts it (its pre-tokenizing pattern, then merges by rank).
    public func encode(_ text: String) -> [Int] {
        let ns = text as NSString
        var out: [Int] = []
        for match in Self.pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let piece = ns.substring(with: match.range)
            let symbols = piece.utf8.map { String(Self.unicodeOf[Int($0)]) }
            for part in merge(symbols) {
                if let id = ids[part] { out.append(id) }
            }
        }
        return out
    }

    private func merge(_ start: [String]) -> [String] {
        var symbols = start
        while symbols.count > 1 {
            var best: (rank: Int, index: Int)? = nil
            for i in 0..<(symbols.count - 1) {
                if let rank = ranks[symbols[i] + " " + symbols[i + 1]], rank < (best?.rank ?? Int.max) { best = (rank, i) }
            }
            guard let (_, i) = best else { break }
            let joined = symbols[i] + symbols[i + 1]
            symbols.replaceSubrange(i...(i + 1), with: [joined])
        }
        return symbols
    }

    /// GPT-2's pre-tokenizing pattern: contractions, letters, digits, other runs, spaces.
    private static let pattern = try! NSRegularExpression(
        pattern: #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"#)

    /// GPT-2's byte-to-character table: printable bytes stand for themselves, the rest for
    /// characters from U+0100 on, in byte order.
    private static let unicodeOf: [Character] = {
        var table = [Character](repeating: " ", count: 256)
        var next: UInt32 = 256
        for byte in 0..<256 {
            let printable = (33...126).contains(byte) || (161...172).contains(byte) || (174...255).contains(byte)
            if printable { table[byte] = Character(Unicode.Scalar(UInt32(byte))!) } else {
                table[byte] = Character(Unicode.Scalar(next)!)
                next += 1
            }
        }
        return table
    }()

    private static let byteOf: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for (byte, character) in unicodeOf.enumerated() { table[character.unicodeScalars.first!.value] = UInt8(byte) }
        return table
    }()
}
