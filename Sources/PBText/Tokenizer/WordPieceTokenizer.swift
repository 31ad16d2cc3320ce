import CICU
import Foundation

/// A domain error for loading a tokenizer vocabulary; messages are lowercase and name the file.
public enum TokenizerError: Error, CustomStringConvertible, Equatable {
    /// The vocabulary file does not exist or cannot be read.
    case cannotOpen(path: String, reason: String)
    /// The vocabulary file holds no pieces, or lacks the special tokens BERT needs.
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open vocabulary: \(reason)"
        case let .malformed(path, reason): return "\(path): malformed vocabulary: \(reason)"
        }
    }
}

/// BERT uncased WordPiece, matching Hugging Face `tokenizers` as configured by all-MiniLM-L6-v2's
/// tokenizer.json (BertNormalizer + BertPreTokenizer + WordPiece, special tokens matched literally).
///
/// The reference is the Rust implementation, not the older Python `BertTokenizer`, because that is
/// what sentence-transformers loads. Where the two differ we follow Rust:
/// - normalisation order is clean text, pad CJK, NFD + drop Mn, then lowercase;
/// - "control" means Cc, Cf, and the six private-use range endpoints (the `unicode_categories`
///   crate lists UnicodeData.txt lines, so interior private-use code points are kept, not dropped);
/// - U+2028 and U+2029 count as whitespace;
/// - the CJK ranges are the Rust ones (Extension E starts at U+2B920 there);
/// - `[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]` written literally in the text become their ids.
/// Unicode data comes from ICU 72 and the Swift runtime, so characters assigned in recent Unicode
/// versions may be classified differently from the reference's older tables.
///
/// Speed: the text is walked once as UTF-8 with an ASCII fast path; a word is built in a small
/// fixed buffer; vocabulary lookups hash byte ranges in place (no String per piece), and the
/// prefix hashes for one start position are computed in a single forward pass.
public final class WordPieceTokenizer: Sendable {
    public static let cls: Int32 = 101, sep: Int32 = 102, pad: Int32 = 0, unk: Int32 = 100
    static let mask: Int32 = 103

    /// Words longer than this (in Unicode scalars, after normalisation) become a single [UNK].
    static let maxWordChars = 100

    private let table: PieceTable
    /// Held by the instance (not a global) so the hot loop reads it without a lazy-init check.
    private let asciiClasses: [UInt8] = (0..<128).map { ASCIIClass.of(UInt8($0)) }

    public init(vocabularyAt url: URL) throws {
        let path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "unreadable" : "no such file"
            throw TokenizerError.cannotOpen(path: path, reason: reason)
        }
        var pieces: [ArraySlice<UInt8>] = []
        pieces.reserveCapacity(32_000)
        let bytes = [UInt8](data)
        var lineStart = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            var end = i
            if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
            // A trailing newline must not add an empty piece; an empty line inside the file still
            // takes its id, as in the reference loader.
            if !(i == bytes.count && end == lineStart) {
                pieces.append(bytes[lineStart..<end])
            }
            lineStart = i + 1
        }
        guard !pieces.isEmpty else {
            throw TokenizerError.malformed(path: path, reason: "the file is empty")
        }
        for (name, id) in [("[PAD]", Self.pad), ("[UNK]", Self.unk), ("[CLS]", Self.cls), ("[SEP]", Self.sep)] {
            guard Int(id) < pieces.count, Array(pieces[Int(id)]) == Array(name.utf8) else {
                throw TokenizerError.malformed(path: path, reason: "line \(id + 1) is not \(name)")
            }
        }
        table = PieceTable(pieces)
    }

    /// Word-piece ids of `text`, without [CLS]/[SEP] and without truncation.
    public func tokenize(_ text: String) -> [Int32] {
        var sink = ArraySink(limit: Int.max)
        sink.ids.reserveCapacity(text.utf8.count / 3 + 4)
        scan(text, into: &sink)
        return sink.ids
    }

    /// `[CLS] ids [SEP]`, the ids truncated so that the total is at most `maxTokens`
    /// (values below 2 are treated as 2: the model always sees both markers).
    public func encode(_ text: String, maxTokens: Int = 256) -> [Int32] {
        let budget = max(maxTokens, 2) - 2
        var sink = ArraySink(limit: budget)
        sink.ids.reserveCapacity(min(budget, text.utf8.count / 3 + 4) + 2)
        sink.ids.append(Self.cls)
        // Scanning stops as soon as the budget is full, so long documents cost only their prefix.
        if budget > 0 { scan(text, into: &sink) }
        sink.ids.append(Self.sep)
        return sink.ids
    }

    /// `tokenize(text).count`, without building the array.
    public func countTokens(_ text: String) -> Int {
        var sink = CountSink()
        scan(text, into: &sink)
        return sink.count
    }

    // MARK: - Scanning

    private func scan<S: TokenSink>(_ text: String, into sink: inout S) {
        var text = text
        text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: WordBuffer.byteCapacity) { bytes in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: WordBuffer.boundCapacity) { bounds in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: WordBuffer.boundCapacity) { hashes in
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: WordBuffer.boundCapacity) { pending in
                            var word = WordBuffer(bytes: bytes.baseAddress!, bounds: bounds.baseAddress!,
                                                  hashes: hashes.baseAddress!, pending: pending.baseAddress!)
                            asciiClasses.withUnsafeBufferPointer { classes in
                                scanUTF8(utf8, classes: classes.baseAddress!, word: &word, into: &sink)
                            }
                        }
                    }
                }
            }
        }
    }

    private func scanUTF8<S: TokenSink>(_ utf8: UnsafeBufferPointer<UInt8>, classes: UnsafePointer<UInt8>,
                                        word: inout WordBuffer, into sink: inout S) {
        let n = utf8.count
        var i = 0
        while i < n {
            let b = utf8[i]
            if b < 0x80 {
                i += 1
                switch classes[Int(b)] {
                case ASCIIClass.keep:
                    word.append(byte: b)
                case ASCIIClass.upper:
                    word.append(byte: b | 0x20)
                case ASCIIClass.space:
                    guard flush(&word, into: &sink) else { return }
                case ASCIIClass.punct:
                    if b == 0x5B, let (id, length) = specialToken(utf8, at: i) {
                        guard flush(&word, into: &sink), sink.put(id) else { return }
                        i += length
                        continue
                    }
                    guard flush(&word, into: &sink) else { return }
                    word.append(byte: b)
                    guard flush(&word, into: &sink) else { return }
                default:
                    break // control characters are dropped
                }
                continue
            }
            let (scalar, length) = decode(utf8, at: i, lead: b)
            i += length
            guard processNonASCII(scalar, word: &word, into: &sink) else { return }
        }
        _ = flush(&word, into: &sink)
    }

    /// Recognises `PAD]`, `UNK]`, `CLS]`, `SEP]`, `MASK]` right after a `[` at `i - 1`.
    @inline(__always)
    private func specialToken(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int32, Int)? {
        let rest = utf8.count - i
        guard rest >= 4 else { return nil }
        let (a, b, c, d) = (utf8[i], utf8[i + 1], utf8[i + 2], utf8[i + 3])
        if d == 0x5D {
            switch (a, b, c) {
            case (0x50, 0x41, 0x44): return (Self.pad, 4) // PAD
            case (0x55, 0x4E, 0x4B): return (Self.unk, 4) // UNK
            case (0x43, 0x4C, 0x53): return (Self.cls, 4) // CLS
            case (0x53, 0x45, 0x50): return (Self.sep, 4) // SEP
            default: return nil
            }
        }
        if rest >= 5, a == 0x4D, b == 0x41, c == 0x53, d == 0x4B, utf8[i + 4] == 0x5D { return (Self.mask, 5) }
        return nil
    }

    @inline(__always)
    private func decode(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int, lead: UInt8) -> (UInt32, Int) {
        // Swift strings hold valid UTF-8, so the continuation bytes need no checks.
        if lead < 0xE0 {
            return ((UInt32(lead & 0x1F) << 6) | UInt32(utf8[i + 1] & 0x3F), 2)
        } else if lead < 0xF0 {
            return ((UInt32(lead & 0x0F) << 12) | (UInt32(utf8[i + 1] & 0x3F) << 6) | UInt32(utf8[i + 2] & 0x3F), 3)
        } else {
            let v = (UInt32(lead & 0x07) << 18) | (UInt32(utf8[i + 1] & 0x3F) << 12)
                | (UInt32(utf8[i + 2] & 0x3F) << 6) | UInt32(utf8[i + 3] & 0x3F)
            return (v, 4)
        }
    }

    /// Clean, CJK-pad, decompose, drop non-spacing marks, lowercase and split one non-ASCII scalar.
    private func processNonASCII<S: TokenSink>(_ c: UInt32, word: inout WordBuffer, into sink: inout S) -> Bool {
        if c == 0xFFFD { return true }
        let type = Category.of(c)
        if type == Category.control || type == Category.format { return true }
        if type == Category.privateUse && privateUseEndpoints.contains(c) { return true }
        if type == Category.space || c == 0x2028 || c == 0x2029 { return flush(&word, into: &sink) }
        let isCJK = Self.isChineseChar(c)
        if isCJK { guard flush(&word, into: &sink) else { return false } }

        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 32) { decomposed in
            let count = Self.nfd(c, into: decomposed)
            for k in 0..<count {
                let d = decomposed[k]
                if d < 0x80 {
                    appendNormalised(ascii: UInt8(d), word: &word, sink: &sink)
                    continue
                }
                if Category.of(d) == Category.nonSpacingMark { continue }
                guard let scalar = Unicode.Scalar(d) else { continue }
                if scalar.properties.changesWhenLowercased {
                    for lowered in scalar.properties.lowercaseMapping.unicodeScalars {
                        appendNormalised(lowered.value, word: &word, sink: &sink)
                    }
                } else {
                    appendNormalised(d, word: &word, sink: &sink)
                }
            }
        }
        if sink.isFull { return false }
        if isCJK { return flush(&word, into: &sink) }
        return true
    }

    /// Pre-tokenises one normalised scalar: whitespace ends the word, punctuation is its own word.
    @inline(__always)
    private func appendNormalised<S: TokenSink>(_ e: UInt32, word: inout WordBuffer, sink: inout S) {
        if e < 0x80 {
            appendNormalised(ascii: UInt8(e), word: &word, sink: &sink)
            return
        }
        let type = Category.of(e)
        if type == Category.space || e == 0x85 || e == 0x2028 || e == 0x2029 {
            _ = flush(&word, into: &sink)
        } else if Category.isPunctuation(type) {
            _ = flush(&word, into: &sink)
            word.append(scalar: e)
            _ = flush(&word, into: &sink)
        } else {
            word.append(scalar: e)
        }
    }

    @inline(__always)
    private func appendNormalised<S: TokenSink>(ascii b: UInt8, word: inout WordBuffer, sink: inout S) {
        switch ASCIIClass.of(b) {
        case ASCIIClass.keep: word.append(byte: b)
        case ASCIIClass.upper: word.append(byte: b | 0x20)
        case ASCIIClass.punct:
            _ = flush(&word, into: &sink)
            word.append(byte: b)
            _ = flush(&word, into: &sink)
        default:
            // Whitespace (and, after decomposition, anything control-like) separates words here:
            // the reference's pre-tokenizer splits on whitespace after normalising.
            _ = flush(&word, into: &sink)
        }
    }

    /// Canonical decomposition of one scalar via ICU; returns the number of scalars written.
    private static func nfd(_ c: UInt32, into out: UnsafeMutableBufferPointer<UInt32>) -> Int {
        // Latin-1 below U+00C0 has no canonical decompositions; skip the ICU call for it.
        if c < 0xC0 { out[0] = c; return 1 }
        var source: (UInt16, UInt16) = (0, 0)
        let sourceLength: Int32
        if c < 0x10000 {
            source.0 = UInt16(c)
            sourceLength = 1
        } else {
            let v = c - 0x10000
            source = (UInt16(0xD800 + (v >> 10)), UInt16(0xDC00 + (v & 0x3FF)))
            sourceLength = 2
        }
        return withUnsafePointer(to: &source) { sourcePointer in
            sourcePointer.withMemoryRebound(to: UInt16.self, capacity: 2) { src in
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 32) { dest in
                    let length = pb_icu_nfd(src, sourceLength, dest.baseAddress, 32)
                    guard length > 0 && length <= 32 else { out[0] = c; return 1 }
                    var count = 0
                    var k = 0
                    while k < Int(length) && count < out.count {
                        let unit = UInt32(dest[k])
                        if unit >= 0xD800 && unit < 0xDC00 && k + 1 < Int(length) {
                            out[count] = 0x10000 + ((unit - 0xD800) << 10) + (UInt32(dest[k + 1]) - 0xDC00)
                            k += 2
                        } else {
                            out[count] = unit
                            k += 1
                        }
                        count += 1
                    }
                    return count
                }
            }
        }
    }

    static func isChineseChar(_ c: UInt32) -> Bool {
        switch c {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
             0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }

    // MARK: - WordPiece

    /// Emits the pieces of the word in `word` and clears it; false once the sink wants no more.
    @inline(__always)
    private func flush<S: TokenSink>(_ word: inout WordBuffer, into sink: inout S) -> Bool {
        if word.chars == 0 { return !sink.isFull }
        defer { word.clear() }
        if word.chars > Self.maxWordChars { return sink.put(Self.unk) }
        return wordPiece(&word, into: &sink)
    }

    /// Greedy longest-match-first; if any position has no match the whole word is one [UNK].
    private func wordPiece<S: TokenSink>(_ word: inout WordBuffer, into sink: inout S) -> Bool {
        let chars = word.chars
        let bytes = word.bytes, bounds = word.bounds, hashes = word.hashes
        var pieces = 0
        var start = 0
        while start < chars {
            let limit = min(chars, start + table.maxPieceChars)
            var h = start == 0 ? PieceTable.firstSeed : PieceTable.continuationSeed
            var b = Int(bounds[start])
            for k in (start + 1)...limit {
                let e = Int(bounds[k])
                while b < e {
                    h = (h ^ UInt64(bytes[b])) &* PieceTable.prime
                    b += 1
                }
                hashes[k] = h
            }
            var found: Int32 = -1
            var end = limit
            let from = Int(bounds[start])
            while end > start {
                let id = table.lookup(hash: hashes[end], bytes: bytes + from, count: Int(bounds[end]) - from)
                if id >= 0 { found = id; break }
                end -= 1
            }
            if found < 0 { return sink.put(Self.unk) }
            word.pending[pieces] = found
            pieces += 1
            start = end
        }
        for k in 0..<pieces {
            guard sink.put(word.pending[k]) else { return false }
        }
        return true
    }
}

// MARK: - Character classes

private enum ASCIIClass {
    static let drop: UInt8 = 0, keep: UInt8 = 1, upper: UInt8 = 2, space: UInt8 = 3, punct: UInt8 = 4

    static func of(_ b: UInt8) -> UInt8 {
        switch b {
        case 0x09, 0x0A, 0x0D, 0x20: return space
        case 0..<0x20, 0x7F: return drop
        case 33...47, 58...64, 91...96, 123...126: return punct
        case 0x41...0x5A: return upper
        default: return keep
        }
    }
}

private let privateUseEndpoints: Set<UInt32> = [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD]

/// ICU general categories (cicu.h's PB_U_ values) the tokenizer needs.
private enum Category {
    static let nonSpacingMark = Int32(PB_U_NON_SPACING_MARK)
    static let space = Int32(PB_U_SPACE_SEPARATOR)
    static let control = Int32(PB_U_CONTROL_CHAR)
    static let format = Int32(PB_U_FORMAT_CHAR)
    static let privateUse = Int32(PB_U_PRIVATE_USE_CHAR)
    static let punctuationMask: UInt32 = [
        PB_U_DASH_PUNCTUATION, PB_U_START_PUNCTUATION, PB_U_END_PUNCTUATION, PB_U_CONNECTOR_PUNCTUATION,
        PB_U_OTHER_PUNCTUATION, PB_U_INITIAL_PUNCTUATION, PB_U_FINAL_PUNCTUATION,
    ].reduce(UInt32(0)) { $0 | (UInt32(1) << UInt32($1)) }

    @inline(__always) static func of(_ c: UInt32) -> Int32 { pb_icu_char_type(Int32(bitPattern: c)) }
    @inline(__always) static func isPunctuation(_ type: Int32) -> Bool {
        type >= 0 && type < 32 && (punctuationMask >> UInt32(type)) & 1 == 1
    }
}

// MARK: - Word buffer

/// The current word as normalised UTF-8, with the byte offset of each scalar. Storage is a fixed
/// temporary allocation: a word over 100 scalars is [UNK] anyway, so past that only the count grows.
private struct WordBuffer {
    static let byteCapacity = (WordPieceTokenizer.maxWordChars + 1) * 4
    static let boundCapacity = WordPieceTokenizer.maxWordChars + 2

    let bytes: UnsafeMutablePointer<UInt8>
    /// bounds[k] is the byte offset of scalar k; bounds[chars] is the end.
    let bounds: UnsafeMutablePointer<Int32>
    /// Scratch for prefix hashes during WordPiece, indexed like `bounds`.
    let hashes: UnsafeMutablePointer<UInt64>
    /// Pieces of the word found so far (they are only emitted once the whole word matched).
    let pending: UnsafeMutablePointer<Int32>
    var chars = 0
    var length = 0

    init(bytes: UnsafeMutablePointer<UInt8>, bounds: UnsafeMutablePointer<Int32>,
         hashes: UnsafeMutablePointer<UInt64>, pending: UnsafeMutablePointer<Int32>) {
        self.bytes = bytes
        self.bounds = bounds
        self.hashes = hashes
        self.pending = pending
        bounds[0] = 0
    }

    @inline(__always) mutating func clear() {
        chars = 0
        length = 0
    }

    @inline(__always) mutating func append(byte: UInt8) {
        if chars < WordPieceTokenizer.maxWordChars + 1 {
            bytes[length] = byte
            length += 1
            bounds[chars + 1] = Int32(length)
        }
        chars += 1
    }

    mutating func append(scalar v: UInt32) {
        guard chars < WordPieceTokenizer.maxWordChars + 1 else { chars += 1; return }
        if v < 0x80 {
            bytes[length] = UInt8(v); length += 1
        } else if v < 0x800 {
            bytes[length] = UInt8(0xC0 | (v >> 6))
            bytes[length + 1] = UInt8(0x80 | (v & 0x3F))
            length += 2
        } else if v < 0x10000 {
            bytes[length] = UInt8(0xE0 | (v >> 12))
            bytes[length + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            bytes[length + 2] = UInt8(0x80 | (v & 0x3F))
            length += 3
        } else {
            bytes[length] = UInt8(0xF0 | (v >> 18))
            bytes[length + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
            bytes[length + 2] = UInt8(0x80 | ((v >> 6) & 0x3F))
            bytes[length + 3] = UInt8(0x80 | (v & 0x3F))
            length += 4
        }
        chars += 1
        bounds[chars] = Int32(length)
    }
}

// MARK: - Sinks

private protocol TokenSink {
    /// Accepts one id; returns false when no more ids are wanted (scanning then stops).
    mutating func put(_ id: Int32) -> Bool
    var isFull: Bool { get }
}

private struct ArraySink: TokenSink {
    var ids: [Int32] = []
    var remaining: Int
    init(limit: Int) { remaining = limit }
    @inline(__always) mutating func put(_ id: Int32) -> Bool {
        if remaining <= 0 { return false }
        ids.append(id)
        remaining -= 1
        return remaining > 0
    }
    var isFull: Bool { remaining <= 0 }
}

private struct CountSink: TokenSink {
    var count = 0
    @inline(__always) mutating func put(_ id: Int32) -> Bool { count += 1; return true }
    var isFull: Bool { false }
}

// MARK: - Vocabulary hash

/// Open-addressing hash of vocabulary pieces keyed by their UTF-8 bytes. Continuation pieces
/// (`##x`) are stored without the prefix under a different hash seed, so a lookup never builds
/// the `##` string.
private struct PieceTable: Sendable {
    static let prime: UInt64 = 0x0000_0100_0000_01B3
    static let firstSeed: UInt64 = 0xCBF2_9CE4_8422_2325
    static let continuationSeed: UInt64 = 0x84222325_CBF29CE4

    private let storage: [UInt8]
    private let entryHash: [UInt64]
    private let entryOffset: [Int32]
    private let entryLength: [Int32]
    private let entryID: [Int32]
    private let slots: [Int32]
    private let mask: Int
    /// Longest piece in scalars (without `##`): no longer match can exist, so none is tried.
    let maxPieceChars: Int

    init(_ pieces: [ArraySlice<UInt8>]) {
        var storage: [UInt8] = []
        var hashes: [UInt64] = [], offsets: [Int32] = [], lengths: [Int32] = [], ids: [Int32] = []
        var longest = 1
        for (id, piece) in pieces.enumerated() where !piece.isEmpty {
            var body = piece
            var h = Self.firstSeed
            if piece.count > 2 && piece.starts(with: [0x23, 0x23]) {
                body = piece.dropFirst(2)
                h = Self.continuationSeed
            }
            for b in body { h = (h ^ UInt64(b)) &* Self.prime }
            hashes.append(h)
            offsets.append(Int32(storage.count))
            lengths.append(Int32(body.count))
            ids.append(Int32(id))
            storage.append(contentsOf: body)
            longest = max(longest, body.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) })
        }
        var capacity = 1
        while capacity < hashes.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        // Insert in reverse so that, for a duplicated piece, the first id wins the probe.
        for e in (0..<hashes.count).reversed() {
            var s = Int(truncatingIfNeeded: hashes[e]) & mask
            while slots[s] >= 0 {
                let other = Int(slots[s])
                if hashes[other] == hashes[e] && lengths[other] == lengths[e]
                    && storage[Int(offsets[other])..<Int(offsets[other] + lengths[other])]
                        == storage[Int(offsets[e])..<Int(offsets[e] + lengths[e])] {
                    break
                }
                s = (s + 1) & mask
            }
            slots[s] = Int32(e)
        }
        self.storage = storage
        self.entryHash = hashes
        self.entryOffset = offsets
        self.entryLength = lengths
        self.entryID = ids
        self.slots = slots
        self.mask = mask
        self.maxPieceChars = longest
    }

    @inline(__always)
    func lookup(hash: UInt64, bytes: UnsafePointer<UInt8>, count: Int) -> Int32 {
        var s = Int(truncatingIfNeeded: hash) & mask
        while true {
            let e = Int(slots[s])
            if e < 0 { return -1 }
            if entryHash[e] == hash && Int(entryLength[e]) == count {
                let offset = Int(entryOffset[e])
                let same = storage.withUnsafeBufferPointer { buffer in
                    memcmp(buffer.baseAddress! + offset, bytes, count) == 0
                }
                if same { return entryID[e] }
            }
            s = (s + 1) & mask
        }
    }
}
