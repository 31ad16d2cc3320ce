import Foundation

/// The spelling dictionary Debian installs as /usr/share/dict/british-english (package
/// wbritish, from SCOWL): English words with their inflections, the function words WordNet
/// leaves out ("with", "that"), and common first names ("Fred"). Read once, on first use, and
/// only by a caller that needs to know a word is not a typo.
public final class WordList: @unchecked Sendable {
    public static let defaultPath = "/usr/share/dict/british-english"
    public static let shared: WordList? = WordList(path: defaultPath)

    private let words: Set<String>
    private let asWritten: Set<String>

    /// Nil when the file is missing or empty.
    public init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var words = Set<String>()
        var asWritten = Set<String>()
        for line in text.split(separator: "\n") {
            asWritten.insert(String(line))
            words.insert(line.lowercased())
        }
        guard !words.isEmpty else { return nil }
        self.words = words
        self.asWritten = asWritten
    }

    /// Whether `word` (any case) is in the list.
    public func contains(_ word: String) -> Bool { words.contains(word.lowercased()) }

    /// Whether `word` in lower case is an ordinary word ("team", "sure"), not only a name the
    /// list spells with a capital ("Sam", "Fred").
    public func isCommonWord(_ word: String) -> Bool { asWritten.contains(word.lowercased()) }
}
