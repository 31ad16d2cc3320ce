import PBCore
import PBText

/// The source bytes already on the desk, per document, so that nothing is put there twice.
///
/// Chunks overlap their neighbours by about a sentence and two anchors can be neighbours, so a
/// piece offered to the desk is cut down to the bytes not yet present. A cut keeps the invariant
/// of every piece of evidence (its text is exactly the source bytes [start, end)): the piece's text
/// is a byte slice of the chunk's text, which is itself the source slice, so only the offsets move.
/// Cuts fall on UTF-8 boundaries and whitespace at a cut is trimmed.
public struct DeskCoverage: Sendable {
    /// Per document id: disjoint, sorted byte ranges of the text layer.
    private var covered: [String: [Range<Int>]] = [:]

    public init() {}

    /// Whether any byte of `range` in document `docID` is on the desk.
    public func overlaps(docID: String, _ range: Range<Int>) -> Bool {
        (covered[docID] ?? []).contains { $0.overlaps(range) }
    }

    /// Records `range` of document `docID` as present.
    public mutating func add(docID: String, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var ranges = covered[docID] ?? []
        ranges.append(range)
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in ranges {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        covered[docID] = merged
    }

    /// The parts of `chunk` not yet on the desk, as pieces of evidence (n 0, no rank or score yet).
    /// Empty when everything it holds is already present, or only whitespace and punctuation is new.
    public func newPieces(of chunk: Hit, role: EvidenceRole) -> [Evidence] {
        let bytes = Array(chunk.text.utf8)
        let base = chunk.start
        guard bytes.count == chunk.end - chunk.start else { return [] }
        var gaps: [Range<Int>] = []
        var cursor = chunk.start
        for r in covered[chunk.docID] ?? [] where r.upperBound > chunk.start && r.lowerBound < chunk.end {
            if r.lowerBound > cursor { gaps.append(cursor..<r.lowerBound) }
            cursor = max(cursor, r.upperBound)
        }
        if cursor < chunk.end { gaps.append(cursor..<chunk.end) }
        var out: [Evidence] = []
        for gap in gaps {
            guard let cut = Self.trim(bytes, (gap.lowerBound - base)..<(gap.upperBound - base),
                                      cutFront: gap.lowerBound > chunk.start, cutBack: gap.upperBound < chunk.end) else { continue }
            out.append(Self.piece(of: chunk, bytes: bytes, cut, role: role))
        }
        return out
    }

    /// Moves the cut ends of `r` (relative to `bytes`) onto character boundaries and past
    /// whitespace; nil when nothing but whitespace and punctuation is left.
    static func trim(_ bytes: [UInt8], _ r: Range<Int>, cutFront: Bool, cutBack: Bool) -> Range<Int>? {
        var a = r.lowerBound
        var b = r.upperBound
        if cutFront {
            while a < b, isContinuation(bytes[a]) { a += 1 }
            while a < b, isSpace(bytes[a]) { a += 1 }
        }
        if cutBack {
            // b is an exclusive end: it must sit at the first byte of a character.
            while b > a, b < bytes.count, isContinuation(bytes[b]) { b -= 1 }
            while b > a, isSpace(bytes[b - 1]) { b -= 1 }
        }
        guard a < b else { return nil }
        let hasWord = bytes[a..<b].contains { $0 >= 0x80 || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
        return hasWord ? a..<b : nil
    }

    /// A piece of `chunk` for the byte range `r` of its text, with its lines moved to match.
    static func piece(of chunk: Hit, bytes: [UInt8], _ r: Range<Int>, role: EvidenceRole) -> Evidence {
        let before = bytes[0..<r.lowerBound].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let after = bytes[r.upperBound...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        var span = chunk.span
        span.start = chunk.start + r.lowerBound
        span.end = chunk.start + r.upperBound
        span.lineStart = chunk.lineStart + before
        span.lineEnd = max(chunk.lineStart + before, chunk.lineEnd - after)
        var piece = Evidence(n: 0, span: span, seq: chunk.seq, text: String(decoding: bytes[r], as: UTF8.self), role: role)
        piece.speaker = chunk.speaker
        piece.said = chunk.said
        piece.time = chunk.time
        piece.supersededBy = chunk.supersededBy
        piece.header = TableRow.header(prefix: chunk.prefix, text: chunk.text, csv: chunk.path.lowercased().hasSuffix(".csv"))
        return piece
    }

    static func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B }
}
