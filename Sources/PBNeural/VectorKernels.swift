/// The element-wise parts of the encoder (softmax, GELU, LayerNorm, pooling), written over
/// `SIMD16<Float>` so that they stay small next to the matrix products.
///
/// Why hand-written polynomials: Foundation's scalar `exp`/`erf` cost several nanoseconds each and
/// the encoder needs about 28,000 of them per token. Why only `*` and `+`: the package is compiled
/// for baseline x86-64 (SSE2), where `addingProduct`, `rounded()` and float-to-int conversions on
/// SIMD vectors turn into per-lane library calls; multiply, add, divide, compare and bit casts stay
/// vector instructions. Every function is deterministic for a given input row, whatever row of
/// which batch it sits in, which is what makes embeddings independent of batching.
/// `@_optimize(speed)` keeps these loops optimised in debug builds too, so `swift test` runs the
/// model in seconds rather than minutes.
enum VectorKernels {
    typealias V = SIMD16<Float>
    static let width = 16

    @_optimize(speed) @inline(__always) static func load(_ p: UnsafePointer<Float>) -> V {
        UnsafeRawPointer(p).loadUnaligned(as: V.self)
    }

    @_optimize(speed) @inline(__always) static func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }

    // MARK: exp2

    /// 2^x for x <= 0 (inputs below -126 give 2^-126): Cephes exp2f, relative error < 1e-7.
    @_optimize(speed) @inline(__always) static func exp2(_ x: V) -> V {
        let clamped = x.replacing(with: -126, where: x .< -126)
        // Round to nearest by the 1.5 * 2^23 trick; the rounded value's low mantissa bits are n.
        let magic: Float = 12_582_912
        let t = clamped + magic
        let n = t - magic
        let f = clamped - n
        var p = V(repeating: 1.535336188319500e-4)
        p = p * f + 1.339887440266574e-3
        p = p * f + 9.618437357674640e-3
        p = p * f + 5.550332471162809e-2
        p = p * f + 2.402264791363012e-1
        p = p * f + 6.931472028550421e-1
        p = p * f + 1
        let bits = unsafeBitCast(t, to: SIMD16<Int32>.self) &- 0x4B40_0000
        let scale = unsafeBitCast((bits &+ 127) &<< 23, to: V.self)
        return p * scale
    }

    /// The same polynomial on one value: for row tails, and for debug builds (see `scalarOnly`).
    @_optimize(speed) @inline(__always) static func exp2(_ x: Float) -> Float {
        let clamped = x < -126 ? -126 : x
        let magic: Float = 12_582_912
        let t = clamped + magic
        let n = t - magic
        let f = clamped - n
        var p: Float = 1.535336188319500e-4
        p = p * f + 1.339887440266574e-3
        p = p * f + 9.618437357674640e-3
        p = p * f + 5.550332471162809e-2
        p = p * f + 2.402264791363012e-1
        p = p * f + 6.931472028550421e-1
        p = p * f + 1
        let bits = Int32(bitPattern: t.bitPattern) &- 0x4B40_0000
        return p * Float(bitPattern: UInt32(bitPattern: (bits &+ 127) &<< 23))
    }

    /// Debug builds run LLVM at -O0, which compiles SIMD16 arithmetic lane by lane through the
    /// stack: the model would take minutes per test. There the same polynomials run on scalars.
    #if DEBUG
    static let scalarOnly = true
    #else
    static let scalarOnly = false
    #endif

    /// In place: row[j] = 2^(row[j] - max(row)); returns the sum of the new values.
    /// The caller folds log2(e) into the scores, so this is the softmax numerator.
    @_optimize(speed)
    static func softmaxNumerator(_ row: UnsafeMutablePointer<Float>, count n: Int) -> Float {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        var mv = V(repeating: -.infinity)
        var j = 0
        while j < full {
            let x = load(row + j)
            mv = mv.replacing(with: x, where: x .> mv)
            j += width
        }
        var m = mv.max()
        while j < n { m = Swift.max(m, row[j]); j += 1 }

        var sv = V()
        j = 0
        while j < full {
            let e = exp2(load(row + j) - m)
            store(e, row + j)
            sv += e
            j += width
        }
        var s = sv.sum()
        while j < n {
            let e = exp2(row[j] - m)
            row[j] = e
            s += e
            j += 1
        }
        return s
    }

    // MARK: GELU

    /// erf via the rational approximation used by Eigen and XLA for float (|error| < 1e-7).
    @_optimize(speed) @inline(__always) static func erf(_ a: V) -> V {
        var x = a.replacing(with: 4, where: a .> 4)
        x = x.replacing(with: -4, where: x .< -4)
        let x2 = x * x
        var p = V(repeating: -2.72614225801306e-10)
        p = p * x2 + 2.77068142495902e-08
        p = p * x2 + -2.10102402082508e-06
        p = p * x2 + -5.69250639462346e-05
        p = p * x2 + -7.34990630326855e-04
        p = p * x2 + -2.95459980854025e-03
        p = p * x2 + -1.60960333262415e-02
        p = p * x
        var q = V(repeating: -1.45660718464996e-05)
        q = q * x2 + -2.13374055278905e-04
        q = q * x2 + -1.68282697438203e-03
        q = q * x2 + -7.37332916720468e-03
        q = q * x2 + -1.42647390514189e-02
        return p / q
    }

    @_optimize(speed) @inline(__always) static func erf(_ a: Float) -> Float {
        let x = a > 4 ? 4 : (a < -4 ? -4 : a)
        let x2 = x * x
        var p: Float = -2.72614225801306e-10
        p = p * x2 + 2.77068142495902e-08
        p = p * x2 + -2.10102402082508e-06
        p = p * x2 + -5.69250639462346e-05
        p = p * x2 + -7.34990630326855e-04
        p = p * x2 + -2.95459980854025e-03
        p = p * x2 + -1.60960333262415e-02
        p = p * x
        var q: Float = -1.45660718464996e-05
        q = q * x2 + -2.13374055278905e-04
        q = q * x2 + -1.68282697438203e-03
        q = q * x2 + -7.37332916720468e-03
        q = q * x2 + -1.42647390514189e-02
        return p / q
    }

    /// In place over `rows` rows of `width` values: x = gelu(x + bias), erf form.
    @_optimize(speed)
    static func biasGELU(_ x: UnsafeMutablePointer<Float>, rows: Int, width n: Int, bias: UnsafePointer<Float>) {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        let half = V(repeating: 0.5), invSqrt2 = V(repeating: 0.70710678118654752)
        for r in 0..<rows {
            let row = x + r * n
            var j = 0
            while j < full {
                let v = load(row + j) + load(bias + j)
                store(half * v * (1 + erf(v * invSqrt2)), row + j)
                j += width
            }
            while j < n {
                let v = row[j] + bias[j]
                row[j] = 0.5 * v * (1 + erf(v * 0.70710678118654752))
                j += 1
            }
        }
    }

    // MARK: LayerNorm

    /// In place over `rows` rows: x = LayerNorm(x + bias) * gamma + beta (bias optional).
    @_optimize(speed)
    static func layerNorm(_ x: UnsafeMutablePointer<Float>, rows: Int, width n: Int, bias: UnsafePointer<Float>?,
                          gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>, epsilon: Float) {
        let full = scalarOnly ? 0 : n & ~(width - 1)
        let inverseN = 1 / Float(n)
        for r in 0..<rows {
            let row = x + r * n
            if let bias {
                var j = 0
                while j < full { store(load(row + j) + load(bias + j), row + j); j += width }
                while j < n { row[j] += bias[j]; j += 1 }
            }
            var sv = V()
            var j = 0
            while j < full { sv += load(row + j); j += width }
            var s = sv.sum()
            while j < n { s += row[j]; j += 1 }
            let mean = s * inverseN

            // Two passes: the variance of values near a large mean loses nothing this way.
            let mv = V(repeating: mean)
            var qv = V()
            j = 0
            while j < full { let d = load(row + j) - mv; qv += d * d; j += width }
            var q = qv.sum()
            while j < n { let d = row[j] - mean; q += d * d; j += 1 }
            let scale = 1 / (q * inverseN + epsilon).squareRoot()

            let sv2 = V(repeating: scale)
            j = 0
            while j < full {
                store((load(row + j) - mv) * sv2 * load(gamma + j) + load(beta + j), row + j)
                j += width
            }
            while j < n { row[j] = (row[j] - mean) * scale * gamma[j] + beta[j]; j += 1 }
        }
    }

    // MARK: Small helpers

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
