/// The items of a dump: bullets, numbered and check-box items start one each, as do labels
/// ("Joe: ...") and blank lines; a line after a long one without an end mark continues it (wrapped text). Headings are kept
/// apart so they go to the note as written. Markdown emphasis is dropped.
public enum CaptureLines {
    public struct Item: Equatable, Sendable {
        public var text: String
        public var heading: Bool
    }

    public static func items(of text: String) -> [Item] {
        var out: [Item] = []
        var open = false
        var lastLength = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
                .trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                open = false
                continue
            }
            if line.hasPrefix("#") {
                out.append(Item(text: line, heading: true))
                open = false
                continue
            }
            var starts = false
            if let m = ClausePattern.shared.match(#"(?:[-*•·+]|\d+[.)]|\[[ xX]?\]|- \[[ xX]?\])\s+(.*)"#, line) {
                line = m[0]
                starts = true
            }
            if ClausePattern.shared.match(#"\p{L}[\p{L}\d ]{0,24}:.*"#, line) != nil { starts = true }
            // Only a long line wraps: short lines without end marks are a list, one item each.
            if open, !starts, lastLength >= 60, let last = out.last, !last.heading, let end = last.text.last, !".!?:".contains(end) {
                out[out.count - 1].text += " " + line
            } else {
                out.append(Item(text: line, heading: false))
            }
            open = true
            lastLength = line.count
        }
        return out.filter { !$0.text.isEmpty }
    }
}
