import Foundation
import PBCore
import PBRetrieval
import PBText

/// Turns a written answer with [n] markers (from a chat model) into an AnswerRecord whose
/// citations are sentence spans: for each answer sentence and each passage it cites, the passage
/// sentence that shares the most words with it. Markers are renumbered by first use; a marker
/// naming no passage is left in the text with no citation, for pb-verify's gate G to catch.
public final class CitationResolver {
    private let sentencer: EvidenceSentences
    private let segmenter: SentenceSegmenter

    public init() throws {
        sentencer = try EvidenceSentences()
        segmenter = try SentenceSegmenter()
    }

    public func resolve(_ written: String, context: PackedContext?, route: AnswerRoute, receipt: Receipt) -> AnswerRecord {
        let evidence = context?.evidence ?? []
        let all = sentencer.sentences(evidence)
        let bytes = Array(written.utf8)
        var citations: [Citation] = []
        var sentences: [AnswerSentence] = []
        var texts: [String] = []
        for r in segmenter.sentences(in: bytes, range: 0..<bytes.count) {
            let raw = String(decoding: bytes[r], as: UTF8.self)
            let (plain, markers) = Self.markers(raw)
            let words = Set(TermAnalyzer.contentTokens(plain))
            var cites: [Int] = []
            var rewritten = plain
            for m in markers {
                let candidates = all.filter { $0.n == m }
                guard !candidates.isEmpty else {
                    rewritten += " [\(m)?]"
                    continue
                }
                // The passage sentence sharing the most words (first on a tie: source order).
                var best = candidates[0]
                var bestShared = -1
                for c in candidates {
                    let shared = words.intersection(TermAnalyzer.contentTokens(c.text)).count
                    if shared > bestShared { best = c; bestShared = shared }
                }
                let n: Int
                if let existing = citations.first(where: { $0.chunkID == best.chunkID && $0.start == best.start }) {
                    n = existing.n
                } else {
                    n = citations.count + 1
                    citations.append(Citation(n: n, evidence: best.n, chunkID: best.chunkID, path: best.path, start: best.start,
                                              end: best.end, line: best.line, page: best.page,
                                              section: best.place, quote: best.text, time: best.time))
                }
                if !cites.contains(n) {
                    cites.append(n)
                    rewritten += " [\(n)]"
                }
            }
            guard !plain.isEmpty || !cites.isEmpty else { continue }
            sentences.append(AnswerSentence(text: plain, cites: cites))
            texts.append(rewritten)
        }
        let text = texts.joined(separator: " ")
        return AnswerRecord(text: text.isEmpty ? written : text, sentences: sentences, citations: citations, route: route, receipt: receipt)
    }

    /// A sentence without its [n] markers (whitespace flattened), and the numbers in order, each
    /// once. The markers are read as pb-verify reads them (CitationMarkers), so the two agree.
    static func markers(_ sentence: String) -> (String, [Int]) {
        let scan = CitationMarkers.scan(sentence)
        var numbers: [Int] = []
        for n in scan.numbers where !numbers.contains(n) { numbers.append(n) }
        return (ExtractiveComposer.flatten(scan.stripped), numbers)
    }
}
