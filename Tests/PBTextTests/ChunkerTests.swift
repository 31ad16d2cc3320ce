import Foundation
import Testing
@testable import PBText
import PBCore

@Suite struct ChunkerTests {
    /// Real prose: the first SciFact abstracts.
    static func scifact(_ n: Int) throws -> [(title: String, text: String)] {
        let url = TestSupport.data.appendingPathComponent("scifact/corpus.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").prefix(n)
        return try lines.map {
            let o = try JSONDecoder().decode([String: String].self, from: Data($0.utf8))
            return (o["title"] ?? "", o["text"] ?? "")
        }
    }

    /// The acceptance invariants, checked on one layer's chunks.
    func checkInvariants(_ layer: TextLayer, _ chunks: [PlannedChunk], limits: ChunkLimits, counter: TokenCounter,
                         prose: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for c in chunks {
            let text = String(decoding: layer.bytes[c.range], as: UTF8.self)
            #expect(c.words <= limits.maxWords, sourceLocation: sourceLocation)
            #expect(Chunker.wordRanges(layer.bytes, c.range).count == c.words, sourceLocation: sourceLocation)
            #expect(counter.countTokens(c.prefix) + counter.countTokens(text) <= limits.maxTokens, sourceLocation: sourceLocation)
            #expect(c.tokens <= limits.maxTokens, sourceLocation: sourceLocation)
        }
        // Nothing lost: every non-space byte of every non-heading block is inside some chunk.
        var covered = [Bool](repeating: false, count: layer.bytes.count)
        for c in chunks { for i in c.range { covered[i] = true } }
        for b in layer.blocks where b.kind != .heading(level: 1) && b.kind != .heading(level: 2) && b.kind != .heading(level: 3) {
            if case .heading = b.kind { continue }
            for i in b.range where !SentenceSegmenter.isSpace(layer.bytes[i]) {
                #expect(covered[i], "byte \(i) of a \(b.kind) block is in no chunk", sourceLocation: sourceLocation)
                if !covered[i] { return }
            }
        }
        // Overlap: consecutive chunks of one section share exactly the earlier one's last sentence,
        // unless that sentence and the next one together are over a limit (then there is no room).
        guard prose else { return }
        let segmenter = try SentenceSegmenter()
        for (a, b) in zip(chunks, chunks.dropFirst()) where a.section == b.section {
            let last = segmenter.sentences(in: layer.bytes, range: a.range).last!
            if b.range.lowerBound < a.range.upperBound {
                #expect(last.lowerBound == b.range.lowerBound, sourceLocation: sourceLocation)
            } else {
                let next = segmenter.sentences(in: layer.bytes, range: b.range).first!
                let words = Chunker.wordRanges(layer.bytes, last).count + Chunker.wordRanges(layer.bytes, next).count
                let tokens = counter.countTokens(String(decoding: layer.bytes[last], as: UTF8.self))
                    + counter.countTokens(String(decoding: layer.bytes[next], as: UTF8.self)) + counter.countTokens(b.prefix)
                #expect(words > limits.maxWords || tokens > limits.maxTokens,
                        "chunks \(a.range) and \(b.range) do not overlap though they could", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func realAbstractsRespectLimitsAndOverlap() throws {
        let counter = TestSupport.counter()
        let limits = ChunkLimits(maxWords: 80, maxTokens: 140)
        let chunker = try Chunker(limits: limits, tokens: counter)
        var total = 0
        for doc in try Self.scifact(150) {
            let layer = MarkdownDocument.plainTextLayer(Array(doc.text.utf8), path: "x")
            let chunks = chunker.chunks(of: layer, title: doc.title)
            total += chunks.count
            try checkInvariants(layer, chunks, limits: limits, counter: counter, prose: true)
        }
        #expect(total > 250) // the limits really forced splits
    }

    @Test func defaultLimitsOnRealAbstracts() throws {
        let counter = TestSupport.counter()
        let chunker = try Chunker(tokens: counter)
        for doc in try Self.scifact(300) {
            let layer = MarkdownDocument.plainTextLayer(Array(doc.text.utf8), path: "x")
            try checkInvariants(layer, chunker.chunks(of: layer, title: doc.title), limits: chunker.limits, counter: counter, prose: true)
        }
    }

    @Test func aSentenceLongerThanTheLimitSplitsBetweenWords() throws {
        let counter = TestSupport.counter()
        let limits = ChunkLimits(maxWords: 50, maxTokens: 510)
        let sentence = (1...173).map { "word\($0)" }.joined(separator: " ") + "."
        let layer = MarkdownDocument.plainTextLayer(Array(sentence.utf8), path: "x")
        let chunks = try Chunker(limits: limits, tokens: counter).chunks(of: layer, title: "T")
        #expect(chunks.count == 4)
        try checkInvariants(layer, chunks, limits: limits, counter: counter, prose: false)
    }

    @Test func aWordOfPunctuationLongerThanTheLimitIsCutByTokens() throws {
        // 20,000 "&" are as many tokens in one whitespace word; before, they were one chunk.
        let counter = TestSupport.counter()
        let limits = ChunkLimits(maxWords: 310, maxTokens: 254)
        for text in [String(repeating: "&", count: 20_000), "Before it. " + String(repeating: ">", count: 5_000) + " after it.",
                     String(repeating: "é&", count: 3_000)] {
            let layer = MarkdownDocument.plainTextLayer(Array(text.utf8), path: "x")
            let chunks = try Chunker(limits: limits, tokens: counter).chunks(of: layer, title: "T")
            #expect(chunks.count > 10)
            try checkInvariants(layer, chunks, limits: limits, counter: counter, prose: false)
            // Cuts fall between characters: every chunk is valid UTF-8 of the text.
            for c in chunks { #expect(String(validating: layer.bytes[c.range], as: UTF8.self) != nil) }
        }
    }

    @Test func longTableSplitsByRowsWithHeaderInPrefix() throws {
        let counter = TestSupport.counter()
        var csv = "code,meaning,action\n"
        for i in 1...60 { csv += "E\(i),fault number \(i) in the pump circuit,call service \(i)\n" }
        let layer = try CSVDocument.textLayer(Array(csv.utf8), path: "t.csv")
        let limits = ChunkLimits(maxWords: 60, maxTokens: 510)
        let chunks = try Chunker(limits: limits, tokens: counter).chunks(of: layer, title: "Codes")
        #expect(chunks.count > 3)
        #expect(String(decoding: layer.bytes[chunks[0].range], as: UTF8.self).hasPrefix("code,meaning,action\nE1,"))
        #expect(chunks[0].prefix == "Codes")
        for c in chunks.dropFirst() {
            #expect(c.prefix == "Codes\ncode,meaning,action")
            #expect(String(decoding: layer.bytes[c.range], as: UTF8.self).hasPrefix("E"))
        }
        try checkInvariants(layer, chunks, limits: limits, counter: counter, prose: false)
    }

    @Test func chunksNeverCrossHeadingsAndCarryTheSectionPath() throws {
        let md = "# Manual\n\nIntro text. More intro.\n\n## Errors\n\n### E24\n\nDrain blocked. Clean the filter.\n\n## Care\n\nWipe it.\n"
        let layer = MarkdownDocument.textLayer(Array(md.utf8), path: "m.md")
        let chunks = try Chunker(tokens: TestSupport.counter()).chunks(of: layer, title: "Manual")
        #expect(chunks.map(\.section) == [["Manual"], ["Manual", "Errors", "E24"], ["Manual", "Care"]])
        #expect(chunks.map(\.prefix) == ["Manual", "Manual > Errors > E24", "Manual > Care"])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestSupport.samples.path)))
    func everySampleDocumentKeepsItsBytes() throws {
        let counter = TestSupport.counter()
        let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).sorted()
        #expect(!files.isEmpty)
        for limits in [ChunkLimits(), ChunkLimits(maxWords: 40, maxTokens: 90)] {
            let chunker = DocumentChunker(library: "t", chunker: try Chunker(limits: limits, tokens: counter))
            for f in files {
                let path = TestSupport.samples.appendingPathComponent(f).path
                let (layer, _) = try DocumentReader.read(path: path)
                let records = try chunker.chunk(path: path, text: nil, title: nil, format: nil)
                #expect(!records.isEmpty, "\(f) gave no chunks")
                for r in records {
                    #expect(Array(r.text.utf8) == Array(layer.bytes[r.start..<r.end]), "\(f) chunk \(r.seq)")
                    #expect(r.words <= limits.maxWords && r.tokens <= limits.maxTokens)
                    #expect(r.docChunks == records.count)
                }
                let planned = try Chunker(limits: limits, tokens: counter).chunks(of: layer, title: records[0].title)
                try checkInvariants(layer, planned, limits: limits, counter: counter, prose: false)
            }
        }
    }

    @Test func identityIsStableAndLibraryScoped() throws {
        let chunker = try Chunker(tokens: TestSupport.counter())
        let a = try DocumentChunker(library: "a", chunker: chunker).chunk(path: "/x/notes.md", text: "# T\n\nHello there.", title: nil, format: nil)
        let a2 = try DocumentChunker(library: "a", chunker: chunker).chunk(path: "/x/notes.md", text: "# T\n\nHello there.", title: nil, format: nil)
        let b = try DocumentChunker(library: "b", chunker: chunker).chunk(path: "/x/notes.md", text: "# T\n\nHello there.", title: nil, format: nil)
        #expect(a == a2)
        #expect(a[0].docID != b[0].docID)
        #expect(a[0].chunkID == a[0].docID + "-0")
        #expect(a[0].title == "T")
        let changed = try DocumentChunker(library: "a", chunker: chunker).chunk(path: "/x/notes.md", text: "# T\n\nHello again.", title: nil, format: nil)
        #expect(changed[0].docHash != a[0].docHash)
        #expect(changed[0].docID == a[0].docID)
    }

    @Test func unsupportedAndMissingFilesAreClearErrors() throws {
        let chunker = DocumentChunker(library: "a", chunker: try Chunker(tokens: TestSupport.counter()))
        #expect(throws: DocumentError.cannotOpen(path: "/nonexistent/a.md", reason: "no such file or directory")) {
            try chunker.chunk(path: "/nonexistent/a.md", text: nil, title: nil, format: nil)
        }
        let sheet = FileManager.default.temporaryDirectory.appendingPathComponent("pb-\(UUID().uuidString).xls")
        try Data("PK".utf8).write(to: sheet)
        defer { try? FileManager.default.removeItem(at: sheet) }
        #expect(throws: DocumentError.unsupported(path: sheet.path, reason: "legacy Excel .xls is not supported; save it as .xlsx or .ods")) {
            try chunker.chunk(path: sheet.path, text: nil, title: nil, format: nil)
        }
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("pb-\(UUID().uuidString).bin")
        try Data([0, 1, 2, 0, 255]).write(to: binary)
        defer { try? FileManager.default.removeItem(at: binary) }
        #expect(throws: DocumentError.self) { try chunker.chunk(path: binary.path, text: nil, title: nil, format: nil) }
    }
}
