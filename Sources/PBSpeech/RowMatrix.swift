import CKernels

/// A weight matrix W[out, in] kept row-major, for products with one vector at a time: the
/// decoder's, where a packed product would compute a whole tile of rows to keep one. It is kept
/// packed as well, for the products over many rows at once (a prompt's tokens).
final class RowMatrix: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards.
    let outputs: Int
    let inputs: Int
    let weights: UnsafeMutablePointer<Float>
    let bias: [Float]
    let packed: PackedMatrix

    init(path: Int32, weights: [Float], outputs: Int, inputs: Int, bias: [Float]?) {
        precondition(weights.count == outputs * inputs, "\(weights.count) weights for \(outputs) x \(inputs)")
        self.outputs = outputs
        self.inputs = inputs
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(weights.count, 1) * 4, alignment: 64)
        self.weights = raw.bindMemory(to: Float.self, capacity: max(weights.count, 1))
        self.weights.initialize(from: weights, count: weights.count)
        self.bias = bias ?? [Float](repeating: 0, count: outputs)
        packed = PackedMatrix(path: path, weights: UnsafePointer(self.weights), outputs: outputs, inputs: inputs, bias: self.bias)
    }

    deinit { UnsafeMutableRawPointer(weights).deallocate() }

    /// out_b = W x_b + b for `count` vectors (x_b at b times `inputs`, out_b at b times
    /// `outputs`); with `accumulate`, out_b += W x_b + b; with `gelu`, out_b = gelu(W x_b + b).
    /// `scratch` holds `count` times `outputs` floats. With several vectors W is read a block
    /// of rows at a time for all of them, so it comes from memory once; every output is the
    /// same dot product it is for one vector.
    @inline(__always)
    func apply(path: Int32, _ x: UnsafePointer<Float>, count: Int = 1, into out: UnsafeMutablePointer<Float>,
               scratch: UnsafeMutablePointer<Float>, accumulate: Bool = false, gelu: Bool = false) {
        let target = accumulate ? scratch : out
        let block = count == 1 ? outputs : max(1, Self.blockFloats / inputs)
        var row = 0
        while row < outputs {
            let rows = min(block, outputs - row)
            for b in 0..<count {
                pbk_dot_rows(path, weights + row * inputs, Int32(rows), Int32(inputs), inputs, x + b * inputs, target + b * outputs + row)
            }
            row += rows
        }
        bias.withUnsafeBufferPointer { bias in
            for b in 0..<count {
                let t = target + b * outputs
                for i in 0..<outputs { t[i] += bias[i] }
                if gelu { pbk_gelu(path, t, Int32(outputs)) }
                if accumulate {
                    let o = out + b * outputs
                    for i in 0..<outputs { o[i] += t[i] }
                }
            }
        }
    }

    /// Floats of a block of rows read for several vectors: 128 KB, which stays in a core's L2.
    static let blockFloats = 32 * 1024
}
