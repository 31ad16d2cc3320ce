/// `chunk`: a sentence-bounded piece of one document, written by pb-chunk.
///
/// `text` is exactly the bytes `[start, end)` of the document's text layer (the file itself for
/// text, Markdown and CSV; the extracted text for HTML, PDF and DOCX), so a citation can point
/// into the source. `prefix` (title and section path) is kept apart: it is embedded with the text
/// but is not part of the source span.
public struct ChunkRecord: PBRecord, Equatable, SourceFile {
    public static let kindName = "chunk"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)).union(SourceSpan.keys) }

    public var kind = "chunk"
    public var library: String
    /// The chunk's ids, file, title, section path and byte/line/page range (written flat).
    public var span: SourceSpan
    public var format: String
    public var seq: Int
    /// How many chunks the document has: pb-index commits a document only when all have arrived.
    public var docChunks: Int
    public var text: String
    public var prefix: String
    public var words: Int
    public var tokens: Int
    /// SHA-256 of the chunk's prefix and text.
    public var hash: String
    /// SHA-256 of the document's bytes together with what else shapes its chunks (title, format,
    /// chunk limits): pb-index skips documents whose hash it already has.
    public var docHash: String
    public var embedding: Embedding?
    /// Present when OCR read the chunk's text.
    public var ocr: OCRQuality?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, library, format, seq, text, prefix, words, tokens, hash, embedding, ocr
        case docChunks = "doc_chunks", docHash = "doc_hash"
    }

    public init(library: String, span: SourceSpan, format: String, seq: Int, docChunks: Int, text: String,
                prefix: String, words: Int, tokens: Int, hash: String, docHash: String) {
        self.library = library
        self.span = span
        self.format = format
        self.seq = seq
        self.docChunks = docChunks
        self.text = text
        self.prefix = prefix
        self.words = words
        self.tokens = tokens
        self.hash = hash
        self.docHash = docHash
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(String.self, forKey: .kind)
        library = try c.decode(String.self, forKey: .library)
        span = try SourceSpan(from: decoder)
        format = try c.decode(String.self, forKey: .format)
        seq = try c.decode(Int.self, forKey: .seq)
        docChunks = try c.decode(Int.self, forKey: .docChunks)
        text = try c.decode(String.self, forKey: .text)
        prefix = try c.decode(String.self, forKey: .prefix)
        words = try c.decode(Int.self, forKey: .words)
        tokens = try c.decode(Int.self, forKey: .tokens)
        hash = try c.decode(String.self, forKey: .hash)
        docHash = try c.decode(String.self, forKey: .docHash)
        embedding = try c.decodeIfPresent(Embedding.self, forKey: .embedding)
        ocr = try c.decodeIfPresent(OCRQuality.self, forKey: .ocr)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(library, forKey: .library)
        try span.encode(to: encoder)
        try c.encode(format, forKey: .format)
        try c.encode(seq, forKey: .seq)
        try c.encode(docChunks, forKey: .docChunks)
        try c.encode(text, forKey: .text)
        try c.encode(prefix, forKey: .prefix)
        try c.encode(words, forKey: .words)
        try c.encode(tokens, forKey: .tokens)
        try c.encode(hash, forKey: .hash)
        try c.encode(docHash, forKey: .docHash)
        try c.encodeIfPresent(ocr, forKey: .ocr)
        try c.encodeIfPresent(embedding, forKey: .embedding)
    }
}
