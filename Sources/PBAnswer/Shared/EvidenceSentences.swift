import PBCore
import PBText

/// A sentence of evidence, located twice: inside its piece of evidence and in the source file.
public struct EvidenceSentence: Equatable, Sendable {
    /// The passage number ([n] in the prompt).
    public var n: Int
    /// Index of the piece in `context.evidence`.
    public var piece: Int
    public var chunkID: String
    public var path: String
    /// Byte span in the source text layer (inside the piece's [start, end)).
    public var start: Int
    public var end: Int
    /// Source line of `start`, 1-based.
    public var line: Int
    public var page: Int?
    public var text: String
    /// The deepest heading the sentence sits under ("4. Spring work day", a log entry's
    /// "2023-06-27  76,890 km  Garage: Hollis Motors"), empty when there is none.
    public var heading: String = ""
    /// The whole section path, outermost first ("Message 2: Seeds ordered", "Attachment: quote.pdf").
    public var section: [String] = []
    /// For a row of a table: the table's header row, which names what the row's cells are
    /// ("Category | Monthly budget | March"); nil for the header itself and for prose.
    public var tableHeader: String?
    /// The document's title.
    public var title: String = ""
    /// For a row of a table: the heading-like line over the table in its passage ("2. Electricity"
    /// over the electricity charges, "3. Gas" over the gas charges), nil when there is none.
    public var caption: String?

    /// When a recording's cited words were said ("0:42–0:47"), from the time spans that open
    /// the lines of a transcript; nil for other documents.
    public var time: String?

    /// The section path as a citation names it: headings joined by " > ", nil when there is none.
    public var place: String? { section.isEmpty ? nil : section.joined(separator: " > ") }
}

/// Splits evidence into sentences with source byte spans, so that answers and gates can cite
/// and check sentence by sentence. Pieces hold exact source bytes, so a span inside a piece's
/// text is a span of the file once shifted by the piece's `start`.
public final class EvidenceSentences {
    private let segmenter: SentenceSegmenter

    public init() throws {
        segmenter = try SentenceSegmenter()
    }

    /// Every sentence of every piece, in evidence order.
    public func sentences(_ evidence: [Evidence]) -> [EvidenceSentence] {
        var out: [EvidenceSentence] = []
        for (i, e) in evidence.enumerated() {
            // A table's caption may close the chunk before it ("2. Electricity" at the end of one
            // chunk, its table at the start of the next): the passage's previous piece is read too.
            var before: [UInt8] = []
            if i > 0 {
                let p = evidence[i - 1]
                if p.path == e.path, p.n == e.n, p.end <= e.start, e.start - p.end <= 2 { before = Array(p.text.utf8) + [0x0A] }
            }
            out += sentences(of: e, piece: i, preceding: before)
        }
        return out
    }

    /// The sentences of one piece. Lines inside a sentence of a table or list are kept together;
    /// a blank line always ends a sentence (headings and list items have no final period).
    public func sentences(of e: Evidence, piece: Int, preceding: [UInt8] = []) -> [EvidenceSentence] {
        let bytes = Array(e.text.utf8)
        let context = preceding.isEmpty ? bytes : preceding + bytes
        let headerWords = e.header.map(TermAnalyzer.tokens)
        var out: [EvidenceSentence] = []
        // A recording's lines start with when they were said ("[0:42–0:47] "): the time is
        // where to listen, not what was said, so no sentence quotes it. Only a recording's: a
        // note may start a line with a time that is part of what it says.
        let recording = AudioDocument.isRecording(path: e.path)
        for block in Self.blocks(bytes) {
            for var r in segmenter.sentences(in: bytes, range: block) {
                if recording, let stamp = Self.speechTime(in: bytes, at: r.lowerBound) {
                    guard stamp.after < r.upperBound else { continue }
                    r = stamp.after..<r.upperBound
                }
                let time = recording ? Self.speechTimes(in: bytes, range: r) : nil
                let text = String(decoding: bytes[r], as: UTF8.self)
                var newlines = 0
                for b in bytes[0..<r.lowerBound] where b == 0x0A { newlines += 1 }
                let isRow = SentenceScorer.isTableRow(path: e.path, text: text)
                // The header names a row's cells; the header line itself is no row under it.
                let header = isRow && headerWords != TermAnalyzer.tokens(text) ? e.header : nil
                out.append(EvidenceSentence(n: e.n, piece: piece, chunkID: e.chunkID, path: e.path,
                                            start: e.start + r.lowerBound, end: e.start + r.upperBound,
                                            line: e.lineStart + newlines, page: e.pageStart, text: text,
                                            heading: e.section.last ?? "", section: e.section, tableHeader: header, title: e.title,
                                            caption: isRow && !Self.isDelimitedFile(e.path) ? Self.caption(before: preceding.count + r.lowerBound, in: context) : nil,
                                            time: time))
            }
        }
        return out
    }

    /// The line-opening time span of a transcript ("[1:05–1:09] ", as pb-chunk writes a
    /// recording's lines) at `at`: its two times, and where the text after it begins.
    static func speechTime(in bytes: [UInt8], at: Int) -> (from: String, to: String, after: Int)? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "["), at == 0 || bytes[at - 1] == 0x0A else { return nil }
        var i = at + 1
        func clock() -> Bool {
            var groups = 0
            while true {
                let from = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                guard i > from else { return false }
                groups += 1
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return groups >= 2 }
                i += 1
            }
        }
        let dash: [UInt8] = Array("–".utf8)
        guard clock(), bytes[i...].starts(with: dash) else { return nil }
        let from = String(decoding: bytes[(at + 1)..<i], as: UTF8.self)
        i += dash.count
        let second = i
        guard clock(), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "]"), bytes[i + 1] == 0x20 else { return nil }
        return (from, String(decoding: bytes[second..<i], as: UTF8.self), i + 2)
    }

    /// When the words in `range` were said: the time span opening their line (a sentence ends
    /// at a line's end); nil outside a transcript.
    static func speechTimes(in bytes: [UInt8], range: Range<Int>) -> String? {
        var start = range.lowerBound
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return speechTime(in: bytes, at: start).map { $0.from + "–" + $0.to }
    }

    /// A CSV or TSV file: every line is a row, and its header is its first line.
    static func isDelimitedFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".csv") || lower.hasSuffix(".tsv")
    }

    /// The heading-like line over the table a row at `offset` is in: going up past the table's
    /// rows, blank lines and at most two lines of prose (a meter's serial, a note under the
    /// heading), the first short line without closing punctuation ("2. Electricity").
    static func caption(before offset: Int, in bytes: [UInt8]) -> String? {
        var end = offset
        while end > 0, bytes[end - 1] != 0x0A { end -= 1 }
        var prose = 0
        while end > 0 {
            var start = end - 1
            while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
            let line = String(decoding: bytes[start..<(end - 1)], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            end = start
            if line.isEmpty || SentenceScorer.isTableRow(path: "", text: line) { continue }
            let words = line.split(separator: " ")
            if (1...6).contains(words.count), let last = line.last, !".,;:!?".contains(last), line.contains(where: \.isLetter) {
                return line
            }
            prose += 1
            if prose > 2 { return nil }
        }
        return nil
    }

    /// Ranges of `bytes` separated by blank lines.
    static func blocks(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                var j = i + 1
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0D { j += 1 }
                if j < bytes.count, bytes[j] == 0x0A {
                    if start < i { out.append(start..<i) }
                    while j < bytes.count, bytes[j] == 0x0A || bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0D { j += 1 }
                    start = j
                    i = j
                    continue
                }
            }
            i += 1
        }
        if start < bytes.count { out.append(start..<bytes.count) }
        return out
    }
}
