/// Counts model tokens; the WordPiece tokenizer is the real one, tests may use a simpler rule.
public protocol TokenCounter {
    func countTokens(_ text: String) -> Int
}

/// The limits a chunk must respect.
public struct ChunkLimits: Sendable, Equatable {
    /// Words of `text` (whitespace-separated runs).
    public var maxWords: Int
    /// WordPiece tokens of `prefix` plus `text`: by default the embedder's window less [CLS] and
    /// [SEP], so that every chunk is embedded whole (a cut chunk's vector would stand for its
    /// beginning only). Chosen on SciFact's tuning half over embedding whole 510-token chunks
    /// at 512 (pb-chunk(1)).
    public var maxTokens: Int

    /// The embedder's default window (pb-embed --max-tokens), [CLS] and [SEP] included.
    public static let embeddingWindow = 256
    public static let defaultMaxTokens = embeddingWindow - 2

    public init(maxWords: Int = 310, maxTokens: Int = ChunkLimits.defaultMaxTokens) {
        self.maxWords = maxWords
        self.maxTokens = maxTokens
    }

    /// Folded into each document's hash, so that new limits or new sentence rules re-chunk
    /// documents on the next ingest. v2: hard-wrapped sentences are no longer cut at line breaks,
    /// and plain text has headings (lines in capitals, dated entry lines).
    public var fingerprint: String { "chunker-v2 words=\(maxWords) tokens=\(maxTokens)" }
}

/// A chunk before it gets its identity: a span of the text layer with its section and prefix.
public struct PlannedChunk: Sendable, Equatable {
    public var range: Range<Int>
    public var section: [String]
    public var prefix: String
    public var words: Int
    public var tokens: Int
    public var pages: ClosedRange<Int>?
}

/// Cuts a text layer into sentence-bounded chunks.
///
/// Within a section, sentences (ICU, abbreviation-guarded) and atomic blocks (lists, tables, code)
/// are packed in order while the chunk stays within the word and token limits; each new chunk
/// starts with the previous chunk's last sentence, so a fact split across a boundary is whole in one
/// of them. Chunks never cross a heading: the section path is the chunk's context. An atomic block
/// too long for one chunk splits between its items or rows (a table's header row then goes into
/// the prefix of every continuation); a single sentence or row too long splits between words.
public final class Chunker {
    public let limits: ChunkLimits
    private let counter: TokenCounter
    private let segmenter: SentenceSegmenter

    public init(limits: ChunkLimits = ChunkLimits(), tokens: TokenCounter) throws {
        self.limits = limits
        self.counter = tokens
        self.segmenter = try SentenceSegmenter()
    }

    struct Unit {
        var range: Range<Int>
        var words: Int
        var tokens: Int
        /// A sentence may be repeated as the next chunk's overlap; atomic blocks are not.
        var isSentence: Bool
        /// Set on table rows after the first chunk of a table: the header row to put in the prefix.
        var header: Range<Int>?
        var page: Int?
    }

    public func chunks(of layer: TextLayer, title: String) -> [PlannedChunk] {
        let bytes = layer.bytes
        var result: [PlannedChunk] = []
        var headings: [(level: Int, text: String)] = []
        var sectionUnits: [Unit] = []
        var section: [String] = []

        func flushSection() {
            if !sectionUnits.isEmpty { result += pack(sectionUnits, bytes: bytes, title: title, section: section) }
            sectionUnits.removeAll()
        }
        for block in layer.blocks {
            switch block.kind {
            case .heading(let level):
                flushSection()
                let text = Self.collapse(String(decoding: bytes[block.range], as: UTF8.self))
                while let top = headings.last, top.level >= level { headings.removeLast() }
                headings.append((level, text))
                section = headings.map(\.text)
            case .paragraph:
                let budget = tokenBudget(title: title, section: section, header: nil, bytes: bytes)
                for s in segmenter.sentences(in: bytes, range: block.range) {
                    sectionUnits += fitting(s, bytes: bytes, budget: budget, isSentence: true, header: nil, page: block.page)
                }
            case .list, .table, .code:
                sectionUnits += atomicUnits(block, bytes: bytes, title: title, section: section)
            }
        }
        flushSection()
        return result
    }

    /// Tokens left for text once the prefix is counted.
    func tokenBudget(title: String, section: [String], header: Range<Int>?, bytes: [UInt8]) -> Int {
        limits.maxTokens - counter.countTokens(Self.prefix(title: title, section: section, header: header.map { String(decoding: bytes[$0], as: UTF8.self) }))
    }

    /// One unit if the range fits, else pieces split between words.
    func fitting(_ range: Range<Int>, bytes: [UInt8], budget: Int, isSentence: Bool, header: Range<Int>?, page: Int?) -> [Unit] {
        let words = Self.wordRanges(bytes, range)
        let tokens = counter.countTokens(String(decoding: bytes[range], as: UTF8.self))
        if words.count <= limits.maxWords, tokens <= budget {
            return [Unit(range: range, words: words.count, tokens: tokens, isSentence: isSentence, header: header, page: page)]
        }
        var units: [Unit] = []
        var start = 0
        var count = 0
        var used = 0
        for (i, w) in words.enumerated() {
            let t = counter.countTokens(String(decoding: bytes[w], as: UTF8.self))
            if t > budget {
                // One "word" longer than the whole budget (a run of punctuation: 2,000,000 "&"
                // are as many tokens): cut it by tokens, alone in its pieces.
                if count > 0 {
                    units.append(Unit(range: words[start].lowerBound..<words[i - 1].upperBound, words: count, tokens: used,
                                      isSentence: isSentence, header: header, page: page))
                }
                for piece in pieces(of: w, bytes: bytes, budget: max(budget, 1)) {
                    units.append(Unit(range: piece.range, words: 1, tokens: piece.tokens, isSentence: isSentence, header: header, page: page))
                }
                start = i + 1; count = 0; used = 0
                continue
            }
            if count > 0, count + 1 > limits.maxWords || used + t > budget {
                units.append(Unit(range: words[start].lowerBound..<words[i - 1].upperBound, words: count, tokens: used,
                                  isSentence: isSentence, header: header, page: page))
                start = i; count = 0; used = 0
            }
            count += 1
            used += t
        }
        if count > 0 {
            units.append(Unit(range: words[start].lowerBound..<words[words.count - 1].upperBound, words: count, tokens: used,
                              isSentence: isSentence, header: header, page: page))
        }
        return units
    }

    /// A word cut into pieces of at most `budget` tokens, at character boundaries: pieces of
    /// `budget` characters (a character is at most one token, beyond the [UNK] of a long word),
    /// halved while one still counts more. Linear in the word's length.
    func pieces(of word: Range<Int>, bytes: [UInt8], budget: Int) -> [(range: Range<Int>, tokens: Int)] {
        var out: [(range: Range<Int>, tokens: Int)] = []
        var at = word.lowerBound
        while at < word.upperBound {
            var size = budget
            while true {
                // `size` characters from `at` (UTF-8 continuation bytes never start one).
                var end = at, characters = 0
                while end < word.upperBound, characters < size {
                    end += 1
                    while end < word.upperBound, bytes[end] & 0xC0 == 0x80 { end += 1 }
                    characters += 1
                }
                let tokens = counter.countTokens(String(decoding: bytes[at..<end], as: UTF8.self))
                if tokens <= budget || size == 1 {
                    out.append((at..<end, tokens))
                    at = end
                    break
                }
                size = max(1, size / 2)
            }
        }
        return out
    }

    /// The share of a chunk's tokens a table's header row may take in the prefix of a continuation.
    static let headerShare = 3

    /// The header row as the prefix carries it: whole when it fits in a third of the token limit,
    /// else cut after the last column that does. A header of thousands of columns repeated whole
    /// in every prefix left no room for rows, and cut a 10 KB file into thousands of chunks.
    func cappedHeader(_ header: Range<Int>, bytes: [UInt8]) -> Range<Int> {
        let cap = limits.maxTokens / Self.headerShare
        func fits(_ end: Int) -> Bool { counter.countTokens(String(decoding: bytes[header.lowerBound..<end], as: UTF8.self)) <= cap }
        guard !fits(header.upperBound) else { return header }
        // Cuts at column separators (or spaces), the longest that fits, by bisection.
        let cuts = header.filter { bytes[$0] == UInt8(ascii: ",") || bytes[$0] == UInt8(ascii: "\t") || bytes[$0] == 0x20 }
        var lo = 0, hi = cuts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if fits(cuts[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return header.lowerBound..<(lo > 0 ? cuts[lo - 1] : header.lowerBound)
    }

    func atomicUnits(_ block: Block, bytes: [UInt8], title: String, section: [String]) -> [Unit] {
        // The prefix carries the capped header; the first group still starts at the whole header row.
        let header = block.header.map { cappedHeader($0, bytes: bytes) }
        let budget = tokenBudget(title: title, section: section, header: nil, bytes: bytes)
        let whole = fitting(block.range, bytes: bytes, budget: budget, isSentence: false, header: nil, page: block.page)
        if whole.count == 1 || block.parts.isEmpty { return whole }
        // Too long: split between parts (items, rows). Table rows after the first group carry the
        // header into their prefix, so every piece of a table still says what its columns are.
        let continuationBudget = header.map { tokenBudget(title: title, section: section, header: $0, bytes: bytes) } ?? budget
        var units: [Unit] = []
        var groupStart: Int?
        var groupEnd = 0
        var words = 0
        var tokens = 0
        let lead = block.header.map { $0.lowerBound..<$0.upperBound }
        var parts = block.parts
        if let lead, parts.first.map({ $0.lowerBound > lead.upperBound }) ?? true {
            // The first group of a table starts at its header row (the source span includes it).
            parts.insert(block.range.lowerBound..<lead.upperBound, at: 0)
        }
        func close() {
            guard let s = groupStart else { return }
            let isFirst = units.isEmpty
            units.append(Unit(range: s..<groupEnd, words: words, tokens: tokens, isSentence: false,
                              header: isFirst ? nil : header, page: block.page))
            groupStart = nil; words = 0; tokens = 0
        }
        for part in parts {
            let b = units.isEmpty ? budget : continuationBudget
            let w = Self.wordRanges(bytes, part).count
            let t = counter.countTokens(String(decoding: bytes[part], as: UTF8.self))
            if groupStart != nil, words + w > limits.maxWords || tokens + t > b { close() }
            if w > limits.maxWords || t > (units.isEmpty ? budget : continuationBudget) {
                close()
                units += fitting(part, bytes: bytes, budget: continuationBudget, isSentence: false,
                                 header: units.isEmpty ? nil : header, page: block.page)
                continue
            }
            if groupStart == nil { groupStart = part.lowerBound }
            groupEnd = part.upperBound
            words += w
            tokens += t
        }
        close()
        return units
    }

    /// Packs a section's units into chunks with one sentence of overlap.
    func pack(_ units: [Unit], bytes: [UInt8], title: String, section: [String]) -> [PlannedChunk] {
        var chunks: [PlannedChunk] = []
        var current: [Unit] = []
        var words = 0
        var tokens = 0
        // One count per header, not one per unit: the header is the same for a whole table.
        var budgets: [Range<Int>?: Int] = [:]
        func budget(for first: Unit?) -> Int {
            if let known = budgets[first?.header] { return known }
            let b = tokenBudget(title: title, section: section, header: first?.header, bytes: bytes)
            budgets[first?.header] = b
            return b
        }
        func emit(_ group: [Unit]) {
            guard let first = group.first, let last = group.last else { return }
            let range = first.range.lowerBound..<last.range.upperBound
            let header = first.header.map { String(decoding: bytes[$0], as: UTF8.self) }
            let prefix = Self.prefix(title: title, section: section, header: header)
            let text = String(decoding: bytes[range], as: UTF8.self)
            let exactWords = Self.wordRanges(bytes, range).count
            let exactTokens = counter.countTokens(prefix) + counter.countTokens(text)
            // Text between units (a rule line, a fence) is not in any unit; if it tips the chunk over
            // a limit, split the group rather than exceed it.
            if (exactWords > limits.maxWords || exactTokens > limits.maxTokens), group.count > 1 {
                emit(Array(group[..<(group.count / 2)]))
                emit(Array(group[(group.count / 2)...]))
                return
            }
            let pages = group.compactMap(\.page)
            chunks.append(PlannedChunk(range: range, section: section, prefix: prefix, words: exactWords, tokens: exactTokens,
                                       pages: pages.isEmpty ? nil : pages.min()!...pages.max()!))
        }
        for unit in units {
            if !current.isEmpty, words + unit.words > limits.maxWords || tokens + unit.tokens > budget(for: current.first) || unit.header != nil && current.first?.header != unit.header {
                emit(current)
                let last = current.last!
                current = []
                words = 0
                tokens = 0
                if last.isSentence, last.words + unit.words <= limits.maxWords, last.tokens + unit.tokens <= budget(for: last) {
                    current = [last]
                    words = last.words
                    tokens = last.tokens
                }
            }
            current.append(unit)
            words += unit.words
            tokens += unit.tokens
        }
        emit(current)
        return chunks
    }

    /// "Title > Section > Subsection", with a table's header row on a second line for continuations.
    public static func prefix(title: String, section: [String], header: String?) -> String {
        var path = section
        if let first = path.first, first.lowercased() == title.lowercased() { path.removeFirst() }
        var s = ([title] + path).filter { !$0.isEmpty }.joined(separator: " > ")
        if let header { s += "\n" + header }
        return s
    }

    static func collapse(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Whitespace-separated runs in a byte range.
    public static func wordRanges(_ bytes: [UInt8], _ r: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start: Int?
        for i in r {
            if SentenceSegmenter.isSpace(bytes[i]) {
                if let s = start { out.append(s..<i); start = nil }
            } else if start == nil { start = i }
        }
        if let s = start { out.append(s..<r.upperBound) }
        return out
    }
}

