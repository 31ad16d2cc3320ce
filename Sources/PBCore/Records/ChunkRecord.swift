/// `chunk`: a sentence-bounded piece of one document, written by pb-chunk.
///
/// `text` is exactly the bytes `[start, end)` of the document's text layer (the file itself for
/// text, Markdown and CSV; the extracted text for HTML, PDF and DOCX), so a citation can point
/// into the source. `prefix` (title and section path) is kept apart: it is embedded with the text
/// but is not part of the source span.
public struct ChunkRecord: PBRecord, Equatable {
    public static let kindName = "chunk"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "chunk"
    public var library: String
    public var docID: String
    public var chunkID: String
    public var path: String
    public var title: String
    public var format: String
    public var section: [String]
    public var seq: Int
    /// How many chunks the document has: pb-index commits a document only when all have arrived.
    public var docChunks: Int
    public var text: String
    public var prefix: String
    public var start: Int
    public var end: Int
    public var lineStart: Int
    public var lineEnd: Int
    public var pageStart: Int?
    public var pageEnd: Int?
    public var words: Int
    public var tokens: Int
    /// SHA-256 of the chunk's prefix and text.
    public var hash: String
    /// SHA-256 of the document's bytes together with what else shapes its chunks (title, format,
    /// chunk limits): pb-index skips documents whose hash it already has.
    public var docHash: String
    public var embedding: Embedding?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, library, path, title, format, section, seq, text, prefix, start, end, words, tokens, hash, embedding
        case docID = "doc_id", chunkID = "chunk_id", docChunks = "doc_chunks"
        case lineStart = "line_start", lineEnd = "line_end", pageStart = "page_start", pageEnd = "page_end"
        case docHash = "doc_hash"
    }

    public init(library: String, docID: String, chunkID: String, path: String, title: String, format: String,
                section: [String], seq: Int, docChunks: Int, text: String, prefix: String, start: Int, end: Int,
                lineStart: Int, lineEnd: Int, pageStart: Int? = nil, pageEnd: Int? = nil, words: Int, tokens: Int,
                hash: String, docHash: String) {
        self.library = library
        self.docID = docID
        self.chunkID = chunkID
        self.path = path
        self.title = title
        self.format = format
        self.section = section
        self.seq = seq
        self.docChunks = docChunks
        self.text = text
        self.prefix = prefix
        self.start = start
        self.end = end
        self.lineStart = lineStart
        self.lineEnd = lineEnd
        self.pageStart = pageStart
        self.pageEnd = pageEnd
        self.words = words
        self.tokens = tokens
        self.hash = hash
        self.docHash = docHash
    }
}
