import Foundation

/// Princeton WordNet 3.0, as Debian's `wordnet-base` installs it (/usr/share/wordnet): which
/// words are English, and the base form of an inflected word by WordNet's own "morphy" rules
/// (its suffix rules and exception lists), so that "insurers", "iced" and "summarised" are known
/// words while "bolier" and "insurence" are not.
///
/// Opened on first use, once per process: the four index files (6 MB) are mapped and searched
/// by binary search, so a question pays for the few words it looks up, not for the whole lexicon.
public final class WordNet: @unchecked Sendable {
    /// The folder of the database files; `PB_WORDNET_DIR` names another.
    public static var defaultDirectory: String {
        ProcessInfo.processInfo.environment["PB_WORDNET_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/wordnet"
    }

    /// The database at the default folder, or nil when it is not installed.
    public static let shared: WordNet? = WordNet(directory: defaultDirectory)

    public enum PartOfSpeech: String, CaseIterable, Sendable { case noun, verb, adj, adv }

    private var exceptions: [PartOfSpeech: [String: [String]]] = [:]
    private let directory: String
    /// index.POS, mapped: one line per lemma, sorted byte-wise, read by binary search as
    /// WordNet's own library reads it (parsing the 6 MB into sets took 0.3 s of every question).
    private var index: [PartOfSpeech: Data] = [:]
    private var data: [PartOfSpeech: Data] = [:]
    private let lock = NSLock()

    /// Nil when the folder has no index files.
    public init?(directory: String) {
        self.directory = directory
        for pos in PartOfSpeech.allCases {
            guard let mapped = try? Data(contentsOf: URL(fileURLWithPath: "\(directory)/index.\(pos.rawValue)"), options: .alwaysMapped),
                  !mapped.isEmpty else { return nil }
            index[pos] = mapped
            var exc: [String: [String]] = [:]
            if let text = try? String(contentsOfFile: "\(directory)/\(pos.rawValue).exc", encoding: .utf8) {
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: " ").map(String.init)
                    if parts.count >= 2 { exc[parts[0], default: []] += parts.dropFirst() }
                }
            }
            exceptions[pos] = exc
        }
    }

    /// The lemma of an irregular form, from WordNet's exception lists: "paid" is "pay",
    /// "children" "child", "went" "go". Nil for a form that is a noun or a verb itself ("saw",
    /// "found", "left"), for one with two lemmas, and for every other word. Looked up per word
    /// and kept: reading every form's lemma up front costs a process milliseconds it may not use.
    public func lemma(ofIrregular word: String) -> String? {
        lock.lock()
        if let known = irregular[word] { lock.unlock(); return known }
        lock.unlock()
        var bases = Set<String>()
        for pos in [PartOfSpeech.verb, .noun] { bases.formUnion(exceptions[pos]?[word] ?? []) }
        let lemma = bases.count == 1 && !word.contains("_") && !bases.first!.contains("_") && !has(.noun, word) && !has(.verb, word)
            ? bases.first : nil
        lock.lock()
        irregular[word] = .some(lemma)
        lock.unlock()
        return lemma
    }

    /// lemma(ofIrregular:)'s answers so far, nil ones included.
    private var irregular: [String: String?] = [:]

    /// The fields of `lemma`'s line in index.POS, or nil when WordNet has no such lemma.
    func entry(_ pos: PartOfSpeech, _ lemma: String) -> [Substring]? {
        // The licence at the top of each file is lines that open with spaces: no lemma is empty.
        guard let bytes = index[pos], !lemma.isEmpty, !lemma.hasPrefix(" ") else { return nil }
        let key = Array(lemma.utf8)
        return bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Substring]? in
            let b = raw.bindMemory(to: UInt8.self)
            var lo = 0, hi = b.count
            while lo < hi {
                let mid = (lo + hi) / 2
                var start = mid
                while start > 0, b[start - 1] != 0x0A { start -= 1 }
                var end = start
                while end < b.count, b[end] != 0x0A { end += 1 }
                var k = start
                while k < end, b[k] != 0x20 { k += 1 }
                // Compare the line's lemma (bytes start..<k) with the key, as strcmp does.
                var order = 0
                var i = 0
                while order == 0 {
                    let x: Int = start + i < k ? Int(b[start + i]) : -1
                    let y: Int = i < key.count ? Int(key[i]) : -1
                    if x == -1 && y == -1 { break }
                    order = x < y ? -1 : x > y ? 1 : 0
                    i += 1
                }
                if order == 0 {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
                    return line.split(separator: " ")
                }
                if order < 0 { lo = end + 1 } else { hi = start }
            }
            return nil
        }
    }

    /// Whether WordNet has `lemma` as a `pos`.
    func has(_ pos: PartOfSpeech, _ lemma: String) -> Bool { entry(pos, lemma) != nil }

    /// `lemma`'s synsets' byte offsets in data.POS, most frequent sense first.
    func senseOffsets(_ pos: PartOfSpeech, _ lemma: String) -> [Int] {
        guard let fields = entry(pos, lemma), fields.count >= 4, let count = Int(fields[2]) else { return [] }
        return fields.suffix(count).compactMap { Int($0) }
    }

    /// How many senses `word` has as `pos`, over the lemmas it is a form of: "piano" has more as a
    /// noun than as an adjective, "sick" more as an adjective.
    public func senseCount(_ word: String, as pos: PartOfSpeech) -> Int {
        baseForms(word).filter { $0.0 == pos }.reduce(0) { $0 + senseOffsets(pos, $1.1).count }
    }

    /// Whether `word` (any case) is an English word or an inflection of one.
    public func knows(_ word: String) -> Bool {
        !baseForms(word).isEmpty
    }

    /// The lemmas `word` is a form of, by part of speech (morphy: exceptions, then suffix rules).
    public func baseForms(_ word: String) -> [(PartOfSpeech, String)] {
        let w = word.lowercased().replacingOccurrences(of: " ", with: "_")
        var out: [(PartOfSpeech, String)] = []
        for pos in PartOfSpeech.allCases {
            var seen = Set<String>()
            func add(_ base: String) { if !seen.contains(base), has(pos, base), seen.insert(base).inserted { out.append((pos, base)) } }
            add(w)
            for base in exceptions[pos]?[w] ?? [] { add(base) }
            for (suffix, ending) in Self.rules[pos] ?? [] where w.hasSuffix(suffix) && w.count > suffix.count {
                add(String(w.dropLast(suffix.count)) + ending)
            }
        }
        return out
    }

    /// The phrasal verb `verb` makes with `particle` ("take" and "back": "take back", "ran" and
    /// "out": "run out"), as WordNet lists it, or nil.
    public func phrasalVerb(_ verb: String, _ particle: String) -> String? {
        let p = particle.lowercased()
        for (pos, base) in baseForms(verb) where pos == .verb {
            if has(.verb, base + "_" + p) { return base + " " + p }
        }
        return nil
    }

    /// Words that mean the same as `word` in one of its `senses` most frequent senses (its
    /// synsets' other members, "_" read as a space), for any part of speech it has; the word itself
    /// and its base forms are left out. "job" gives "employment", "occupation", "line of work".
    public func synonyms(of word: String, senses limit: Int = 3) -> [String] {
        let w = word.lowercased()
        var out: [String] = []
        var seen: Set<String> = [w]
        for (pos, base) in baseForms(w) {
            seen.insert(base)
            for offset in senseOffsets(pos, base).prefix(limit) {
                for member in synset(pos, at: offset) where seen.insert(member).inserted { out.append(member) }
            }
        }
        return out
    }

    /// WordNet's lexicographer files for nouns that name a thing one can point at (lexnames(5)):
    /// animal, artifact, body, food, location, object, person, plant, substance.
    public static let concreteNounFiles: Set<Int> = [5, 6, 8, 13, 15, 17, 18, 20, 27]

    /// The lexicographer file (lexnames(5)) of `word`'s most frequent sense as a noun, or nil
    /// when it is not a noun: 18 (noun.person) for "sister", 7 (noun.attribute) for "ability".
    public func nounFile(_ word: String) -> Int? {
        for (pos, base) in baseForms(word) where pos == .noun {
            if let first = senseOffsets(.noun, base).first, let fields = synsetFields(.noun, at: first), fields.count > 1 {
                return Int(fields[1])
            }
        }
        return nil
    }

    /// The member words of the synset at `offset` of data.POS.
    func synset(_ pos: PartOfSpeech, at offset: Int) -> [String] {
        guard let fields = synsetFields(pos, at: offset) else { return [] }
        // offset lex_filenum ss_type w_cnt (hex) word lex_id word lex_id ...
        guard fields.count > 4, let count = Int(fields[3], radix: 16) else { return [] }
        return (0..<count).compactMap { i in
            let at = 4 + 2 * i
            guard at < fields.count else { return nil }
            var word = String(fields[at]).replacingOccurrences(of: "_", with: " ")
            // Adjectives carry a syntactic marker: "big(a)".
            if let paren = word.firstIndex(of: "(") { word = String(word[..<paren]) }
            return word.lowercased()
        }
    }

    /// The space-separated fields of the synset line at `offset` of data.POS.
    func synsetFields(_ pos: PartOfSpeech, at offset: Int) -> [Substring]? {
        lock.lock()
        defer { lock.unlock() }
        if data[pos] == nil {
            data[pos] = (try? Data(contentsOf: URL(fileURLWithPath: "\(directory)/data.\(pos.rawValue)"), options: .alwaysMapped)) ?? Data()
        }
        guard let bytes = data[pos], offset >= 0, offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self).split(separator: " ")
    }

    /// One-word lemmas (letters only) by first letter, each with how often its senses were seen
    /// in WordNet's tagged corpus (the index's tagsense_cnt, summed over parts of speech): read
    /// once, on the first question with a word neither the library nor WordNet knows.
    private var lemmasByLetter: [UInt8: [(word: [UInt8], tagged: Int)]]?

    /// The English words within `limit` edits of `word` (optimal string alignment: a swap of
    /// neighbours counts one) that begin with its letter, nearest first, then the most used.
    public func nearestWords(to word: String, within limit: Int) -> [(word: String, distance: Int, tagged: Int)] {
        let w = Array(word.lowercased().utf8)
        guard let first = w.first else { return [] }
        lock.lock()
        if lemmasByLetter == nil { lemmasByLetter = readLemmas() }
        let candidates = lemmasByLetter?[first] ?? []
        lock.unlock()
        var near: [(word: String, distance: Int, tagged: Int)] = []
        for c in candidates where abs(c.word.count - w.count) <= limit {
            let d = EditDistance.optimalAlignment(w, c.word, limit: limit)
            if d >= 1, d <= limit { near.append((String(decoding: c.word, as: UTF8.self), d, c.tagged)) }
        }
        return near.sorted { ($0.distance, -$0.tagged, $0.word) < ($1.distance, -$1.tagged, $1.word) }
    }

    private func readLemmas() -> [UInt8: [(word: [UInt8], tagged: Int)]] {
        var tagged: [[UInt8]: Int] = [:]
        for pos in PartOfSpeech.allCases {
            guard let bytes = index[pos] else { continue }
            for line in bytes.split(separator: 0x0A) {
                guard let head = line.first, head >= 0x61, head <= 0x7A else { continue }
                let fields = line.split(separator: 0x20)
                guard fields.count >= 6, fields[0].allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }),
                      let pointers = Int(String(decoding: fields[3], as: UTF8.self)), fields.count > 5 + pointers,
                      let count = Int(String(decoding: fields[5 + pointers], as: UTF8.self)) else { continue }
                tagged[Array(fields[0]), default: 0] += count
            }
        }
        var out: [UInt8: [(word: [UInt8], tagged: Int)]] = [:]
        for (word, count) in tagged { out[word[0], default: []].append((word, count)) }
        return out
    }

    /// WordNet's detachment rules (morph.c).
    static let rules: [PartOfSpeech: [(String, String)]] = [
        .noun: [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
        .verb: [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
        .adj: [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    ]
}
