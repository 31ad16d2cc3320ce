import CKernels

/// A weight matrix W[out, in] in the panels of one CKernels path, as the right-hand operand of
/// X W^T, with its bias: the unit every Whisper product is made of.
final class PackedMatrix: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards.
    let outputs: Int
    let inputs: Int
    let panels: UnsafeMutablePointer<Float>
    let bias: UnsafeMutablePointer<Float>?

    /// `weights` holds W row-major (`outputs` rows of `inputs`); `bias` has `outputs` values.
    init(path: Int32, weights: UnsafePointer<Float>, outputs: Int, inputs: Int, bias: [Float]? = nil) {
        self.outputs = outputs
        self.inputs = inputs
        let floats = pbk_packed_size(path, Int32(outputs), Int32(inputs))
        panels = UnsafeMutableRawPointer.allocate(byteCount: max(floats, 1) * 4, alignment: 64).bindMemory(to: Float.self, capacity: max(floats, 1))
        pbk_pack(path, weights, 1, inputs, Int32(outputs), Int32(inputs), panels)
        if let bias {
            precondition(bias.count == outputs, "a bias of \(bias.count) values for \(outputs) outputs")
            let b = UnsafeMutablePointer<Float>.allocate(capacity: outputs)
            b.initialize(from: bias, count: outputs)
            self.bias = b
        } else {
            self.bias = nil
        }
    }

    convenience init(path: Int32, weights: [Float], outputs: Int, inputs: Int, bias: [Float]? = nil) {
        precondition(weights.count == outputs * inputs, "\(weights.count) weights for \(outputs) x \(inputs)")
        let copy = UnsafeMutablePointer<Float>.allocate(capacity: max(weights.count, 1))
        defer { copy.deallocate() }
        copy.initialize(from: weights, count: weights.count)
        self.init(path: path, weights: UnsafePointer(copy), outputs: outputs, inputs: inputs, bias: bias)
    }

    deinit {
        UnsafeMutableRawPointer(panels).deallocate()
        bias?.deallocate()
    }
}

/// One thread's view of a kernel path: its scratch, and products written as the model reads them.
final class KernelContext {
    let path: Int32
    private let work: UnsafeMutablePointer<Float>

    init(path: Int32) {
        self.path = path
        let floats = max(pbk_work_size(path), 1)
        work = UnsafeMutableRawPointer.allocate(byteCount: floats * 4, alignment: 64).bindMemory(to: Float.self, capacity: floats)
    }

    deinit { UnsafeMutableRawPointer(work).deallocate() }

    /// out[rows, W.outputs] = epilogue(x[rows, W.inputs] W^T (+ bias)); x has row stride `lda`.
    @inline(__always)
    func product(_ x: UnsafePointer<Float>, rows: Int, lda: Int? = nil, _ w: PackedMatrix, into out: UnsafeMutablePointer<Float>,
                 ldc: Int? = nil, accumulate: Bool = false, gelu: Bool = false, rowScale: UnsafePointer<Float>? = nil) {
        guard rows > 0 else { return }
        let epilogue = pbk_epilogue(bias: w.bias, row_scale: rowScale, accumulate: accumulate ? 1 : 0, gelu: gelu ? 1 : 0)
        pbk_gemm(path, Int32(rows), Int32(w.outputs), Int32(w.inputs), x, lda ?? w.inputs, w.panels, out, ldc ?? w.outputs, epilogue, work)
    }

    /// out[m, n] = a[m, k] b where b was packed by the caller (attention's keys and values).
    @inline(__always)
    func product(_ a: UnsafePointer<Float>, m: Int, n: Int, k: Int, lda: Int, packed b: UnsafePointer<Float>,
                 into out: UnsafeMutablePointer<Float>, ldc: Int, rowScale: UnsafePointer<Float>? = nil) {
        guard m > 0, n > 0 else { return }
        let epilogue = pbk_epilogue(bias: nil, row_scale: rowScale, accumulate: 0, gelu: 0)
        pbk_gemm(path, Int32(m), Int32(n), Int32(k), a, lda, b, out, ldc, epilogue, work)
    }
}
