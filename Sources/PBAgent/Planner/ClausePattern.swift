import Foundation

/// Whole-clause regular expressions, case-insensitive, compiled once. Captures are cut from the
/// original text, so a title keeps its capitals.
final class ClausePattern: @unchecked Sendable {
    static let shared = ClausePattern()
    private var cache: [String: NSRegularExpression] = [:]
    private let lock = NSLock()

    private func compiled(_ pattern: String) -> NSRegularExpression {
        lock.lock()
        defer { lock.unlock() }
        if let r = cache[pattern] { return r }
        let r = try! NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [.caseInsensitive])
        cache[pattern] = r
        return r
    }

    /// The groups of a whole-text match ("" for a group that took no part), or nil.
    func match(_ pattern: String, _ text: String) -> [String]? {
        let r = compiled(pattern)
        let ns = text as NSString
        guard let m = r.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return (1..<max(1, m.numberOfRanges)).map { i in
            let range = m.range(at: i)
            return range.location == NSNotFound ? "" : ns.substring(with: range).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether the pattern matches anywhere in the text (not anchored).
    func contains(_ pattern: String, _ text: String) -> Bool {
        match(".*?(?:" + pattern + ").*", text) != nil
    }
}
