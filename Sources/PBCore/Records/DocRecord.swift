/// `doc`: a document to chunk, by `path` (read from disk) or inline `text`.
///
/// pb-index's `--changed` filter also writes `doc` records with `unchanged: true` for documents the
/// library already holds, so a later `pb-index --prune` knows they are still present.
public struct DocRecord: PBRecord, Equatable {
    public static let kindName = "doc"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "doc"
    public var path: String?
    public var text: String?
    public var title: String?
    public var library: String?
    /// Format name (text, markdown, html, csv, pdf, docx) when it cannot be told from the path.
    public var format: String?
    public var docID: String?
    public var hash: String?
    public var unchanged: Bool?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, path, text, title, library, format, unchanged, hash
        case docID = "doc_id"
    }

    public init(path: String? = nil, text: String? = nil, title: String? = nil, library: String? = nil) {
        self.path = path
        self.text = text
        self.title = title
        self.library = library
    }
}
