import CKernels

/// A weight matrix W[out, in] kept row-major, for products with one vector at a time: the
/// decoder's, where a packed product would compute a whole tile of rows to keep one.
final class RowMatrix: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards.
    let outputs: Int
    let inputs: Int
    let weights: UnsafeMutablePointer<Float>
    let bias: [Float]

    init(weights: [Float], outputs: Int, inputs: Int, bias: [Float]?) {
        precondition(weights.count == outputs * inputs, "\(weights.count) weights for \(outputs) x \(inputs)")
        self.outputs = outputs
        self.inputs = inputs
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(weights.count, 1) * 4, alignment: 64)
        self.weights = raw.bindMemory(to: Float.self, capacity: max(weights.count, 1))
        self.weights.initialize(from: weights, count: weights.count)
        self.bias = bias ?? [Float](repeating: 0, count: outputs)
    }

    deinit { UnsafeMutableRawPointer(weights).deallocate() }

    /// out = W x + b; with `accumulate`, out += W x + b; with `gelu`, out = gelu(W x + b).
    /// `scratch` holds `outputs` floats.
    @inline(__always)
    func apply(path: Int32, _ x: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
               accumulate: Bool = false, gelu: Bool = false) {
        let target = accumulate ? scratch : out
        pbk_dot_rows(path, weights, Int32(outputs), Int32(inputs), inputs, x, target)
        bias.withUnsafeBufferPointer { b in
            for i in 0..<outputs { target[i] += b[i] }
        }
        if gelu { pbk_gelu(path, target, Int32(outputs)) }
        if accumulate { for i in 0..<outputs { out[i] += scratch[i] } }
    }
}
