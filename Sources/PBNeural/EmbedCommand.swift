import Foundation
import PBCore
import PBText

/// pb-embed: adds `embedding` to chunk and query records.
///
/// Chunks embed `prefix` + newline + `text` (the document and section say what the text is
/// about), queries their `text`. Records that already carry an embedding of this model pass
/// through untouched, and so do records of other kinds (`doc` markers, `error`s), in order.
public enum EmbedCommand {
    public static let spec = CommandSpec(
        name: "pb-embed",
        summary: "add all-MiniLM-L6-v2 embeddings to chunk and query records",
        operands: "[FILE ...]",
        options: [
            OptionSpec("batch", value: "N", help: "records embedded together (default 64)"),
            OptionSpec("threads", value: "N", help: "worker threads (default: OPENBLAS_NUM_THREADS, PB_THREADS, or all cores)"),
            OptionSpec("max-tokens", value: "N", help: "WordPiece tokens per input, [CLS] and [SEP] included (default 256, at most 512)"),
            OptionSpec("vectors", value: "FORMAT", help: "base64 (f32le_b64, default) or json (a plain 'vector' array)"),
            OptionSpec("check", help: "load the model and exit: 0 if it loads, 69 if not"),
            OptionSpec("keep-going", help: "write an error record for a bad record and go on (exit 65 at the end)"),
        ])

    public static func loadEncoder(_ environment: PBEnvironment) throws -> MiniLMEncoder {
        let dir = environment.modelDirectory
        guard environment.modelPresent else { throw environment.modelMissing }
        do {
            return try MiniLMEncoder(modelDirectory: dir)
        } catch let error as KernelError {
            throw error
        } catch {
            throw ToolFailure(.unavailable, "cannot load the model: \(error)")
        }
    }

    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment()) throws -> ExitCode {
        let batch = try o.int("batch", default: 64, in: 1...100_000)
        let maxTokens = try o.int("max-tokens", default: ChunkLimits.embeddingWindow, in: 2...512)
        let asArray = try o.choice("vectors", ["base64", "json"], default: "base64") == "json"
        let threads = try o.value("threads").map { _ in try o.int("threads", default: 1, in: 1...256) }
        let encoder = try loadEncoder(environment)
        if o.flag("check") {
            Diagnostics.shared.note("model \(encoder.modelID) (\(encoder.dimension)-d, weights \(encoder.weightsHash.prefix(16))) at \(environment.modelDirectory.path); kernels \(encoder.kernel)")
            return .success
        }
        if let threads { encoder.threads = threads }
        let embedder = RecordEmbedder(encoder: encoder, maxTokens: maxTokens, asArray: asArray)
        let loop = RecordLoop(keepGoing: o.flag("keep-going"))
        let progress = Progress("records")
        defer { progress.finish() }
        for reader in try RecordLoop.readers(for: o.operands) {
            while true {
                let lines = reader.nextBatch(max: batch)
                if lines.isEmpty { break }
                for (line, output) in zip(lines, embedder.embed(lines)) {
                    switch output {
                    case .line(let data): NDJSONWriter.standardOutput.writeLine(data)
                    case .failure(let message): try loop.report(message, at: line)
                    }
                }
                progress.advance(by: lines.count)
            }
            if let io = reader.ioError { throw ToolFailure(.ioError, io) }
        }
        if embedder.truncatedRecords > 0 {
            Diagnostics.shared.note("\(embedder.truncatedRecords) of \(embedder.embeddedRecords) records were longer than \(embedder.window) tokens and were embedded from their beginning only (their embeddings carry truncated_from)")
        }
        return loop.badLines > 0 ? .badInput : .success
    }
}

/// The per-batch work of pb-embed, apart from I/O so tests can drive it.
public final class RecordEmbedder {
    public enum Output: Equatable {
        /// The line to write, newline included.
        case line(Data)
        /// Why the input line is not a record pb-embed can handle.
        case failure(String)
    }

    let encoder: MiniLMEncoder
    let asArray: Bool
    let weights: String
    /// Tokens per input, [CLS] and [SEP] included: the window the vectors are made from.
    public let window: Int
    /// Records embedded so far, and how many of them were cut to the window.
    public private(set) var embeddedRecords = 0
    public private(set) var truncatedRecords = 0
    private let codec = RecordCodec()

    public init(encoder: MiniLMEncoder, maxTokens: Int = ChunkLimits.embeddingWindow, asArray: Bool = false) {
        self.encoder = encoder
        window = min(max(maxTokens, 2), encoder.maxPositions)
        self.asArray = asArray
        weights = String(encoder.weightsHash.prefix(16))
    }

    /// The ids the encoder sees, and the whole length when the text did not fit the window.
    func tokenize(_ text: String) -> (ids: [Int32], truncatedFrom: Int?) {
        let ids = encoder.tokenizer.encode(text, maxTokens: window)
        // Only a text that filled the window can have been cut: count the rest for those alone.
        guard ids.count == window else { return (ids, nil) }
        let whole = encoder.tokenizer.countTokens(text) + 2
        return (ids, whole > window ? whole : nil)
    }

    /// What pb-embed writes for each line, in order.
    public func embed(_ lines: [InputLine]) -> [Output] {
        enum Pending { case chunk(ChunkRecord), query(QueryRecord) }
        var outputs = [Output?](repeating: nil, count: lines.count)
        var pending: [(index: Int, record: Pending, text: String)] = []
        for (i, line) in lines.enumerated() {
            do {
                let raw = try codec.decodeObject(line.data)
                let kind = raw["kind"]?.stringValue ?? "query"
                switch kind {
                case "chunk":
                    let c = try codec.decode(ChunkRecord.self, from: line.data)
                    if let e = c.embedding, matches(e) { outputs[i] = .line(line.data + [0x0A]); continue }
                    pending.append((i, .chunk(c), c.prefix.isEmpty ? c.text : c.prefix + "\n" + c.text))
                case "query":
                    let q = try codec.decode(QueryRecord.self, from: line.data)
                    if let e = q.embedding, matches(e) { outputs[i] = .line(line.data + [0x0A]); continue }
                    pending.append((i, .query(q), q.text))
                default:
                    outputs[i] = .line(line.data + [0x0A])
                }
            } catch {
                outputs[i] = .failure(Tool.failure(for: error).message)
            }
        }
        let tokens = pending.map { tokenize($0.text) }
        let vectors = encoder.embed(tokenIDs: tokens.map(\.ids))
        embeddedRecords += pending.count
        truncatedRecords += tokens.filter { $0.truncatedFrom != nil }.count
        for ((p, v), t) in zip(zip(pending, vectors), tokens) {
            let e = Embedding(model: encoder.modelID, weights: weights, values: v, asArray: asArray,
                              truncatedFrom: t.truncatedFrom)
            do {
                switch p.record {
                case .chunk(var c):
                    c.embedding = e
                    outputs[p.index] = .line(try codec.encode(c) + [0x0A])
                case .query(var q):
                    q.embedding = e
                    outputs[p.index] = .line(try codec.encode(q) + [0x0A])
                }
            } catch {
                outputs[p.index] = .failure(Tool.failure(for: error).message)
            }
        }
        return outputs.map { $0! }
    }

    /// An embedding this encoder would make (same model, dimension and weights).
    func matches(_ e: Embedding) -> Bool {
        e.model == encoder.modelID && e.dim == encoder.dimension && (e.weights == nil || e.weights == weights)
    }
}
