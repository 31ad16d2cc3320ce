import CKernels
import Dispatch
import Foundation
import PBCore
import PBText

/// sentence-transformers/all-MiniLM-L6-v2 (BERT, 6 layers, 384 dimensions) in fp32:
/// WordPiece ids → embeddings → 6 encoder layers → mean pooling over the tokens → L2 norm.
///
/// `model.safetensors` is memory-mapped; the matrices are packed once into the panels of the
/// kernel path (`KernelPath`: AVX-512, AVX2 or portable CKernels, or CBLAS as the reference).
///
/// Batching: inputs are sorted by length (longest first) and cut into micro-batches of about
/// `batchTokens` tokens. A micro-batch packs its sequences' tokens row after row — no padding
/// between sequences — so each projection is one sgemm over every real token, and attention is
/// computed per sequence over its own tokens only. Workers (`threads`) take micro-batches from a
/// shared queue and run all layers on them independently; OpenBLAS is kept single-threaded
/// meanwhile. Results come back in input order.
///
/// Determinism: on the own kernel paths a sequence's vector depends only on its ids. Attention
/// never sees other sequences, element-wise passes are per row, and every product computes each
/// row with the same instructions whatever the row count (CKernels pads tiles, never chooses a
/// kernel by size); tests check bit-identical output across batch sizes, orders, micro-batching
/// and threads on every path the CPU has. On `blas` that holds only where OpenBLAS's kernels do.
public final class MiniLMEncoder: @unchecked Sendable {
    // @unchecked: the mutable state (workspaces) is only touched under `lock`; weights are
    // read-only pointers into a mapping owned by `file`.

    public static let defaultModelID = "all-MiniLM-L6-v2"

    public let dimension: Int
    public let modelID: String
    /// A cheap, stable fingerprint of the weights (hashing all 90 MB would cost ~0.3 s per
    /// start): sha256 hex of the file size, the safetensors JSON header (names, dtypes, shapes,
    /// offsets) and eight 4 KiB samples spread evenly over the data section. It changes when the
    /// file is replaced by any other export or fine-tune in practice, not for a single flipped
    /// weight between the samples.
    public let weightsHash: String
    public let tokenizer: WordPieceTokenizer
    /// The matrix kernels in use.
    public let kernel: KernelPath
    /// The longest input the position table allows (512 for MiniLM).
    public let maxPositions: Int
    /// Worker threads for `embed` (OPENBLAS_NUM_THREADS, then PB_THREADS, then the CPU count).
    public var threads: Int {
        get { lock.withLock { threadCount } }
        set { lock.withLock { threadCount = max(1, newValue) } }
    }
    /// Tokens per micro-batch: large enough for efficient sgemm, small enough to share work out.
    public var batchTokens: Int {
        get { lock.withLock { microBatchTokens } }
        set { lock.withLock { microBatchTokens = max(1, newValue) } }
    }

    private let file: SafeTensors
    private let weights: BertWeights
    /// The matrices in the kernel path's panels, packed by the first encode (so a program that
    /// loads the model and never encodes, `pb-embed --check`, does not pay for it). Under `lock`.
    private var packed: PackedBertWeights?
    /// Where packed panels are kept for the next process (the model folder, `panels-PATH.bin`),
    /// and what identifies the weights they were packed from (see PackedBertWeights).
    private let panelFile: URL?
    private let panelKey: String
    /// Whether the panels were mapped from the panel file (nil before the first encode, and on `blas`).
    var panelsFromFile: Bool? { lock.withLock { packed?.fromFile } }
    private let lock = NSLock()
    private var threadCount: Int
    private var microBatchTokens = 1024
    private var workspaces: [EncoderWorkspace] = []

    /// Opens a model folder holding `model.safetensors`, `vocab.txt` and (optionally) `config.json`.
    /// `kernel` nil means `KernelPath.configured()`: PB_KERNEL, else the best path of this CPU.
    public init(modelDirectory: URL, modelID: String = MiniLMEncoder.defaultModelID, kernel: KernelPath? = nil) throws {
        let path = try kernel ?? KernelPath.configured()
        guard path.isSupported else { throw KernelError.unsupported(path) }
        self.kernel = path
        let config = try BertConfig(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        let weightsURL = modelDirectory.appendingPathComponent("model.safetensors")
        file = try SafeTensors(url: weightsURL)
        let weights = try BertWeights(file: file, config: config)
        self.weights = weights
        tokenizer = try WordPieceTokenizer(vocabularyAt: modelDirectory.appendingPathComponent("vocab.txt"))
        dimension = config.hidden
        maxPositions = config.maxPositions
        self.modelID = modelID
        threadCount = BLASThreads.defaultThreadCount
        weightsHash = Self.fingerprint(file)
        panelFile = path.ownPath.map { modelDirectory.appendingPathComponent("panels-\(String(cString: pbk_name($0))).bin") }
        var info = stat()
        panelKey = stat(weightsURL.path, &info) == 0
            ? "weights \(weightsHash) size \(info.st_size) mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) inode \(info.st_dev):\(info.st_ino)"
            : "weights \(weightsHash) size \(file.fileSize)"
    }

    private static func fingerprint(_ file: SafeTensors) -> String {
        var hash = SHA256()
        hash.update("safetensors size \(file.fileSize)\n")
        hash.update(file.headerBytes)
        let samples = 8, block = 4096
        let span = max(file.dataSize - block, 0)
        for k in 0..<samples {
            let start = span * k / (samples - 1)
            hash.update(file.dataBytes(start..<(start + block)))
        }
        return hash.finalize().map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// Embeds texts: each is tokenised to `[CLS] … [SEP]` of at most `maxTokens` ids
    /// (clamped to 2...maxPositions), then encoded. One unit-length vector per text, in order.
    public func embed(_ texts: [String], maxTokens: Int = 256) -> [[Float]] {
        let limit = min(max(maxTokens, 2), maxPositions)
        return embed(tokenIDs: texts.map { tokenizer.encode($0, maxTokens: limit) })
    }

    /// Embeds id sequences as given (normally `[CLS] … [SEP]`). Ids outside the vocabulary are
    /// read as [UNK], sequences longer than `maxPositions` are cut to that length, and an empty
    /// sequence gives a zero vector.
    public func embed(tokenIDs: [[Int32]]) -> [[Float]] {
        let sequences = sanitized(tokenIDs)
        let dim = dimension
        let output = UnsafeMutablePointer<Float>.allocate(capacity: max(sequences.count * dim, 1))
        defer { output.deallocate() }
        encode(sequences, output: output, tokenOutput: nil)
        return (0..<sequences.count).map { Array(UnsafeBufferPointer(start: output + $0 * dim, count: dim)) }
    }

    /// Like `embed(_:maxTokens:)`, but also keeps every token's last-layer state (unit length),
    /// for late interaction (`LateInteraction`). Costs the same forward pass plus a copy.
    public func tokenStates(_ texts: [String], maxTokens: Int = 256) -> [TokenStates] {
        let limit = min(max(maxTokens, 2), maxPositions)
        return tokenStates(tokenIDs: texts.map { tokenizer.encode($0, maxTokens: limit) })
    }

    /// Token states for id sequences given as they are (see `embed(tokenIDs:)`).
    public func tokenStates(tokenIDs: [[Int32]]) -> [TokenStates] {
        let sequences = sanitized(tokenIDs)
        let dim = dimension
        let total = sequences.reduce(0) { $0 + $1.count }
        let output = UnsafeMutablePointer<Float>.allocate(capacity: max(sequences.count * dim, 1))
        let tokens = UnsafeMutablePointer<Float>.allocate(capacity: max(total * dim, 1))
        defer {
            output.deallocate()
            tokens.deallocate()
        }
        encode(sequences, output: output, tokenOutput: tokens)
        var offset = 0
        return sequences.enumerated().map { k, ids in
            defer { offset += ids.count }
            return TokenStates(ids: ids, dimension: dim,
                               vectors: Array(UnsafeBufferPointer(start: tokens + offset * dim, count: ids.count * dim)),
                               pooled: Array(UnsafeBufferPointer(start: output + k * dim, count: dim)))
        }
    }

    /// The raw last-layer [CLS] state of each sentence pair, encoded BERT's way for pairs:
    /// `[CLS] a [SEP] b [SEP]`, token type 0 up to the first [SEP] and 1 after it. `first` and
    /// `second` are token ids without special tokens; the second is cut (then the first) so the
    /// pair fits `maxTokens` (at most `maxPositions`). For cross-encoders (`CrossEncoder`).
    public func pairStates(_ pairs: [(first: [Int32], second: [Int32])], maxTokens: Int = 512) -> [[Float]] {
        let limit = min(max(maxTokens, 4), maxPositions)
        var sequences: [[Int32]] = []
        var segments: [Int] = []
        for (a, b) in pairs {
            var a = a[...], b = b[...]
            // Longest first, as BERT tokenizers truncate pairs: a token off the longer side (the
            // second on a tie) until the pair fits.
            while a.count + b.count > limit - 3 {
                if a.count > b.count { a.removeLast() } else { b.removeLast() }
            }
            sequences.append([WordPieceTokenizer.cls] + a + [WordPieceTokenizer.sep] + b + [WordPieceTokenizer.sep])
            segments.append(a.count + 2)
        }
        let dim = dimension
        let output = UnsafeMutablePointer<Float>.allocate(capacity: max(sequences.count * dim, 1))
        let first = UnsafeMutablePointer<Float>.allocate(capacity: max(sequences.count * dim, 1))
        defer {
            output.deallocate()
            first.deallocate()
        }
        // A model with one token type has no second-segment row to add.
        encode(sanitized(sequences), output: output, tokenOutput: nil,
               segmentStarts: weights.config.typeVocabulary >= 2 ? segments : nil, firstTokenOutput: first)
        return (0..<sequences.count).map { Array(UnsafeBufferPointer(start: first + $0 * dim, count: dim)) }
    }

    private func sanitized(_ tokenIDs: [[Int32]]) -> [[Int32]] {
        let vocabulary = weights.config.vocabulary
        return tokenIDs.map { Self.sanitize($0, vocabulary: vocabulary, maxPositions: maxPositions) }
    }

    /// Runs the encoder over sanitised sequences: pooled vectors to `output` (zero for an empty
    /// sequence); with `tokenOutput`, token states too, sequence after sequence in input order.
    private func encode(_ sequences: [[Int32]], output: UnsafeMutablePointer<Float>,
                        tokenOutput: UnsafeMutablePointer<Float>?, segmentStarts: [Int]? = nil,
                        firstTokenOutput: UnsafeMutablePointer<Float>? = nil) {
        output.update(repeating: 0, count: sequences.count * dimension)
        let order = sequences.indices.filter { !sequences[$0].isEmpty }
            .sorted { (sequences[$0].count, $1) > (sequences[$1].count, $0) }
        lock.lock()
        defer { lock.unlock() }
        // A small call (a question and a few sentences) would fit one micro-batch and leave the
        // other workers idle: cut it into one share per worker instead. Outputs do not depend on
        // how sequences are grouped, so this changes the speed only.
        let total = order.reduce(0) { $0 + sequences[$1].count }
        let share = (total + threadCount - 1) / threadCount
        let budget = max(1, min(microBatchTokens, share))
        let batches = Self.microBatches(order, lengths: sequences.map(\.count), budget: budget)
        if !batches.isEmpty {
            let workers = min(threadCount, batches.count)
            if packed == nil, let own = kernel.ownPath { packed = PackedBertWeights(weights, path: own, file: panelFile, key: panelKey) }
            while workspaces.count < workers { workspaces.append(EncoderWorkspace(config: weights.config, packed: packed)) }
            let pass = {
                self.run(batches, sequences: sequences, workers: workers, output: output, tokenOutput: tokenOutput,
                         segmentStarts: segmentStarts, firstTokenOutput: firstTokenOutput)
            }
            // Only the `blas` path loads the BLAS; its own threads stay out of the workers' way.
            if kernel == .blas { BLASThreads.singleThreaded(pass) } else { pass() }
        }
    }

    /// Cuts a sequence to `maxPositions` ids and reads ids outside the vocabulary as [UNK].
    static func sanitize(_ ids: [Int32], vocabulary: Int, maxPositions: Int) -> [Int32] {
        let cut = ids.count > maxPositions ? Array(ids.prefix(maxPositions)) : ids
        let limit = Int32(vocabulary)
        if cut.allSatisfy({ $0 >= 0 && $0 < limit }) { return cut }
        return cut.map { $0 >= 0 && $0 < limit ? $0 : WordPieceTokenizer.unk }
    }

    /// Consecutive runs of the length-sorted indices whose token counts add up to at most
    /// `budget` (a longer single sequence gets a batch of its own).
    static func microBatches(_ order: [Int], lengths: [Int], budget: Int) -> [[Int]] {
        var batches: [[Int]] = []
        var current: [Int] = []
        var tokens = 0
        for index in order {
            let length = lengths[index]
            if !current.isEmpty && tokens + length > budget {
                batches.append(current)
                current = []
                tokens = 0
            }
            current.append(index)
            tokens += length
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    private func run(_ batches: [[Int]], sequences: [[Int32]], workers: Int, output: UnsafeMutablePointer<Float>,
                     tokenOutput: UnsafeMutablePointer<Float>?, segmentStarts: [Int]?,
                     firstTokenOutput: UnsafeMutablePointer<Float>?) {
        // All ids in one buffer, so workers get stable pointers without touching the arrays.
        var starts: [Int] = []
        starts.reserveCapacity(sequences.count)
        let total = sequences.reduce(0) { $0 + $1.count }
        let ids = UnsafeMutablePointer<Int32>.allocate(capacity: max(total, 1))
        defer { ids.deallocate() }
        var cursor = 0
        for sequence in sequences {
            starts.append(cursor)
            sequence.withUnsafeBufferPointer { (ids + cursor).update(from: $0.baseAddress!, count: $0.count) }
            cursor += sequence.count
        }

        let job = BatchJob(batches: batches, lengths: sequences.map(\.count), starts: starts, ids: ids,
                           output: output, tokenOutput: tokenOutput, dimension: dimension, weights: weights,
                           workspaces: Array(workspaces.prefix(workers)), segmentStarts: segmentStarts,
                           firstTokenOutput: firstTokenOutput)
        if workers == 1 {
            job.work(worker: 0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { job.work(worker: $0) }
        }
    }
}

/// One `embed` call's shared state for its workers. @unchecked Sendable: workers only read the
/// shared inputs, each writes only its own micro-batches' output rows and uses only its own
/// workspace, and the micro-batch counter is locked.
private final class BatchJob: @unchecked Sendable {
    let batches: [[Int]]
    let lengths: [Int]
    let starts: [Int]
    let ids: UnsafeMutablePointer<Int32>
    let output: UnsafeMutablePointer<Float>
    let tokenOutput: UnsafeMutablePointer<Float>?
    let dimension: Int
    let weights: BertWeights
    let workspaces: [EncoderWorkspace]
    let segmentStarts: [Int]?
    let firstTokenOutput: UnsafeMutablePointer<Float>?
    private let lock = NSLock()
    private var nextBatch = 0

    init(batches: [[Int]], lengths: [Int], starts: [Int], ids: UnsafeMutablePointer<Int32>,
         output: UnsafeMutablePointer<Float>, tokenOutput: UnsafeMutablePointer<Float>?, dimension: Int,
         weights: BertWeights, workspaces: [EncoderWorkspace], segmentStarts: [Int]?,
         firstTokenOutput: UnsafeMutablePointer<Float>?) {
        self.segmentStarts = segmentStarts
        self.firstTokenOutput = firstTokenOutput
        self.batches = batches
        self.lengths = lengths
        self.starts = starts
        self.ids = ids
        self.output = output
        self.tokenOutput = tokenOutput
        self.dimension = dimension
        self.weights = weights
        self.workspaces = workspaces
    }

    private func next() -> Int? {
        lock.withLock {
            guard nextBatch < batches.count else { return nil }
            defer { nextBatch += 1 }
            return nextBatch
        }
    }

    func work(worker: Int) {
        let space = workspaces[worker]
        while let b = next() {
            let members = batches[b]
            let buffers = members.map { UnsafeBufferPointer(start: ids + starts[$0], count: lengths[$0]) }
            let tokenOutputs = tokenOutput.map { base in members.map { base + starts[$0] * dimension } }
            space.encode(buffers, weights: weights, outputs: members.map { output + $0 * dimension },
                         tokenOutputs: tokenOutputs, segmentStarts: segmentStarts.map { s in members.map { s[$0] } },
                         firstTokenOutputs: firstTokenOutput.map { base in members.map { base + $0 * dimension } })
        }
    }
}
