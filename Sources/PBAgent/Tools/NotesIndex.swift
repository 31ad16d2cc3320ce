import Foundation
import PBCore
import PBIndex
import PBNeural
import PBRetrieval
import PBText

/// The notes as a knowledge library (`notes`, in `agent-notes/` beside the store), kept in step with the store
/// and searched with the same stack as pb-search: chunked by pb-chunk's chunker, indexed by
/// pb-index's indexer, ranked by BM25 and (when the model is installed) MiniLM fused by RRF.
///
/// Syncing is incremental: a note whose content has not changed is skipped before embedding, and
/// notes gone from the store are pruned. Deletion does not win here: the store is the truth, so
/// a note brought back by undo is indexed again (`restore`).
final class NotesIndex {
    static let libraryName = "notes"

    let environment: PBEnvironment
    let chunker: DocumentChunker
    let encoder: MiniLMEncoder?

    /// A counter for when no vocabulary is installed: WordPiece never makes fewer tokens than
    /// there are words and marks, and rarely more than twice as many.
    struct RoughCounter: TokenCounter {
        func countTokens(_ text: String) -> Int {
            2 * text.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).count
        }
    }

    init(storePath: String) throws {
        var variables = ProcessInfo.processInfo.environment
        variables["PB_HOME"] = (storePath as NSString).deletingLastPathComponent
        var environment = PBEnvironment(variables: variables)
        // The index lives in a folder of its own beside the store (agent-notes/libraries/notes),
        // not among the user's libraries: a library of theirs called "notes" would otherwise be
        // this index, and the first sync would prune their documents from it. The model is the
        // one PB_HOME or PB_MODEL_DIR names, as for every program.
        environment.home = environment.home.appendingPathComponent("agent-notes")
        self.environment = environment
        let vocab = environment.modelDirectory.appendingPathComponent("vocab.txt")
        let counter: TokenCounter = FileManager.default.fileExists(atPath: vocab.path)
            ? try WordPieceTokenizer(vocabularyAt: vocab) : RoughCounter()
        chunker = DocumentChunker(library: Self.libraryName, chunker: try Chunker(tokens: counter))
        let weights = environment.modelDirectory.appendingPathComponent("model.safetensors")
        encoder = FileManager.default.fileExists(atPath: weights.path) ? try? MiniLMEncoder(modelDirectory: environment.modelDirectory) : nil
    }

    static func path(of note: NoteItem) -> String { note.ref }

    /// Brings the library in line with the notes; returns how many notes were (re)indexed.
    @discardableResult
    func sync(_ notes: [NoteItem]) throws -> Int {
        let library = try Library(environment: environment, name: Self.libraryName, create: true)
        var options = Indexer.Options()
        options.prune = true
        options.restore = true
        let indexer = Indexer(library: library, options: options)
        let codec = RecordCodec()
        var line = 0
        var changed = 0
        func feed(_ data: Data) throws {
            line += 1
            try indexer.consume(InputLine(data: data, source: "notes", number: line))
        }
        for note in notes {
            var chunks: [ChunkRecord]
            do {
                chunks = try chunker.chunk(path: Self.path(of: note), text: Self.text(of: note), title: note.title, format: "markdown")
            } catch DocumentError.empty {
                continue  // a note with a title and no body has nothing to search
            }
            guard let first = chunks.first else { continue }
            if let stored = try library.document(path: first.path), stored.hash == first.docHash {
                var marker = DocRecord(path: first.path, library: Self.libraryName)
                marker.unchanged = true
                try feed(try codec.encode(marker))
                continue
            }
            if let encoder {
                let vectors = encoder.embed(chunks.map { $0.prefix + "\n" + $0.text })
                for i in chunks.indices {
                    chunks[i].embedding = Embedding(model: encoder.modelID, weights: String(encoder.weightsHash.prefix(16)), values: vectors[i])
                }
            }
            for c in chunks { try feed(try codec.encode(c)) }
            changed += 1
        }
        _ = try indexer.finish()
        return changed
    }

    /// The note as one Markdown document: its title as the heading, then the body.
    static func text(of note: NoteItem) -> String {
        "# \(note.title)\n\n\(note.body)"
    }

    /// The best passages for a question, best first.
    func search(_ question: String, k: Int) throws -> [Hit] {
        var settings = SearchCommand.Settings()
        settings.k = k
        settings.useDense = encoder != nil
        let engine = SearchEngine(environment: environment, settings: settings)
        var query = QueryRecord(text: question, library: Self.libraryName)
        if let encoder {
            query.embedding = Embedding(model: encoder.modelID, weights: String(encoder.weightsHash.prefix(16)),
                                        values: encoder.embed([question])[0])
        }
        switch try engine.search([query])[0] {
        case .success(let record): return record.hits ?? []
        case .failure(let failure): throw failure
        }
    }
}
