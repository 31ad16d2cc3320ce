import CKernels
import Dispatch

/// Whisper's text decoder, one token at a time over one window's encoder output: pre-norm layers
/// of causal self-attention (keys and values cached per position), cross-attention to the audio
/// (keys and values computed once per window), and the feed-forward block; the logits are the
/// final state against the token embedding.
///
/// One token is a matrix-vector product per weight, bound by memory more than arithmetic, so
/// the matrices are read as rows (`RowMatrix`), and the largest, the logits over the 51,864-token
/// vocabulary, is split over the threads.
final class WhisperDecoder: @unchecked Sendable {
    // @unchecked: the logits' threads each write their own rows of `logits`.
    let model: WhisperModel
    let threads: Int
    private let context: KernelContext
    /// Positions decoded so far in this window (the next token's position).
    private(set) var position = 0
    private let audioPositions: Int
    private var selfKeys, selfValues: [UnsafeMutablePointer<Float>]
    /// Per layer: the audio's keys and values ([positions][2 width]), and the values transposed
    /// ([width][positions]) so each head's context is rows of dot products too.
    private var crossKeyValues, crossValuesTransposed: [UnsafeMutablePointer<Float>]
    private let x, normed, qkv, attended, wide, scratch, scores, inverseSum, logitsBuffer: UnsafeMutablePointer<Float>
    private let arena = FloatArena()

    init(model: WhisperModel, threads: Int = 1) {
        self.model = model
        self.threads = max(1, threads)
        let d = model.dimensions, w = d.width
        audioPositions = d.audioContext
        context = KernelContext(path: model.path)
        let buffer = arena.buffer
        let inner = model.decoderLayers.first?.feedForwardIn.outputs ?? 4 * w
        selfKeys = (0..<d.decoderLayers).map { _ in buffer(d.textContext * w) }
        selfValues = (0..<d.decoderLayers).map { _ in buffer(d.textContext * w) }
        crossKeyValues = (0..<d.decoderLayers).map { _ in buffer(d.audioContext * 2 * w) }
        crossValuesTransposed = (0..<d.decoderLayers).map { _ in buffer(d.audioContext * w) }
        x = buffer(w)
        normed = buffer(w)
        qkv = buffer(3 * w)
        attended = buffer(w)
        wide = buffer(inner)
        scratch = buffer(max(inner, 3 * w))
        scores = buffer(max(d.audioContext, d.textContext))
        inverseSum = buffer(1)
        logitsBuffer = buffer(d.vocabulary)
    }

    /// The next token's logits after a `step(_:wantLogits: true)`.
    var logits: [Float] { Array(UnsafeBufferPointer(start: logitsBuffer, count: model.dimensions.vocabulary)) }

    /// Takes a window's encoder output and starts a new token sequence.
    func begin(audio: [Float]) {
        let d = model.dimensions, w = d.width, t = audioPositions
        audio.withUnsafeBufferPointer { a in
            for (l, layer) in model.decoderLayers.enumerated() {
                context.product(a.baseAddress!, rows: t, layer.crossKeyValue, into: crossKeyValues[l])
                let kv = crossKeyValues[l], vt = crossValuesTransposed[l]
                for p in 0..<t {
                    for c in 0..<w { vt[c * t + p] = kv[p * 2 * w + w + c] }
                }
            }
        }
        position = 0
    }

    /// Forgets the tokens after `count` (a shorter prefix is decoded again from there).
    func rewind(to count: Int) { position = min(position, count) }

    /// Feeds `token` at the next position; when `wantLogits`, `logits` holds the next token's.
    func step(_ token: Int, wantLogits: Bool) {
        let d = model.dimensions, w = d.width, hw = d.headWidth, p = position, path = model.path
        precondition(p < d.textContext, "the decoder holds \(d.textContext) positions")
        model.tokenEmbedding.row(token, path: path, into: x)
        model.decoderPosition.withUnsafeBufferPointer { pos in
            for i in 0..<w { x[i] += pos[p * w + i] }
        }
        for (l, layer) in model.decoderLayers.enumerated() {
            normed.update(from: x, count: w)
            layer.selfNorm.apply(normed, rows: 1, path: path)
            layer.selfQKV.apply(path: path, normed, into: qkv, scratch: scratch)
            (selfKeys[l] + p * w).update(from: qkv + w, count: w)
            (selfValues[l] + p * w).update(from: qkv + 2 * w, count: w)
            for h in 0..<d.heads {
                pbk_dot_rows(path, selfKeys[l] + h * hw, Int32(p + 1), Int32(hw), w, qkv + h * hw, scores)
                pbk_softmax_rows(path, scores, 1, Int32(p + 1), p + 1, inverseSum)
                let out = attended + h * hw
                out.update(repeating: 0, count: hw)
                for j in 0...p {
                    let weight = scores[j] * inverseSum[0], v = selfValues[l] + j * w + h * hw
                    for i in 0..<hw { out[i] += weight * v[i] }
                }
            }
            layer.selfOutput.apply(path: path, attended, into: x, scratch: scratch, accumulate: true)

            normed.update(from: x, count: w)
            layer.crossNorm.apply(normed, rows: 1, path: path)
            layer.crossQuery.apply(path: path, normed, into: qkv, scratch: scratch)
            for h in 0..<d.heads {
                pbk_dot_rows(path, crossKeyValues[l] + h * hw, Int32(audioPositions), Int32(hw), 2 * w, qkv + h * hw, scores)
                pbk_softmax_rows(path, scores, 1, Int32(audioPositions), audioPositions, inverseSum)
                let out = attended + h * hw
                pbk_dot_rows(path, crossValuesTransposed[l] + h * hw * audioPositions, Int32(hw), Int32(audioPositions), audioPositions,
                             scores, out)
                for i in 0..<hw { out[i] *= inverseSum[0] }
            }
            layer.crossOutput.apply(path: path, attended, into: x, scratch: scratch, accumulate: true)

            normed.update(from: x, count: w)
            layer.feedForwardNorm.apply(normed, rows: 1, path: path)
            layer.feedForwardIn.apply(path: path, normed, into: wide, scratch: scratch, gelu: true)
            layer.feedForwardOut.apply(path: path, wide, into: x, scratch: scratch, accumulate: true)
        }
        position = p + 1
        guard wantLogits else { return }
        normed.update(from: x, count: w)
        model.decoderNorm.apply(normed, rows: 1, path: path)
        let vocabulary = d.vocabulary, share = (vocabulary + threads - 1) / threads
        nonisolated(unsafe) let state = UnsafePointer(normed), out = logitsBuffer
        let embedding = model.tokenEmbedding
        let part: @Sendable (Int) -> Void = { i in
            let first = i * share, count = min(share, vocabulary - first)
            guard count > 0 else { return }
            embedding.scores(state, rows: first, count: count, path: path, into: out + first)
        }
        if threads == 1 { part(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: part) }
    }
}
