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
            out += sentences(of: e, piece: i)
        }
        return out
    }

    /// The sentences of one piece. Lines inside a sentence of a table or list are kept together;
    /// a blank line always ends a sentence (headings and list items have no final period).
    public func sentences(of e: Evidence, piece: Int) -> [EvidenceSentence] {
        let bytes = Array(e.text.utf8)
        var out: [EvidenceSentence] = []
        for block in Self.blocks(bytes) {
            for r in Self.joiningWrappedLines(bytes, segmenter.sentences(in: bytes, range: block)) {
                let text = String(decoding: bytes[r], as: UTF8.self)
                var newlines = 0
                for b in bytes[0..<r.lowerBound] where b == 0x0A { newlines += 1 }
                out.append(EvidenceSentence(n: e.n, piece: piece, chunkID: e.chunkID, path: e.path,
                                            start: e.start + r.lowerBound, end: e.start + r.upperBound,
                                            line: e.lineStart + newlines, page: e.pageStart, text: text))
            }
        }
        return out
    }

    /// ICU ends a sentence at every line break (UAX #29 treats LF as a paragraph separator), so a
    /// hard-wrapped paragraph ("... from €40 to €45. The\ncommittee agreed ...") comes apart
    /// mid-sentence. A piece that ends without closing punctuation, followed across one line
    /// break by a piece starting in lower case, is one sentence wrapped; list items, table rows
    /// and headings start otherwise and stay apart.
    static func joiningWrappedLines(_ bytes: [UInt8], _ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for r in ranges {
            if let last = out.last, isWrapped(bytes, previous: last, next: r) {
                out[out.count - 1] = last.lowerBound..<r.upperBound
            } else {
                out.append(r)
            }
        }
        return out
    }

    static func isWrapped(_ bytes: [UInt8], previous: Range<Int>, next: Range<Int>) -> Bool {
        guard !previous.isEmpty, !next.isEmpty, previous.upperBound <= next.lowerBound else { return false }
        let closing: Set<UInt8> = Set(".!?:;\"')]*|".utf8)
        guard !closing.contains(bytes[previous.upperBound - 1]) else { return false }
        let gap = bytes[previous.upperBound..<next.lowerBound]
        guard gap.filter({ $0 == 0x0A }).count == 1, gap.allSatisfy({ $0 == 0x0A || $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return false }
        let first = bytes[next.lowerBound]
        return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
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
