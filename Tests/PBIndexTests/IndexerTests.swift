import Foundation
import Testing
@testable import PBCore
@testable import PBIndex
import PBSQLite
import PBText

/// A one-per-word token counter: these tests are about storage, not tokenization.
struct WordCounter: TokenCounter {
    func countTokens(_ text: String) -> Int { text.split(whereSeparator: { $0.isWhitespace }).count }
}

/// A fresh PB_HOME per test, and documents made by the real chunker.
final class IndexFixture {
    let home: URL
    let environment: PBEnvironment
    let chunker: DocumentChunker

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = PBEnvironment(variables: ["PB_HOME": home.path])
        chunker = DocumentChunker(library: "t", chunker: try Chunker(limits: ChunkLimits(maxWords: 12, maxTokens: 100), tokens: WordCounter()))
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    func chunks(_ path: String, _ text: String, vector: ((Int) -> [Float])? = nil, model: String = "m") throws -> [ChunkRecord] {
        var records = try chunker.chunk(path: path, text: text, title: nil, format: "markdown")
        if let vector {
            for i in records.indices { records[i].embedding = Embedding(model: model, values: vector(i)) }
        }
        return records
    }

    func lines(_ records: [ChunkRecord]) throws -> [InputLine] {
        try records.enumerated().map { InputLine(data: try RecordCodec().encode($1), source: "<test>", number: $0 + 1) }
    }

    /// Runs one pb-index pass over the records; returns the summary.
    @discardableResult
    func index(_ records: [ChunkRecord], prune: Bool = false, restore: Bool = false, batch: Int = 256) throws -> IndexSummary {
        var options = Indexer.Options()
        options.prune = prune
        options.restore = restore
        options.batchDocuments = batch
        let indexer = Indexer(library: try library(), options: options)
        for line in try lines(records) { try indexer.consume(line) }
        return try indexer.finish()
    }

    func library(write: Bool = true) throws -> Library { try Library(environment: environment, name: "t", create: write) }

    func count(_ sql: String) throws -> Int64 { try library(write: false).db.scalarInt(sql) ?? -1 }
}

let notes = "# Notes\n\nThe boiler was serviced in March. The engineer replaced the pressure valve. Next service is due in March next year. Keep the receipt in the blue folder."
let recipe = "# Bread\n\nMix flour, water, salt and yeast. Knead for ten minutes. Prove for an hour. Bake at 230 degrees for thirty minutes."
let travel = "# Lisbon\n\nFly out on 14 May. The hotel is in Alfama. Tram 28 goes past the cathedral."

@Suite struct IndexerTests {
    @Test func rerunSkipsEditReplacesOnlyThatDocument() throws {
        let f = try IndexFixture()
        let all = try f.chunks("/d/notes.md", notes) + f.chunks("/d/bread.md", recipe) + f.chunks("/d/lisbon.md", travel)
        let first = try f.index(all)
        #expect(first.added == 3 && first.skipped == 0 && first.chunks == all.count)
        let again = try f.index(all)
        #expect(again.added == 0 && again.skipped == 3 && again.chunks == 0)
        let edited = try f.chunks("/d/notes.md", notes + " The code for the boiler cupboard is 4471.") + f.chunks("/d/bread.md", recipe) + f.chunks("/d/lisbon.md", travel)
        let third = try f.index(edited)
        #expect(third.replaced == 1 && third.skipped == 2 && third.added == 0)
        #expect(try f.count("SELECT count(*) FROM chunks") == Int64(edited.count))
        #expect(try f.count("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '4471'") == 1)
        #expect(try LibraryCheck(f.library(write: false)).consistent)
    }

    @Test func pruneTombstonesAndDeletionWins() throws {
        let f = try IndexFixture()
        let bread = try f.chunks("/d/bread.md", recipe)
        try f.index(try f.chunks("/d/notes.md", notes) + bread)
        let pruned = try f.index(try f.chunks("/d/notes.md", notes), prune: true)
        #expect(pruned.pruned == 1 && pruned.skipped == 1)
        #expect(try f.count("SELECT count(*) FROM documents") == 1)
        #expect(try f.count("SELECT count(*) FROM tombstones") == 1)
        // A stale copy of the deleted document does not come back...
        let stale = try f.index(bread)
        #expect(stale.tombstoned == 1 && stale.added == 0)
        // ...new content does, and so does the same content with --restore.
        let restored = try f.index(bread, restore: true)
        #expect(restored.added == 1)
        #expect(try f.count("SELECT count(*) FROM tombstones") == 0)
        #expect(try LibraryCheck(f.library(write: false)).consistent)
    }

    @Test func malformedRecordCommitsNothingOfItsBatch() throws {
        let f = try IndexFixture()
        try f.index(try f.chunks("/d/notes.md", notes))
        let before = try f.count("SELECT count(*) FROM chunks")
        let indexer = Indexer(library: try f.library())
        var lines = try f.lines(try f.chunks("/d/bread.md", recipe))
        lines.append(InputLine(data: Data(#"{"kind":"chunk","text":"x"}"#.utf8), source: "<stdin>", number: lines.count + 1))
        var failure: Error?
        for line in lines {
            do { try indexer.consume(line) } catch { failure = error; break }
        }
        #expect(failure is RecordError)
        #expect(try f.count("SELECT count(*) FROM chunks") == before)
        #expect(try f.count("SELECT count(*) FROM documents") == 1)
    }

    @Test func documentCutShortIsAnErrorAndNotCommitted() throws {
        let f = try IndexFixture()
        let chunks = try f.chunks("/d/notes.md", notes)
        #expect(chunks.count > 2)
        do {
            let indexer = Indexer(library: try f.library())
            for line in try f.lines(Array(chunks.dropLast())) { try indexer.consume(line) }
            #expect(throws: RecordError.self) { try indexer.finish() }
        }
        #expect(try f.count("SELECT count(*) FROM documents") == 0)
        // Out-of-order chunks are refused too.
        let shuffled = Indexer(library: try f.library())
        #expect(throws: RecordError.self) {
            for line in try f.lines([chunks[1], chunks[0]]) { try shuffled.consume(line) }
        }
    }

    @Test func vectorsCommitWithTheirChunksAndOtherModelsAreRefused() throws {
        let f = try IndexFixture()
        let v: (Int) -> [Float] = { i in [cos(Float(i) * 0.3), sin(Float(i) * 0.3), 0, 0] }
        let s = try f.index(try f.chunks("/d/notes.md", notes, vector: v) + f.chunks("/d/bread.md", recipe, vector: v))
        #expect(s.vectors == s.chunks)
        let lib = try f.library(write: false)
        #expect(try lib.committedVectorRows == s.chunks)
        #expect(try lib.vectorModel()?.dim == 4)
        #expect(throws: RecordError.self) {
            try f.index(try f.chunks("/d/lisbon.md", travel, vector: { _ in [1, 0, 0] }))
        }
        #expect(throws: RecordError.self) {
            try f.index(try f.chunks("/d/lisbon.md", travel, vector: v, model: "other"))
        }
        #expect(try f.library(write: false).committedVectorRows == s.chunks)
        #expect(try LibraryCheck(f.library(write: false)).consistent)
    }

    @Test func vectorsMustBeFiniteAndOfLengthOne() throws {
        let f = try IndexFixture()
        // 1e38 in every place: before, it was stored and ranked first for every query.
        for bad: [Float] in [[1e38, 1e38, 1e38, 1e38], [0.5, 0.5, 0.5, 0.4], [.nan, 0, 0, 0], [.infinity, 0, 0, 0], [0, 0, 0, 0]] {
            #expect(throws: RecordError.self) { try f.index(try f.chunks("/d/notes.md", notes, vector: { _ in bad })) }
        }
        #expect(try f.count("SELECT count(*) FROM chunks") == 0)
        // Rounding of a normalised vector passes.
        let s = try f.index(try f.chunks("/d/notes.md", notes, vector: { _ in [0.5, 0.5, 0.5, 0.5000001] }))
        #expect(s.vectors == s.chunks && s.chunks > 0)
    }

    @Test func anEmptiedIndexIsReportedAndItsVectorsAreNeverCut() throws {
        let f = try IndexFixture()
        let v: (Int) -> [Float] = { i in [cos(Float(i) * 0.3), sin(Float(i) * 0.3), 0, 0] }
        let s = try f.index(try f.chunks("/d/notes.md", notes, vector: v) + f.chunks("/d/bread.md", recipe, vector: v))
        #expect(s.vectors > 0)
        let lib = try f.library(write: false)
        let index = lib.indexPath, vectors = lib.vectorPath
        let vectorBytes = try Data(contentsOf: URL(fileURLWithPath: vectors))
        // `: > index.sqlite`, with no -wal or -shm left.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        try Data().write(to: URL(fileURLWithPath: index))
        // The check opens it, reports it, and writes nothing.
        let check = try LibraryCheck(Library(environment: f.environment, name: "t", create: false, damagedOK: true))
        #expect(!check.consistent)
        #expect(check.problems.contains { $0.contains("holds no schema") })
        #expect(check.problems.contains { $0.contains("\(s.vectors) vector rows") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)).isEmpty)
        // Other readers refuse it (bad input) rather than query a schema that is not there.
        #expect { try Library(environment: f.environment, name: "t", create: false) } throws: { ($0 as? ToolFailure)?.code == .badInput }
        // A writer refuses too, and the vector file keeps every row.
        #expect { try f.index(try f.chunks("/d/lisbon.md", travel, vector: v)) } throws: { ($0 as? ToolFailure)?.code == .badInput }
        #expect(try Data(contentsOf: URL(fileURLWithPath: vectors)) == vectorBytes)
    }

    @Test func readersOpenTheIndexReadOnly() throws {
        let f = try IndexFixture()
        try f.index(try f.chunks("/d/notes.md", notes))
        let lib = try f.library(write: false)
        #expect(throws: DatabaseError.self) { try lib.db.execute("CREATE TABLE intruder(x)") }
    }

    @Test func rowsOfAKilledRunAreTrimmedOnOpen() throws {
        let f = try IndexFixture()
        let v: (Int) -> [Float] = { _ in [0.6, 0.8] }
        try f.index(try f.chunks("/d/notes.md", notes, vector: v))
        let path: String
        let committed: Int
        do {
            let lib = try f.library()
            path = lib.vectorPath
            committed = try lib.committedVectorRows
            // A run appends and fsyncs rows, then dies before its commit.
            _ = try lib.vectors()!.append([1, 0, 0, 1, 1, 0])
        }
        let size = { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0 }
        #expect(size() == VectorFile.headerSize + (committed + 3) * 8)
        // A reader ignores them and changes nothing...
        let reader = try f.library(write: false)
        #expect(try reader.vectors()?.rows == committed)
        #expect(size() == VectorFile.headerSize + (committed + 3) * 8)
        #expect(try LibraryCheck(reader).consistent)
        // ...the next writer trims them.
        let writer = try f.library()
        #expect(try writer.vectors()?.rows == committed)
        #expect(size() == VectorFile.headerSize + committed * 8)
    }

    @Test func errorRecordsKeepTheirDocumentFromPrune() throws {
        let f = try IndexFixture()
        try f.index(try f.chunks("/d/notes.md", notes) + f.chunks("/d/bread.md", recipe))
        let indexer = Indexer(library: try f.library(), options: { var o = Indexer.Options(); o.prune = true; return o }())
        for line in try f.lines(try f.chunks("/d/notes.md", notes)) { try indexer.consume(line) }
        let e = ErrorRecord(tool: "pb-chunk", source: "/d/bread.md", line: 0, message: "x", input: "", path: "/d/bread.md")
        try indexer.consume(InputLine(data: try RecordCodec().encode(e), source: "<test>", number: 99))
        let s = try indexer.finish()
        #expect(s.failed == 1 && s.pruned == 0)
    }

    /// A stage that failed as a whole (an error naming no document) may have stopped before it
    /// passed documents on: they must not be pruned as if deleted, nor the run kept as complete.
    @Test func anErrorWithoutAPathStopsPrune() throws {
        let f = try IndexFixture()
        try f.index(try f.chunks("/d/notes.md", notes) + f.chunks("/d/bread.md", recipe))
        // In a scope of its own: the indexer holds the library's write lock until it goes.
        let s = try {
            let indexer = Indexer(library: try f.library(), options: { var o = Indexer.Options(); o.prune = true; return o }())
            for line in try f.lines(try f.chunks("/d/notes.md", notes)) { try indexer.consume(line) }
            let e = ErrorRecord(tool: "pb-ingest", source: "pb-ingest", line: 0, message: "pb-chunk exited with status 69", input: "")
            try indexer.consume(InputLine(data: try RecordCodec().encode(e), source: "<test>", number: 9))
            return try indexer.finish()
        }()
        #expect(s.pruned == 0)
        #expect(try f.count("SELECT count(*) FROM documents") == 2)
        #expect(try f.count("SELECT count(*) FROM last_run") == 0)
        #expect(try Indexer(library: try f.library()).pruneUnseen().pruned == 0)
    }

    /// Pruning most documents rewrites the vector file without their rows: a new file, named in
    /// the index, each kept chunk renumbered to a row that holds its own vector; a file a killed
    /// compaction left behind is deleted by the next writer.
    @Test func pruningCompactsTheVectorFile() throws {
        let f = try IndexFixture()
        // Each document's chunks get a vector of their own: its first component says which.
        func v(_ doc: Float) -> (Int) -> [Float] { { _ in [doc / (doc * doc + 1).squareRoot(), 1 / (doc * doc + 1).squareRoot()] } }
        try f.index(try f.chunks("/d/notes.md", notes, vector: v(1)) + f.chunks("/d/bread.md", recipe, vector: v(2)) + f.chunks("/d/lisbon.md", travel, vector: v(3)))
        let s = try f.index(try f.chunks("/d/lisbon.md", travel, vector: v(3)), prune: true)
        #expect(s.pruned == 2)
        let lib = try f.library(write: false)
        #expect(lib.vectorFileName == "vectors.1.f32")
        #expect(!FileManager.default.fileExists(atPath: lib.directory.appendingPathComponent("vectors.f32").path))
        let rows = try lib.vectors()!.mapped()
        let kept = try f.count("SELECT count(*) FROM chunks")
        #expect(try lib.committedVectorRows == Int(kept))
        let q = try lib.db.prepare("SELECT vector_row FROM chunks")
        while try q.step() {
            let r = Int(q.int(0))
            #expect(abs(rows[r * 2] - 3 / Float(10).squareRoot()) < 1e-6)
        }
        #expect(try LibraryCheck(lib).consistent)
        // A compaction killed before its commit leaves its file: the next writer removes it.
        let stray = lib.directory.appendingPathComponent("vectors.2.f32").path
        FileManager.default.createFile(atPath: stray, contents: Data(repeating: 7, count: 300))
        _ = try f.library()
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    /// A run that brought nothing (an empty or mistyped folder) never empties the library.
    @Test func pruneAfterARunThatBroughtNothingPrunesNothing() throws {
        let f = try IndexFixture()
        try f.index(try f.chunks("/d/notes.md", notes) + f.chunks("/d/bread.md", recipe))
        let s = try f.index([], prune: true)
        #expect(s.pruned == 0)
        #expect(try f.count("SELECT count(*) FROM documents") == 2)
        #expect(try f.count("SELECT count(*) FROM tombstones") == 0)
    }
}
