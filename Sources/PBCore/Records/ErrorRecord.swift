/// `error`: a bad input line, written instead of failing when a program runs with `--keep-going`.
public struct ErrorRecord: PBRecord, Equatable {
    public static let kindName = "error"
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }

    public var kind = "error"
    public var tool: String
    public var source: String
    public var line: Int
    public var message: String
    public var input: String
    /// The document the error is about, when there is one (pb-index keeps it from --prune).
    public var path: String?
    public var extra: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, tool, source, line, message, input, path
    }

    public init(tool: String, source: String, line: Int, message: String, input: String, path: String? = nil) {
        self.path = path
        self.tool = tool
        self.source = source
        self.line = line
        self.message = message
        self.input = input
    }
}
