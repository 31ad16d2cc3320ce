import CKernels

/// The encoder's matrices packed once, at model load, into the panels of one CKernels path.
///
/// Per layer: Q, K and V as one product of 3 x hidden columns (the Q part pre-scaled by
/// log2(e)/sqrt(head dimension), so attention scores come out ready for a base-2 softmax, with
/// their biases in one vector), the attention output, and the two feed-forward matrices. About
/// 42 MB for MiniLM; 64-byte aligned, as the microkernels' loads want.
final class PackedBertWeights: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards by every worker.
    struct Layer {
        let qkv, attentionOutput, intermediate, output: UnsafePointer<Float>
        let qkvBias: UnsafePointer<Float>
    }

    let path: Int32
    let layers: [Layer]
    private var allocations: [UnsafeMutableRawPointer] = []

    init(_ w: BertWeights, path: Int32) {
        self.path = path
        let c = w.config
        let h = c.hidden, inner = c.intermediate
        let scale = Float(1.4426950408889634 / Double(c.headDimension).squareRoot())
        var allocations: [UnsafeMutableRawPointer] = []
        func allocate(_ floats: Int) -> UnsafeMutablePointer<Float> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: max(floats, 1) * 4, alignment: 64)
            allocations.append(raw)
            return raw.bindMemory(to: Float.self, capacity: max(floats, 1))
        }
        /// A PyTorch weight [n, k] (out, in) as the right-hand operand B = W^T.
        func pack(_ weight: UnsafePointer<Float>, n: Int, k: Int) -> UnsafePointer<Float> {
            let out = allocate(pbk_packed_size(path, Int32(n), Int32(k)))
            pbk_pack(path, weight, 1, k, Int32(n), Int32(k), out)
            return UnsafePointer(out)
        }

        let staging = UnsafeMutablePointer<Float>.allocate(capacity: 3 * h * h)
        defer { staging.deallocate() }
        layers = w.layers.map { l in
            // [Wq * scale; Wk; Wv] stacked as one [3h, h] weight.
            for i in 0..<(h * h) { staging[i] = l.query[i] * scale }
            (staging + h * h).update(from: l.key, count: h * h)
            (staging + 2 * h * h).update(from: l.value, count: h * h)
            let bias = allocate(3 * h)
            for j in 0..<h { bias[j] = l.queryBias[j] * scale }
            (bias + h).update(from: l.keyBias, count: h)
            (bias + 2 * h).update(from: l.valueBias, count: h)
            return Layer(qkv: pack(staging, n: 3 * h, k: h),
                         attentionOutput: pack(l.attentionOutput, n: h, k: h),
                         intermediate: pack(l.intermediate, n: inner, k: h),
                         output: pack(l.output, n: h, k: inner),
                         qkvBias: UnsafePointer(bias))
        }
        self.allocations = allocations
    }

    deinit {
        for raw in allocations { raw.deallocate() }
    }
}
