import CICU
import PBCore

/// Sentence boundaries from ICU, on UTF-8 bytes directly (UText over UTF-8 reports byte offsets,
/// so no UTF-16 mapping is needed), with an abbreviation guard: ICU's sentence rules split after
/// "Dr." or "e.g." even with `@ss=standard`, so such breaks are joined again.
public final class SentenceSegmenter {
    private let iterator: UnsafeMutableRawPointer
    private var boundaries = [Int32](repeating: 0, count: 256)

    /// Words that end with a period without ending a sentence (lowercased, without the period).
    static let abbreviations: Set<String> = [
        "dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "mt", "ft", "vs", "etc", "e.g", "i.e", "cf", "al",
        "fig", "figs", "eq", "no", "nos", "vol", "pp", "p", "ch", "sec", "approx", "ca", "inc", "ltd", "co",
        "corp", "dept", "est", "gen", "gov", "lt", "col", "sgt", "capt", "rev", "hon", "u.s", "u.k", "e.u",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "mon", "tue", "wed", "thu", "fri", "sat", "sun", "min", "max", "resp", "ref", "refs", "ed", "eds",
        "viz", "op", "cit", "ibid", "a.m", "p.m", "ph.d", "b.sc", "m.sc", "inc", "tel", "ext",
    ]

    public init() throws {
        var error: UnsafePointer<CChar>?
        guard let bi = pb_icu_sentence_open(&error) else {
            let name = error.map { String(cString: $0) } ?? "unknown error"
            throw ToolFailure(.unavailable, "icu: cannot open the sentence break iterator: \(name)")
        }
        iterator = bi
    }

    deinit { pb_icu_break_close(iterator) }

    /// Sentence ranges inside `range` of `bytes`, trimmed of surrounding whitespace, in order.
    public func sentences(in bytes: [UInt8], range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        var raw: [Range<Int>] = []
        var count: Int32 = 0
        for _ in 0..<2 {
            count = bytes.withUnsafeBufferPointer { buf in
                let base = UnsafeRawPointer(buf.baseAddress! + range.lowerBound).assumingMemoryBound(to: CChar.self)
                return boundaries.withUnsafeMutableBufferPointer {
                    pb_icu_sentence_breaks(iterator, base, Int64(range.count), $0.baseAddress, Int32($0.count))
                }
            }
            if count <= boundaries.count { break }
            boundaries = [Int32](repeating: 0, count: Int(count))
        }
        if count < 2 {
            raw = [range]
        } else {
            for k in 1..<Int(count) {
                raw.append((range.lowerBound + Int(boundaries[k - 1]))..<(range.lowerBound + Int(boundaries[k])))
            }
        }
        var merged: [Range<Int>] = []
        for r in raw {
            let t = Self.trim(bytes, r)
            guard !t.isEmpty else { continue }
            if let last = merged.last, Self.shouldJoin(bytes, previous: last, next: t) || Self.isWrapped(bytes, previous: last, next: t) {
                merged[merged.count - 1] = last.lowerBound..<t.upperBound
            } else {
                merged.append(t)
            }
        }
        return merged
    }

    /// A break is false when the previous piece ends in an abbreviation or an initial ("J."), or the
    /// next one starts in lower case (a sentence never does; "e.g. the" is the common case).
    static func shouldJoin(_ bytes: [UInt8], previous: Range<Int>, next: Range<Int>) -> Bool {
        guard bytes[previous.upperBound - 1] == UInt8(ascii: ".") else { return false }
        // The last word of the previous piece, without its final period.
        var i = previous.upperBound - 1
        while i > previous.lowerBound, !isSpace(bytes[i - 1]), bytes[i - 1] != UInt8(ascii: "(") { i -= 1 }
        let word = String(decoding: bytes[i..<(previous.upperBound - 1)], as: UTF8.self).lowercased()
        if abbreviations.contains(word) { return true }
        if word.count == 1, let c = word.unicodeScalars.first, c.properties.isAlphabetic { return true }
        let first = bytes[next.lowerBound]
        if first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") { return true }
        return false
    }

    /// ICU ends a sentence at every line break (UAX #29 treats LF as a paragraph separator), so a
    /// hard-wrapped paragraph ("... from €40 to €45. The\ncommittee agreed ...") comes apart
    /// mid-sentence. A piece that ends without closing punctuation, followed across one line
    /// break by a piece that goes on with it, is one sentence wrapped. A piece goes on when it
    /// starts in lower case or with "(" and lower case; when the piece before left a bracket open
    /// ("battery (Varta Silver Dynamic\nE39) from ..."); or when the piece before is a full
    /// line of prose (60 bytes or more, ending in a word in lower case) and the next starts with
    /// a capitalised word ("change due\nJune 2023") or a number that is not a list's
    /// ("to 7 February\n2025 (31 days)"). List items, table rows, numbered lines and
    /// headings start otherwise and stay apart.
    static func isWrapped(_ bytes: [UInt8], previous: Range<Int>, next: Range<Int>) -> Bool {
        guard !previous.isEmpty, !next.isEmpty, previous.upperBound <= next.lowerBound else { return false }
        let closing: Set<UInt8> = Set(".!?:;\"')]*|".utf8)
        guard !closing.contains(bytes[previous.upperBound - 1]) else { return false }
        let gap = bytes[previous.upperBound..<next.lowerBound]
        guard gap.filter({ $0 == 0x0A }).count == 1, gap.allSatisfy({ $0 == 0x0A || $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return false }
        func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
        func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let first = bytes[next.lowerBound]
        if isLower(first) { return true }
        if first == UInt8(ascii: "("), next.count > 1, isLower(bytes[next.lowerBound + 1]) { return true }
        let before = bytes[previous]
        if before.filter({ $0 == UInt8(ascii: "(") }).count > before.filter({ $0 == UInt8(ascii: ")") }).count { return true }
        // A full line of prose: the whole line the piece before ends, which may begin before it.
        let lineStart = bytes[0..<previous.upperBound].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let lastLine = bytes[lineStart..<previous.upperBound]
        // Table rows ("Holding deposit | £265 | Paid ... rent") are lines, not prose.
        let cells = bytes[lineStart..<next.upperBound].contains { $0 == UInt8(ascii: "|") || $0 == 0x09 }
        // A number carried to the next line ("... to 7 February\n2025 (31 days)."), unless it
        // numbers a list item ("2. Electricity", "3) Drain").
        // Records of a delimited file ("2024-01,Utilities,...", ended by CR LF as CSV writes
        // them) are lines too.
        let record = lastLine.filter { $0 == UInt8(ascii: ";") }.count >= 2 || lastLine.filter { $0 == UInt8(ascii: ",") }.count >= 3
            || gap.contains(0x0D)
        if !cells, !record, lastLine.count >= 60, isLower(bytes[previous.upperBound - 1]), isDigit(first) {
            var d = next.lowerBound
            while d < next.upperBound, isDigit(bytes[d]) { d += 1 }
            let marker = d + 1 < next.upperBound && (bytes[d] == UInt8(ascii: ".") || bytes[d] == UInt8(ascii: ")")) && bytes[d + 1] == 0x20
            if !marker { return true }
        }
        guard !cells, lastLine.count >= 60, isLower(bytes[previous.upperBound - 1]), isUpper(first),
              next.count > 1, isLower(bytes[next.lowerBound + 1]) else { return false }
        // Words only at the end: "... Garage: Hollis Motors" ends in a name, a label line.
        var k = previous.upperBound - 1
        while k > lineStart, isLower(bytes[k - 1]) || isUpper(bytes[k - 1]) { k -= 1 }
        return isLower(bytes[k])
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C }

    /// The range without leading and trailing ASCII whitespace (and non-breaking spaces).
    public static func trim(_ bytes: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi {
            if isSpace(bytes[lo]) { lo += 1 } else if lo + 1 < hi, bytes[lo] == 0xC2, bytes[lo + 1] == 0xA0 { lo += 2 } else { break }
        }
        while hi > lo {
            if isSpace(bytes[hi - 1]) { hi -= 1 } else if hi - 2 >= lo, bytes[hi - 2] == 0xC2, bytes[hi - 1] == 0xA0 { hi -= 2 } else { break }
        }
        return lo..<hi
    }
}
