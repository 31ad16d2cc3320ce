import CKernels
import Dispatch

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
        // Allocate everything first, then pack the layers on all cores (a start-up cost of every
        // program that loads the encoder: about 40 MB written).
        struct Job: @unchecked Sendable {
            let layer: BertLayerWeights
            let qkv, attentionOutput, intermediate, output, bias, staging: UnsafeMutablePointer<Float>
        }
        let jobs = w.layers.map { l in
            Job(layer: l, qkv: allocate(pbk_packed_size(path, Int32(3 * h), Int32(h))),
                attentionOutput: allocate(pbk_packed_size(path, Int32(h), Int32(h))),
                intermediate: allocate(pbk_packed_size(path, Int32(inner), Int32(h))),
                output: allocate(pbk_packed_size(path, Int32(h), Int32(inner))),
                bias: allocate(3 * h), staging: .allocate(capacity: 3 * h * h))
        }
        defer { for job in jobs { job.staging.deallocate() } }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index], l = job.layer
            // [Wq * scale; Wk; Wv] stacked as one [3h, h] weight, its biases likewise.
            for i in 0..<(h * h) { job.staging[i] = l.query[i] * scale }
            (job.staging + h * h).update(from: l.key, count: h * h)
            (job.staging + 2 * h * h).update(from: l.value, count: h * h)
            for j in 0..<h { job.bias[j] = l.queryBias[j] * scale }
            (job.bias + h).update(from: l.keyBias, count: h)
            (job.bias + 2 * h).update(from: l.valueBias, count: h)
            /// A PyTorch weight [n, k] (out, in) as the right-hand operand B = W^T.
            func pack(_ weight: UnsafePointer<Float>, n: Int, k: Int, into out: UnsafeMutablePointer<Float>) {
                pbk_pack(path, weight, 1, k, Int32(n), Int32(k), out)
            }
            pack(job.staging, n: 3 * h, k: h, into: job.qkv)
            pack(l.attentionOutput, n: h, k: h, into: job.attentionOutput)
            pack(l.intermediate, n: inner, k: h, into: job.intermediate)
            pack(l.output, n: h, k: inner, into: job.output)
        }
        layers = jobs.map {
            Layer(qkv: UnsafePointer($0.qkv), attentionOutput: UnsafePointer($0.attentionOutput),
                  intermediate: UnsafePointer($0.intermediate), output: UnsafePointer($0.output),
                  qkvBias: UnsafePointer($0.bias))
        }
        self.allocations = allocations
    }

    deinit {
        for raw in allocations { raw.deallocate() }
    }
}
