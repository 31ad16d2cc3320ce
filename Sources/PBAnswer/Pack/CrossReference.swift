import Foundation

/// A pointer from a passage to another part of the same document: "see section 7.3",
/// "refer to chapter 2", "(see 'Warranty')", "see the Troubleshooting section", "(see Maintenance)".
///
/// Documents defer to themselves constantly, and a passage that says "see section 7.3" stops right
/// before the useful part, so pb-pack follows such pointers into the sections they name.
public struct CrossReference: Hashable, Sendable {
    public enum Target: Hashable, Sendable {
        /// A section number: "7.3", "2".
        case number(String)
        /// A heading named in words, lowercased: "warranty", "troubleshooting".
        case heading(String)
    }

    public var target: Target

    public init(_ target: Target) { self.target = target }

    /// The references in `text`, in order of appearance, without repeats.
    public static func find(in text: String) -> [CrossReference] {
        let ns = text as NSString
        var found: [(Int, CrossReference)] = []
        for (pattern, kind) in Self.patterns {
            for m in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) where m.range(at: 1).location != NSNotFound {
                let captured = ns.substring(with: m.range(at: 1)).trimmingCharacters(in: .whitespaces)
                let ref: CrossReference
                switch kind {
                case .number: ref = CrossReference(.number(captured))
                case .heading:
                    let name = Self.normalisedHeading(captured)
                    guard name.count >= 2, !Self.vagueHeadings.contains(name) else { continue }
                    ref = CrossReference(.heading(name))
                }
                found.append((m.range.location, ref))
            }
        }
        var seen: Set<CrossReference> = []
        return found.sorted { $0.0 < $1.0 }.map(\.1).filter { seen.insert($0).inserted }
    }

    /// Whether one heading of a section path is the section this reference names.
    public func matches(heading: String) -> Bool {
        switch target {
        case .number(let number):
            return Self.startsWithNumber(Self.strippingSectionWord(heading), number)
        case .heading(let name):
            let h = Self.normalisedHeading(heading)
            return h == name || (" " + h + " ").contains(" " + name + " ")
        }
    }

    /// Whether a line of text reads as the heading this reference names; for documents whose
    /// chunks carry no section path (PDF and plain text keep their headings as ordinary lines).
    public func matches(line: String) -> Bool {
        let l = line.trimmingCharacters(in: .whitespaces)
        guard !l.isEmpty, l.count <= 80, l.split(separator: " ").count <= 10,
              let last = l.last, !".,;:".contains(last), !Self.isContentsLine(l) else { return false }
        switch target {
        case .number(let number):
            return Self.startsWithNumber(Self.strippingSectionWord(l), number)
        case .heading(let name):
            return Self.normalisedHeading(l) == name
        }
    }

    // MARK: - Patterns

    enum Kind { case number, heading }

    /// Captures a section number (kind .number) or a heading name (kind .heading) in group 1.
    static let patterns: [(NSRegularExpression, Kind)] = {
        let lead = #"\b(?:see|refer\s+to|cf\.?|described\s+in|set\s+out\s+in|as\s+per)\s+(?:also\s+)?(?:the\s+)?"#
        let quote = #"["'‘“]"#
        let unquote = #"["'’”]"#
        func re(_ p: String, _ caseless: Bool = true) -> NSRegularExpression {
            try! NSRegularExpression(pattern: p, options: caseless ? [.caseInsensitive] : [])
        }
        return [
            // "see section 7.3", "refer to chapter 2", "see § 4"
            (re(lead + #"(?:sections?|chapters?|clauses?|parts?|paragraphs?|§)\s*([0-9]+(?:\.[0-9]+)*)\b"#), .number),
            // "see 'Warranty'", "see section “Cleaning the filters”"
            (re(lead + #"(?:(?:section|chapter|clause|part)\s+)?"# + quote + #"([^"'’”\n]{2,60})"# + unquote), .heading),
            // "see the Troubleshooting section", "refer to the Care and cleaning chapter"
            (re(#"\b(?:see|refer\s+to)\s+(?:also\s+)?the\s+((?:[\p{L}\p{N}’'-]+\s+){0,5}?[\p{L}\p{N}’'-]+)\s+(?:section|chapter)\b"#), .heading),
            // "(see Maintenance)": a capitalised name alone in parentheses
            (re(#"\((?:[Ss]ee|[Rr]efer\s+to)\s+(?:also\s+)?(\p{Lu}[\p{L}\p{N}’'-]*(?:\s+[\p{L}\p{N}’'-]+){0,5})\)"#, false), .heading),
        ]
    }()

    /// Words that point somewhere without naming it ("see the next section").
    static let vagueHeadings: Set<String> = ["next", "previous", "following", "above", "below", "last", "first", "same",
                                             "relevant", "this", "that", "other", "above mentioned", "preceding", "section", "chapter"]

    /// Lowercased, numbering and quotes stripped, whitespace collapsed: "5. Maintenance" -> "maintenance".
    static func normalisedHeading(_ s: String) -> String {
        var t = strippingSectionWord(s.lowercased())
        if let r = t.range(of: #"^[0-9]+(?:\.[0-9]+)*\.?\)?\s*"#, options: .regularExpression) { t.removeSubrange(r) }
        t = t.trimmingCharacters(in: CharacterSet(charactersIn: "\"'‘’“”:.,;–—- ").union(.whitespaces))
        return t.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// "Section 4 – Payment" -> "4 – Payment".
    static func strippingSectionWord(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard let r = t.range(of: #"^(?:section|chapter|clause|part|paragraph|§)\s*"#, options: [.regularExpression, .caseInsensitive]) else { return t }
        return String(t[r.upperBound...])
    }

    /// "4. Obligations" starts with 4 and "4.2 Fees" does not (that is section 4.2); "7.3" starts
    /// "7.3 Filters" but not "7.31 Hoses".
    static func startsWithNumber(_ s: String, _ number: String) -> Bool {
        guard s.hasPrefix(number) else { return false }
        let rest = Array(s.dropFirst(number.count))
        guard let first = rest.first else { return true }
        if first.isNumber { return false }
        if first == ".", rest.count > 1, rest[1].isNumber { return false }
        return true
    }

    /// A table-of-contents line ("5. Maintenance ....... 12") names a heading without being one.
    static func isContentsLine(_ l: String) -> Bool {
        l.range(of: #"(?:\.{3,}|\s{3,}|\t)\s*[0-9]+$"#, options: .regularExpression) != nil
    }
}
