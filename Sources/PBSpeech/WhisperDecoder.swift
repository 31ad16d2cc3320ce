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
///
/// A beam search decodes several sequences of one length at once: each has a slot of its own
/// (its self-attention keys and values and its logits); the audio's keys and values are shared.
final class WhisperDecoder: @unchecked Sendable {
    // @unchecked: the logits' threads each write their own rows of `logits`.
    let model: WhisperModel
    let threads: Int
    /// Sequences decoded side by side (1 for greedy decoding).
    let slots: Int
    private let context: KernelContext
    /// Positions decoded so far in this window (the next token's position): every slot a step
    /// moved holds that many; the others are behind and are only read again after a `reorder`
    /// or `replicateFirstSlot` fills them.
    private(set) var position = 0
    private let audioPositions: Int
    /// Per slot, per layer ([slot * layers + layer]): [textContext][width].
    private var selfKeys, selfValues: [UnsafeMutablePointer<Float>]
    /// One layer's keys or values of every slot, while `reorder` moves them.
    private let moving: UnsafeMutablePointer<Float>
    /// Per layer: the audio's keys and values ([positions][2 width]), and the values transposed
    /// ([width][positions]) so each head's context is rows of dot products too.
    private var crossKeyValues, crossValuesTransposed: [UnsafeMutablePointer<Float>]
    /// Per slot (slot b's at b times the row's width): the state, its norm, queries (and keys
    /// and values), attention's output, the feed-forward's inner row, and a product's scratch.
    private let x, normed, qkv, attended, wide, scratch: UnsafeMutablePointer<Float>
    private let scores, inverseSum, logitsBuffer: UnsafeMutablePointer<Float>
    /// A prefill's states, one row per token: [textContext][width], its queries, keys and values
    /// ([textContext][3 width]), and the feed-forward's inner rows.
    private let rows, rowsNormed, rowsQKV, rowsAttended, rowsWide: UnsafeMutablePointer<Float>
    private let arena = FloatArena()

    init(model: WhisperModel, threads: Int = 1, slots: Int = 1) {
        self.model = model
        self.threads = max(1, threads)
        self.slots = max(1, slots)
        let d = model.dimensions, w = d.width
        audioPositions = d.audioContext
        context = KernelContext(path: model.path)
        let buffer = arena.buffer
        let inner = model.decoderLayers.first?.feedForwardIn.outputs ?? 4 * w
        let perSlot = self.slots * d.decoderLayers
        selfKeys = (0..<perSlot).map { _ in buffer(d.textContext * w) }
        selfValues = (0..<perSlot).map { _ in buffer(d.textContext * w) }
        moving = buffer(self.slots * d.textContext * w)
        crossKeyValues = (0..<d.decoderLayers).map { _ in buffer(d.audioContext * 2 * w) }
        crossValuesTransposed = (0..<d.decoderLayers).map { _ in buffer(d.audioContext * w) }
        let n = self.slots
        x = buffer(n * w)
        normed = buffer(n * w)
        qkv = buffer(n * 3 * w)
        attended = buffer(n * w)
        wide = buffer(n * inner)
        scratch = buffer(n * max(inner, 3 * w))
        scores = buffer(max(d.audioContext, d.textContext))
        inverseSum = buffer(1)
        logitsBuffer = buffer(self.slots * d.vocabulary)
        rows = buffer(d.textContext * w)
        rowsNormed = buffer(d.textContext * w)
        rowsQKV = buffer(d.textContext * 3 * w)
        rowsAttended = buffer(d.textContext * w)
        rowsWide = buffer(d.textContext * inner)
    }

    /// The next token's logits in `slot` after a step with `wantLogits`.
    func logits(slot: Int = 0) -> [Float] {
        Array(UnsafeBufferPointer(start: logitsBuffer + slot * model.dimensions.vocabulary, count: model.dimensions.vocabulary))
    }

    /// Every slot continues the sequence slot 0 holds (a beam search's start after the prompt).
    func replicateFirstSlot() {
        let layers = model.dimensions.decoderLayers, floats = position * model.dimensions.width
        for slot in 1..<slots {
            for l in 0..<layers {
                (selfKeys[slot * layers + l]).update(from: selfKeys[l], count: floats)
                (selfValues[slot * layers + l]).update(from: selfValues[l], count: floats)
            }
        }
    }

    /// Slot i takes the sequence slot `sources[i]` held, for the positions from `first` on
    /// (the earlier ones, the prompt, being the same in every slot).
    func reorder(_ sources: [Int], from first: Int) {
        precondition(sources.count <= slots && sources.allSatisfy { $0 >= 0 && $0 < slots })
        guard sources.enumerated().contains(where: { $0.offset != $0.element }) else { return }
        let layers = model.dimensions.decoderLayers, w = model.dimensions.width
        let count = max(position - first, 0) * w, start = first * w
        guard count > 0 else { return }
        for l in 0..<layers {
            for caches in [selfKeys, selfValues] {
                // Every moved slot's source is read before any is written (slot 1 may take slot 2's
                // history while slot 2 takes slot 1's); a slot that keeps its own is not copied.
                for (i, source) in sources.enumerated() where source != i {
                    (moving + i * count).update(from: caches[source * layers + l] + start, count: count)
                }
                for (i, source) in sources.enumerated() where source != i {
                    (caches[i * layers + l] + start).update(from: moving + i * count, count: count)
                }
            }
        }
    }

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

    /// Feeds `token` at the next position; when `wantLogits`, `logits()` holds the next token's.
    func step(_ token: Int, wantLogits: Bool) { step([token], wantLogits: wantLogits) }

    /// Feeds `tokens[i]` to slot i at the next position (the first `tokens.count` slots move on).
    /// The slots go through each layer together, so a block of a weight matrix is read from
    /// memory once for all of them (`RowMatrix.apply(count:)`); each slot's values are the ones
    /// it would have alone.
    func step(_ tokens: [Int], wantLogits: Bool) {
        let d = model.dimensions, w = d.width, p = position, path = model.path, n = tokens.count
        precondition(n > 0 && n <= slots, "\(n) tokens for \(slots) slots")
        precondition(p < d.textContext, "the decoder holds \(d.textContext) positions")
        model.decoderPosition.withUnsafeBufferPointer { pos in
            for (b, token) in tokens.enumerated() {
                let row = x + b * w
                model.tokenEmbedding.row(token, path: path, into: row)
                for i in 0..<w { row[i] += pos[p * w + i] }
            }
        }
        for (l, layer) in model.decoderLayers.enumerated() {
            normed.update(from: x, count: n * w)
            layer.selfNorm.apply(normed, rows: n, path: path)
            layer.selfQKV.apply(path: path, normed, count: n, into: qkv, scratch: scratch)
            for b in 0..<n {
                let q = qkv + b * 3 * w
                let keys = selfKeys[b * d.decoderLayers + l], values = selfValues[b * d.decoderLayers + l]
                (keys + p * w).update(from: q + w, count: w)
                (values + p * w).update(from: q + 2 * w, count: w)
                for h in 0..<d.heads { attendToText(keys, values, through: p, head: h, query: q, into: attended + b * w) }
            }
            layer.selfOutput.apply(path: path, attended, count: n, into: x, scratch: scratch, accumulate: true)

            normed.update(from: x, count: n * w)
            layer.crossNorm.apply(normed, rows: n, path: path)
            layer.crossQuery.apply(path: path, normed, count: n, into: qkv, scratch: scratch)
            // Head by head, so one head's audio keys and values stay in cache for every slot.
            for h in 0..<d.heads {
                for b in 0..<n { attendToAudio(layer: l, head: h, query: qkv + b * w, into: attended + b * w) }
            }
            layer.crossOutput.apply(path: path, attended, count: n, into: x, scratch: scratch, accumulate: true)

            normed.update(from: x, count: n * w)
            layer.feedForwardNorm.apply(normed, rows: n, path: path)
            layer.feedForwardIn.apply(path: path, normed, count: n, into: wide, scratch: scratch, gelu: true)
            layer.feedForwardOut.apply(path: path, wide, count: n, into: x, scratch: scratch, accumulate: true)
        }
        position = p + 1
        guard wantLogits else { return }
        normed.update(from: x, count: n * w)
        model.decoderNorm.apply(normed, rows: n, path: path)
        computeLogits(slots: n)
    }

    /// Head `h` of causal self-attention for the token at position `p`: its query (in `query`,
    /// a row of queries, keys and values) against the keys of positions 0...p, and their values
    /// weighted into the head's part of `out`.
    private func attendToText(_ keys: UnsafePointer<Float>, _ values: UnsafePointer<Float>, through p: Int, head h: Int,
                              query: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let d = model.dimensions, w = d.width, hw = d.headWidth, path = model.path
        pbk_dot_rows(path, keys + h * hw, Int32(p + 1), Int32(hw), w, query + h * hw, scores)
        pbk_softmax_rows(path, scores, 1, Int32(p + 1), p + 1, inverseSum)
        let head = out + h * hw
        head.update(repeating: 0, count: hw)
        for j in 0...p {
            let weight = scores[j] * inverseSum[0], v = values + j * w + h * hw
            for i in 0..<hw { head[i] += weight * v[i] }
        }
    }

    /// Head `h` of layer `l`'s attention to the audio: the head's part of `query` against the
    /// window's keys, their values weighted into the head's part of `out`.
    private func attendToAudio(layer l: Int, head h: Int, query: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let w = model.dimensions.width, hw = model.dimensions.headWidth, path = model.path
        pbk_dot_rows(path, crossKeyValues[l] + h * hw, Int32(audioPositions), Int32(hw), 2 * w, query + h * hw, scores)
        pbk_softmax_rows(path, scores, 1, Int32(audioPositions), audioPositions, inverseSum)
        let head = out + h * hw
        pbk_dot_rows(path, crossValuesTransposed[l] + h * hw * audioPositions, Int32(hw), Int32(audioPositions), audioPositions,
                     scores, head)
        for i in 0..<hw { head[i] *= inverseSum[0] }
    }

    /// The logits of the first `count` slots from their final states in `normed` (after the
    /// decoder's last norm). The vocabulary is split over the threads, and each thread reads its
    /// rows of the embedding a block at a time for every slot.
    private func computeLogits(slots count: Int) {
        let d = model.dimensions, path = model.path, w = d.width
        let vocabulary = d.vocabulary, share = (vocabulary + threads - 1) / threads
        nonisolated(unsafe) let states = UnsafePointer(normed), out = logitsBuffer
        let embedding = model.tokenEmbedding, block = count == 1 ? share : 512
        let part: @Sendable (Int) -> Void = { i in
            let first = i * share, end = min(first + share, vocabulary)
            var row = first
            while row < end {
                let rows = min(block, end - row)
                for b in 0..<count {
                    embedding.scores(states + b * w, rows: row, count: rows, path: path, into: out + b * vocabulary + row)
                }
                row += rows
            }
        }
        if threads == 1 { part(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: part) }
    }
}

extension WhisperDecoder {
    /// Feeds `tokens` to slot 0 at the next positions all at once: each weight is read once for
    /// all of them, as products over their rows, where stepping reads every weight per token (a
    /// prompt of a hundred tokens took most of a short request's time). `prefillLogits(row:)`
    /// then gives the logits after any of them.
    func prefill(_ tokens: [Int]) {
        let d = model.dimensions, w = d.width, first = position, n = tokens.count, path = model.path
        precondition(first + n <= d.textContext, "the decoder holds \(d.textContext) positions")
        guard n > 0 else { return }
        model.decoderPosition.withUnsafeBufferPointer { pos in
            for (i, token) in tokens.enumerated() {
                let row = rows + i * w
                model.tokenEmbedding.row(token, path: path, into: row)
                for c in 0..<w { row[c] += pos[(first + i) * w + c] }
            }
        }
        for (l, layer) in model.decoderLayers.enumerated() {
            rowsNormed.update(from: rows, count: n * w)
            layer.selfNorm.apply(rowsNormed, rows: n, path: path)
            context.product(rowsNormed, rows: n, layer.selfQKV.packed, into: rowsQKV)
            let keys = selfKeys[l], values = selfValues[l]
            for i in 0..<n {
                (keys + (first + i) * w).update(from: rowsQKV + i * 3 * w + w, count: w)
                (values + (first + i) * w).update(from: rowsQKV + i * 3 * w + 2 * w, count: w)
            }
            // Causal: token i attends to the positions up to its own.
            for h in 0..<d.heads {
                for i in 0..<n { attendToText(keys, values, through: first + i, head: h, query: rowsQKV + i * 3 * w, into: rowsAttended + i * w) }
            }
            context.product(rowsAttended, rows: n, layer.selfOutput.packed, into: rows, accumulate: true)

            rowsNormed.update(from: rows, count: n * w)
            layer.crossNorm.apply(rowsNormed, rows: n, path: path)
            context.product(rowsNormed, rows: n, layer.crossQuery.packed, into: rowsQKV)
            // Head by head, so one head's keys and values stay in cache for every token.
            for h in 0..<d.heads {
                for i in 0..<n { attendToAudio(layer: l, head: h, query: rowsQKV + i * w, into: rowsAttended + i * w) }
            }
            context.product(rowsAttended, rows: n, layer.crossOutput.packed, into: rows, accumulate: true)

            rowsNormed.update(from: rows, count: n * w)
            layer.feedForwardNorm.apply(rowsNormed, rows: n, path: path)
            context.product(rowsNormed, rows: n, layer.feedForwardIn.packed, into: rowsWide, gelu: true)
            context.product(rowsWide, rows: n, layer.feedForwardOut.packed, into: rows, accumulate: true)
        }
        position = first + n
    }

    /// The logits after the last prefill's token `row` (0 is its first), in slot 0.
    func prefillLogits(row: Int) {
        let w = model.dimensions.width
        normed.update(from: rows + row * w, count: w)
        model.decoderNorm.apply(normed, rows: 1, path: model.path)
        computeLogits(slots: 1)
    }
}
