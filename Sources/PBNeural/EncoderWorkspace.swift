import CBLASRuntime
import CKernels

/// One worker's scratch memory and the forward pass over a micro-batch.
///
/// The tokens of all sequences in a micro-batch are packed row after row (no padding between
/// sequences), so every projection is one matrix product over all of them, and attention runs per
/// sequence and head over that sequence's real tokens only. Buffers are allocated once per
/// workspace and grown only when a larger micro-batch arrives; the hot loop allocates nothing.
///
/// With `packed` weights the products run on CKernels (`EncoderWorkspace+Kernels.swift`), whose
/// rows never depend on the row count; without, on CBLAS (the `blas` reference path).
final class EncoderWorkspace {
    /// On the `blas` path, row counts handed to sgemm are rounded up to this multiple, with at
    /// least `minimumRows`, so that OpenBLAS takes its regular blocked path (not its small-matrix
    /// kernels). That keeps rows independent of the row count only for some of OpenBLAS's kernel
    /// families (not its Zen/Haswell ones): the own paths need no padding.
    static let rowMultiple = 16
    static let minimumRows = 64

    let config: BertConfig
    let packed: PackedBertWeights?
    private(set) var rowCapacity = 0
    var hidden: UnsafeMutablePointer<Float>              // [rows, hidden]
    var wide: UnsafeMutablePointer<Float>                // [rows, max(4 * hidden, intermediate)]
    let scores: UnsafeMutablePointer<Float>              // [maxLength, maxLength]
    let rowSums: UnsafeMutablePointer<Float>             // [maxLength]
    /// CKernels scratch: the packed block of A, and one head's keys and values as B panels.
    let kernelWork, packedKeys, packedValues: UnsafeMutablePointer<Float>
    private let kernelAllocations: [UnsafeMutableRawPointer]
    let maxLength: Int

    init(config: BertConfig, packed: PackedBertWeights? = nil) {
        self.config = config
        self.packed = packed
        maxLength = config.maxPositions
        hidden = .allocate(capacity: 1)
        wide = .allocate(capacity: 1)
        scores = .allocate(capacity: maxLength * maxLength)
        rowSums = .allocate(capacity: maxLength)
        var floats = [1, 1, 1]
        if let path = packed?.path {
            let d = Int32(config.headDimension), length = Int32(maxLength)
            floats = [pbk_work_size(path), pbk_packed_size(path, length, d), pbk_packed_size(path, d, length)]
        }
        // 64-byte aligned: the microkernels load B panels a cache line at a time.
        kernelAllocations = floats.map { UnsafeMutableRawPointer.allocate(byteCount: $0 * 4, alignment: 64) }
        let pointers = zip(kernelAllocations, floats).map { $0.bindMemory(to: Float.self, capacity: $1) }
        kernelWork = pointers[0]
        packedKeys = pointers[1]
        packedValues = pointers[2]
    }

    deinit {
        hidden.deallocate()
        wide.deallocate()
        scores.deallocate()
        rowSums.deallocate()
        for raw in kernelAllocations { raw.deallocate() }
    }

    static func paddedRows(_ tokens: Int) -> Int {
        max(minimumRows, (tokens + rowMultiple - 1) / rowMultiple * rowMultiple)
    }

    private func reserve(rows: Int) {
        guard rows > rowCapacity else { return }
        hidden.deallocate()
        wide.deallocate()
        hidden = .allocate(capacity: rows * config.hidden)
        wide = .allocate(capacity: rows * max(4 * config.hidden, config.intermediate))
        rowCapacity = rows
    }

    /// Encodes the sequences (each at most `maxPositions` ids, all ids valid) and writes each
    /// L2-normalised mean-pooled vector to `outputs[k]` (`hidden` floats each). With
    /// `tokenOutputs`, also each sequence's last-layer token states, one L2-normalised row of
    /// `hidden` floats per token, to `tokenOutputs[k]` (for late interaction).
    ///
    /// For sentence pairs (a cross-encoder), `segmentStarts[k]` is the position where sequence
    /// k's second segment begins (token type 1 from there on), and `firstTokenOutputs[k]`
    /// receives the raw last-layer state of its first token ([CLS]), which the pooler reads.
    @_optimize(speed)
    func encode(_ sequences: [UnsafeBufferPointer<Int32>], weights w: BertWeights,
                outputs: [UnsafeMutablePointer<Float>], tokenOutputs: [UnsafeMutablePointer<Float>]? = nil,
                segmentStarts: [Int]? = nil, firstTokenOutputs: [UnsafeMutablePointer<Float>]? = nil) {
        let c = config
        let h = c.hidden
        let tokens = sequences.reduce(0) { $0 + $1.count }
        let rows = packed == nil ? Self.paddedRows(tokens) : max(tokens, 1)
        reserve(rows: rows)

        // Embeddings: word + position + token type (0; 1 in a pair's second segment), then
        // LayerNorm. Padding rows are zeros (finite after LayerNorm; never read by attention or
        // pooling).
        var offsets: [Int] = []
        offsets.reserveCapacity(sequences.count)
        var row = 0
        for (k, sequence) in sequences.enumerated() {
            offsets.append(row)
            let second = segmentStarts?[k] ?? Int.max
            for (position, id) in sequence.enumerated() {
                VectorKernels.add3(w.wordEmbeddings + Int(id) * h, w.positionEmbeddings + position * h,
                                   w.tokenTypeEmbeddings + (position >= second ? h : 0), into: hidden + row * h, count: h)
                row += 1
            }
        }
        (hidden + tokens * h).update(repeating: 0, count: (rows - tokens) * h)
        if let packed {
            pbk_layer_norm(packed.path, hidden, Int32(tokens), Int32(h), w.embeddingNormGamma, w.embeddingNormBeta,
                           c.layerNormEpsilon)
            for (layer, packedLayer) in zip(w.layers, packed.layers) {
                runKernelLayer(packedLayer, layer, tokens: tokens, sequences: sequences, offsets: offsets)
            }
        } else {
            pbk_layer_norm(Self.elementwisePath, hidden, Int32(tokens), Int32(h), w.embeddingNormGamma, w.embeddingNormBeta,
                           c.layerNormEpsilon)
            for layer in w.layers {
                runLayer(layer, rows: rows, tokens: tokens, sequences: sequences, offsets: offsets)
            }
        }

        if let firstTokenOutputs {
            for k in sequences.indices where !sequences[k].isEmpty {
                firstTokenOutputs[k].update(from: hidden + offsets[k] * h, count: h)
            }
        }

        // Mean pooling over each sequence's tokens, then L2 normalisation (eps 1e-12 as in torch).
        for (k, sequence) in sequences.enumerated() {
            let out = outputs[k]
            out.update(repeating: 0, count: h)
            let base = hidden + offsets[k] * h
            for t in 0..<sequence.count {
                VectorKernels.accumulate(base + t * h, into: out, count: h)
            }
            let inverseCount = 1 / Float(max(sequence.count, 1))
            var norm: Float = 0
            for j in 0..<h {
                out[j] *= inverseCount
                norm += out[j] * out[j]
            }
            let scale = 1 / max(norm.squareRoot(), 1e-12)
            for j in 0..<h { out[j] *= scale }
            if let tokenOut = tokenOutputs?[k] {
                for t in 0..<sequence.count {
                    let source = base + t * h, target = tokenOut + t * h
                    var squares: Float = 0
                    for j in 0..<h { squares += source[j] * source[j] }
                    let unit = 1 / max(squares.squareRoot(), 1e-12)
                    for j in 0..<h { target[j] = source[j] * unit }
                }
            }
        }
    }

    /// The `blas` path's softmax, LayerNorm and GELU: the C kernels' own, on the best path the
    /// CPU has, so the encoder has one implementation of each (only the products differ).
    static let elementwisePath = pbk_best()

    /// x[r] += bias for each of `rows` rows of `width` values.
    private static func addBias(_ x: UnsafeMutablePointer<Float>, rows: Int, width: Int, _ bias: UnsafePointer<Float>) {
        for r in 0..<rows { VectorKernels.accumulate(bias, into: x + r * width, count: width) }
    }

    /// One layer on the system CBLAS (the `blas` path; KernelPath checked it loads).
    @_optimize(speed)
    private func runLayer(_ l: BertLayerWeights, rows: Int, tokens: Int,
                          sequences: [UnsafeBufferPointer<Int32>], offsets: [Int]) {
        let c = config
        let h = c.hidden, n = Int32(rows), h32 = Int32(h)
        let q = wide, k = wide + rows * h, v = wide + 2 * rows * h, context = wide + 3 * rows * h

        // Q = X Wq^T + bq (bias pre-filled, beta 1); K = X Wk^T (its bias cancels in softmax);
        // V = X Wv^T (its bias is added after attention: softmax rows sum to one).
        for r in 0..<rows { (q + r * h).update(from: l.queryBias, count: h) }
        pbb_sgemm(1, n, h32, h32, 1, hidden, h32, l.query, h32, 1, q, h32)
        pbb_sgemm(1, n, h32, h32, 1, hidden, h32, l.key, h32, 0, k, h32)
        pbb_sgemm(1, n, h32, h32, 1, hidden, h32, l.value, h32, 0, v, h32)

        // Scores are scaled by log2(e)/sqrt(d) so the softmax can use 2^x directly.
        let d = c.headDimension, d32 = Int32(d)
        let alpha = Float(1.4426950408889634 / Double(d).squareRoot())
        for (s, sequence) in sequences.enumerated() {
            let length = sequence.count
            let len32 = Int32(length)
            let base = offsets[s] * h
            for head in 0..<c.heads {
                let column = base + head * d
                pbb_sgemm(1, len32, len32, d32, alpha,
                            q + column, h32, k + column, h32, 0, scores, len32)
                // rowSums holds each row's inverse sum.
                pbk_softmax_rows(Self.elementwisePath, scores, len32, len32, length, rowSums)
                pbb_sgemm(0, len32, d32, len32, 1,
                            scores, len32, v + column, h32, 0, context + column, h32)
                for i in 0..<length {
                    VectorKernels.scaleAdd(context + column + i * h, scale: rowSums[i],
                                           add: l.valueBias + head * d, count: d)
                }
            }
        }
        // Padding rows of the context are never written by attention; zeros keep the padding rows
        // of X at exactly zero through the layer (element-wise passes skip them).
        (context + tokens * h).update(repeating: 0, count: (rows - tokens) * h)

        // X = LayerNorm(X + context Wo^T + bo): the residual is the sgemm's C (beta 1).
        pbb_sgemm(1, n, h32, h32, 1, context, h32,
                    l.attentionOutput, h32, 1, hidden, h32)
        Self.addBias(hidden, rows: tokens, width: h, l.attentionOutputBias)
        pbk_layer_norm(Self.elementwisePath, hidden, Int32(tokens), h32, l.attentionNormGamma, l.attentionNormBeta, c.layerNormEpsilon)

        // X = LayerNorm(X + gelu(X Wi^T + bi) Wo^T + bo)
        let i32 = Int32(c.intermediate)
        let inner = wide
        pbb_sgemm(1, n, i32, h32, 1, hidden, h32,
                    l.intermediate, h32, 0, inner, i32)
        Self.addBias(inner, rows: tokens, width: c.intermediate, l.intermediateBias)
        pbk_gelu(Self.elementwisePath, inner, Int32(tokens * c.intermediate))
        pbb_sgemm(1, n, h32, i32, 1, inner, i32,
                    l.output, i32, 1, hidden, h32)
        Self.addBias(hidden, rows: tokens, width: h, l.outputBias)
        pbk_layer_norm(Self.elementwisePath, hidden, Int32(tokens), h32, l.outputNormGamma, l.outputNormBeta, c.layerNormEpsilon)
    }
}
