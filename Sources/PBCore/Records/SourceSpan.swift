/// Where a piece of text sits in its source: the chunk and document it belongs to, the file, and
/// its byte, line and page range there.
///
/// Chunks, hits and evidence all carry one, and each record writes its fields at its own top
/// level (pb-records(5) shows them flat), so the span is one type in Swift but no nesting in JSON.
/// `start` and `end` are byte offsets into the document's text layer, `[start, end)`; lines and
/// pages are 1-based and inclusive; pages are known for PDF only.
public struct SourceSpan: Codable, Equatable, Hashable, Sendable {
    public var chunkID: String
    public var docID: String
    public var path: String
    public var title: String
    public var section: [String]
    public var start: Int
    public var end: Int
    public var lineStart: Int
    public var lineEnd: Int
    public var pageStart: Int?
    public var pageEnd: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case path, title, section, start, end
        case chunkID = "chunk_id", docID = "doc_id", lineStart = "line_start", lineEnd = "line_end"
        case pageStart = "page_start", pageEnd = "page_end"
    }

    /// The span's JSON keys, for a record's `knownKeys`.
    public static var keys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public init(chunkID: String, docID: String, path: String, title: String, section: [String],
                start: Int, end: Int, lineStart: Int, lineEnd: Int, pageStart: Int? = nil, pageEnd: Int? = nil) {
        self.chunkID = chunkID
        self.docID = docID
        self.path = path
        self.title = title
        self.section = section
        self.start = start
        self.end = end
        self.lineStart = lineStart
        self.lineEnd = lineEnd
        self.pageStart = pageStart
        self.pageEnd = pageEnd
    }

    /// The last component of `path`: how a prompt names the source, and words that say what
    /// the passage is about ("car-maintenance-log.txt").
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// A record that carries a span: its fields read as the record's own (`hit.path`, `chunk.start`).
@dynamicMemberLookup
public protocol SourceFile {
    var span: SourceSpan { get set }
}

extension SourceFile {
    public subscript<T>(dynamicMember key: WritableKeyPath<SourceSpan, T>) -> T {
        get { span[keyPath: key] }
        set { span[keyPath: key] = newValue }
    }

    public var fileName: String { span.fileName }
}
