/// The small vector loops the encoder runs around its products (summing embeddings, scaling
/// attention's context, pooling), written over `SIMD16<Float>`; softmax, GELU and LayerNorm are
/// the C kernels' own (`pbk_softmax_rows`, `pbk_gelu`, `pbk_layer_norm`) on every path.
///
/// Why only `*` and `+`: the package is compiled for baseline x86-64 (SSE2), where
/// `addingProduct` and conversions on SIMD vectors turn into per-lane library calls; multiply and
/// add stay vector instructions. Each is deterministic for a given row, whatever row of which
/// batch it sits in. `@_optimize(speed)` keeps these loops optimised in debug builds too, so
/// `swift test` runs the model in seconds rather than minutes.
enum VectorKernels {
    typealias V = SIMD16<Float>
    static let width = 16

    @_optimize(speed) @inline(__always) static func load(_ p: UnsafePointer<Float>) -> V {
        UnsafeRawPointer(p).loadUnaligned(as: V.self)
    }

    @_optimize(speed) @inline(__always) static func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }

    /// Debug builds run LLVM at -O0, which compiles SIMD16 arithmetic lane by lane through the
    /// stack; there the loops run on scalars.
    #if DEBUG
    static let scalarOnly = true
    #else
    static let scalarOnly = false
    #endif


    /// y[0..<n] = a[0..<n] + b[0..<n] + c[0..<n]
    @_optimize(speed) @inline(__always)
    static func add3(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ c: UnsafePointer<Float>,
                     into y: UnsafeMutablePointer<Float>, count n: Int) {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        var j = 0
        while j < full { store(load(a + j) + load(b + j) + load(c + j), y + j); j += width }
        while j < n { y[j] = a[j] + b[j] + c[j]; j += 1 }
    }

    /// y = y * s + b over n values.
    @_optimize(speed) @inline(__always)
    static func scaleAdd(_ y: UnsafeMutablePointer<Float>, scale s: Float, add b: UnsafePointer<Float>, count n: Int) {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        let sv = V(repeating: s)
        var j = 0
        while j < full { store(load(y + j) * sv + load(b + j), y + j); j += width }
        while j < n { y[j] = y[j] * s + b[j]; j += 1 }
    }

    /// acc += x over n values.
    @_optimize(speed) @inline(__always)
    static func accumulate(_ x: UnsafePointer<Float>, into acc: UnsafeMutablePointer<Float>, count n: Int) {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        var j = 0
        while j < full { store(load(acc + j) + load(x + j), acc + j); j += width }
        while j < n { acc[j] += x[j]; j += 1 }
    }
}
