import CKernels
import Dispatch

/// Whisper's audio encoder over one 30-second window: two convolutions (GELU after each), the
/// sinusoidal positions, pre-norm transformer layers, a final LayerNorm.
///
/// Work is split over `threads` by rows of each product and by attention heads; every row is
/// computed by the same kernel instructions however the rows are split, so the output does not
/// depend on the thread count.
final class WhisperEncoder: @unchecked Sendable {
    // @unchecked: each worker writes only its own buffers and its own rows of the shared ones.
    let model: WhisperModel
    let threads: Int
    /// Frames in (3,000) and positions out (1,500).
    let frames: Int
    let positions: Int
    private let contexts: [KernelContext]
    private let melPadded, convolved, hidden, normed, qkv, attended, wide: UnsafeMutablePointer<Float>
    /// Per thread: scores of one head, its packed keys and values, and the softmax sums.
    private let scores, packedKeys, packedValues, rowSums: [UnsafeMutablePointer<Float>]
    private let arena = FloatArena()

    init(model: WhisperModel, threads: Int) {
        self.model = model
        self.threads = max(1, threads)
        let d = model.dimensions
        positions = d.audioContext
        frames = 2 * positions
        contexts = (0..<self.threads).map { _ in KernelContext(path: model.path) }
        let buffer = arena.buffer
        let w = d.width, t = positions
        melPadded = buffer((frames + 2) * d.mels)
        convolved = buffer((frames + 2) * w)
        hidden = buffer(t * w)
        normed = buffer(t * w)
        qkv = buffer(t * 3 * w)
        attended = buffer(t * w)
        wide = buffer(t * (model.encoderLayers.first?.feedForwardIn.outputs ?? 4 * w))
        let keyFloats = pbk_packed_size(model.path, Int32(t), Int32(d.headWidth))
        let valueFloats = pbk_packed_size(model.path, Int32(d.headWidth), Int32(t))
        scores = (0..<self.threads).map { _ in buffer(t * t) }
        packedKeys = (0..<self.threads).map { _ in buffer(keyFloats) }
        packedValues = (0..<self.threads).map { _ in buffer(valueFloats) }
        rowSums = (0..<self.threads).map { _ in buffer(t) }
    }

    /// Runs `body(part, worker)` for each of `count` parts over the threads; `worker` picks the
    /// thread's own context and buffers.
    private func parallel(_ count: Int, _ body: @Sendable (Int, Int) -> Void) {
        if threads == 1 || count == 1 {
            for i in 0..<count { body(i, 0) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var i = worker
            while i < count { body(i, worker); i += threads }
        }
    }

    /// rows of `x W^T` split evenly over the threads.
    private func product(_ x: UnsafePointer<Float>, rows: Int, lda: Int, _ w: PackedMatrix, into out: UnsafeMutablePointer<Float>,
                         ldc: Int, accumulate: Bool = false, gelu: Bool = false) {
        let share = (rows + threads - 1) / threads
        // Each part reads and writes its own rows of x and out.
        nonisolated(unsafe) let x = x, out = out
        parallel(threads) { part, worker in
            let context = contexts[worker]
            let first = part * share, count = min(share, rows - first)
            guard count > 0 else { return }
            context.product(x + first * lda, rows: count, lda: lda, w, into: out + first * ldc, ldc: ldc, accumulate: accumulate, gelu: gelu)
        }
    }

    /// The encoder's output for `mel`: `frames` time-major frames of the model's bands (shorter
    /// input is zero-padded, as the reference pads a window). Returns positions x width values.
    func encode(_ mel: UnsafeBufferPointer<Float>) -> [Float] {
        let d = model.dimensions, w = d.width, t = positions
        let usable = min(mel.count, frames * d.mels)
        (melPadded + d.mels).update(from: mel.baseAddress!, count: usable)
        (melPadded + d.mels + usable).update(repeating: 0, count: frames * d.mels - usable)
        // conv1 (stride 1, padding 1): row f reads frames f-1, f, f+1, contiguous in melPadded.
        product(melPadded, rows: frames, lda: d.mels, model.conv1, into: convolved + w, ldc: w, gelu: true)
        // conv2 (stride 2, padding 1): position p reads conv1 rows 2p-1, 2p, 2p+1.
        product(convolved, rows: t, lda: 2 * w, model.conv2, into: hidden, ldc: w, gelu: true)
        model.encoderPosition.withUnsafeBufferPointer { p in
            for i in 0..<(t * w) { hidden[i] += p[i] }
        }
        for layer in model.encoderLayers { run(layer) }
        model.encoderNorm.apply(hidden, rows: t, path: model.path)
        return Array(UnsafeBufferPointer(start: hidden, count: t * w))
    }

    private func run(_ layer: WhisperModel.EncoderLayer) {
        let d = model.dimensions, w = d.width, t = positions, hw = d.headWidth
        normed.update(from: hidden, count: t * w)
        layer.attentionNorm.apply(normed, rows: t, path: model.path)
        product(normed, rows: t, lda: w, layer.qkv, into: qkv, ldc: 3 * w)
        let path = model.path
        parallel(d.heads) { head, worker in
            let context = contexts[worker]
            let q = qkv + head * hw, k = q + w, v = q + 2 * w
            pbk_pack(path, k, 1, 3 * w, Int32(t), Int32(hw), packedKeys[worker])
            context.product(q, m: t, n: t, k: hw, lda: 3 * w, packed: packedKeys[worker], into: scores[worker], ldc: t)
            pbk_softmax_rows(path, scores[worker], Int32(t), Int32(t), t, rowSums[worker])
            pbk_pack(path, v, 3 * w, 1, Int32(hw), Int32(t), packedValues[worker])
            context.product(scores[worker], m: t, n: hw, k: t, lda: t, packed: packedValues[worker],
                            into: attended + head * hw, ldc: w, rowScale: rowSums[worker])
        }
        product(attended, rows: t, lda: w, layer.attentionOutput, into: hidden, ldc: w, accumulate: true)
        normed.update(from: hidden, count: t * w)
        layer.feedForwardNorm.apply(normed, rows: t, path: model.path)
        let inner = layer.feedForwardIn.outputs
        product(normed, rows: t, lda: w, layer.feedForwardIn, into: wide, ldc: inner, gelu: true)
        product(wide, rows: t, lda: inner, layer.feedForwardOut, into: hidden, ldc: w, accumulate: true)
    }
}
