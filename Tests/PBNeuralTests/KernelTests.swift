import CKernels
import Foundation
import Testing
import PBCore
@testable import PBNeural

/// CKernels on every path this CPU has: products against a double-precision reference, and the
/// promise the encoder's bit-identity rests on: a row's result does not depend on how many rows
/// share the call or where the row sits in it.
@Suite("CKernels")
struct KernelTests {
    static let ownPaths: [KernelPath] = [.avx512, .avx2, .portable]

    /// The path number, or nil (with a printed line) when this CPU lacks the path.
    func path(_ p: KernelPath) -> Int32? {
        guard p.isSupported, let n = p.ownPath else {
            print("CKernels: skipping the \(p) path: this CPU lacks its instructions")
            return nil
        }
        return n
    }

    struct Operands {
        let m, n, k: Int
        let a, w, bias, scale, residual: [Float]

        init(m: Int, n: Int, k: Int, seed: UInt64) {
            var g = SeededGenerator(seed: seed)
            func random(_ count: Int) -> [Float] { (0..<count).map { _ in Float.random(in: -1...1, using: &g) } }
            self.m = m; self.n = n; self.k = k
            a = random(m * k); w = random(n * k); bias = random(n); residual = random(m * n)
            scale = (0..<m).map { _ in Float.random(in: 0.1...2, using: &g) }
        }

        /// C = epilogue(A W^T) in double precision.
        func reference(bias useBias: Bool, scale useScale: Bool, accumulate: Bool, gelu: Bool) -> [Double] {
            var c = [Double](repeating: 0, count: m * n)
            for i in 0..<m {
                for j in 0..<n {
                    var s = 0.0
                    for t in 0..<k { s += Double(a[i * k + t]) * Double(w[j * k + t]) }
                    if accumulate { s += Double(residual[i * n + j]) }
                    if useScale { s *= Double(scale[i]) }
                    if useBias { s += Double(bias[j]) }
                    if gelu { s = 0.5 * s * (1 + Foundation.erf(s / 2.0.squareRoot())) }
                    c[i * n + j] = s
                }
            }
            return c
        }
    }

    /// Runs pbk_gemm on rows [first, first + rows) of the operands.
    func product(_ path: Int32, _ o: Operands, rows: Int, first: Int = 0, bias: Bool = false, scale: Bool = false,
                 accumulate: Bool = false, gelu: Bool = false) -> [Float] {
        var packed = [Float](repeating: .nan, count: pbk_packed_size(path, Int32(o.n), Int32(o.k)))
        pbk_pack(path, o.w, 1, o.k, Int32(o.n), Int32(o.k), &packed)
        var work = [Float](repeating: .nan, count: pbk_work_size(path))
        var c = Array(o.residual[(first * o.n)..<((first + rows) * o.n)])
        let a = Array(o.a[(first * o.k)..<((first + rows) * o.k)])
        let s = Array(o.scale[first..<(first + rows)])
        o.bias.withUnsafeBufferPointer { b in
            s.withUnsafeBufferPointer { sp in
                let epilogue = pbk_epilogue(bias: bias ? b.baseAddress : nil, row_scale: scale ? sp.baseAddress : nil,
                                            accumulate: accumulate ? 1 : 0, gelu: gelu ? 1 : 0)
                pbk_gemm(path, Int32(rows), Int32(o.n), Int32(o.k), a, o.k, packed, &c, o.n, epilogue, &work)
            }
        }
        return c
    }

    @Test("products match a double-precision reference, with every epilogue", arguments: ownPaths)
    func productsMatchReference(kernel: KernelPath) {
        guard let path = path(kernel) else { return }
        // Shapes with edge tiles in both directions, depth past one block (256), rows past one
        // block of A (72 to 144), and the encoder's own shapes.
        let shapes = [(1, 1, 1), (5, 7, 3), (13, 33, 64), (150, 70, 300), (40, 384, 384), (17, 1536, 384), (9, 384, 1536)]
        for (index, (m, n, k)) in shapes.enumerated() {
            let o = Operands(m: m, n: n, k: k, seed: UInt64(index + 1))
            for (bias, scale, accumulate, gelu) in [(false, false, false, false), (true, false, false, true),
                                                    (false, true, false, false), (true, false, true, false)] {
                let got = product(path, o, rows: m, bias: bias, scale: scale, accumulate: accumulate, gelu: gelu)
                let want = o.reference(bias: bias, scale: scale, accumulate: accumulate, gelu: gelu)
                var worst = 0.0
                for (g, w) in zip(got, want) { worst = max(worst, abs(Double(g) - w) / max(1, abs(w))) }
                // fp32 sums of k products of values in [-1, 1]: a few ulps times sqrt(k).
                #expect(worst < 2e-6 * Double(k).squareRoot() + 1e-6,
                        "\(kernel) \(m)x\(n)x\(k) bias \(bias) scale \(scale) residual \(accumulate) gelu \(gelu): \(worst)")
            }
        }
    }

    @Test("a row's result does not depend on the row count or its place", arguments: ownPaths)
    func rowsAreIndependent(kernel: KernelPath) {
        guard let path = path(kernel) else { return }
        let o = Operands(m: 700, n: 1536, k: 384, seed: 7)
        let all = product(path, o, rows: 700, bias: true, gelu: true)
        for (rows, first) in [(1, 0), (2, 5), (7, 100), (33, 1), (64, 17), (65, 3), (145, 200), (300, 399)] {
            let part = product(path, o, rows: rows, first: first, bias: true, gelu: true)
            #expect(part == Array(all[(first * o.n)..<((first + rows) * o.n)]), "\(kernel): rows \(rows) from \(first)")
        }
        // Depth past one block, with the residual read back between blocks.
        let deep = Operands(m: 200, n: 384, k: 1536, seed: 9)
        let whole = product(path, deep, rows: 200, bias: true, accumulate: true)
        for (rows, first) in [(1, 199), (13, 50), (150, 20)] {
            let part = product(path, deep, rows: rows, first: first, bias: true, accumulate: true)
            #expect(part == Array(whole[(first * deep.n)..<((first + rows) * deep.n)]), "\(kernel): deep rows \(rows) from \(first)")
        }
    }

    @Test("packing reads either source layout", arguments: ownPaths)
    func packingLayouts(kernel: KernelPath) {
        guard let path = path(kernel) else { return }
        // B given as W [n, k] (k contiguous) and as its transpose [k, n] (n contiguous) packs alike.
        let n = 37, k = 19
        var g = SeededGenerator(seed: 3)
        let w = (0..<(n * k)).map { _ in Float.random(in: -1...1, using: &g) }
        var t = [Float](repeating: 0, count: n * k)
        for j in 0..<n { for kk in 0..<k { t[kk * n + j] = w[j * k + kk] } }
        let size = pbk_packed_size(path, Int32(n), Int32(k))
        var p1 = [Float](repeating: 1, count: size), p2 = [Float](repeating: 2, count: size)
        pbk_pack(path, w, 1, k, Int32(n), Int32(k), &p1)
        pbk_pack(path, t, n, 1, Int32(n), Int32(k), &p2)
        #expect(p1 == p2)
    }

    @Test("row dot products match a double-precision reference, for every length and row stride", arguments: ownPaths)
    func dotRows(_ p: KernelPath) throws {
        guard let path = path(p) else { return }
        var g = SeededGenerator(seed: 41)
        // Lengths around each path's vector widths (4, 8, 16 lanes and four accumulators of them).
        for k in [1, 3, 4, 7, 8, 15, 16, 17, 31, 63, 64, 65, 100, 384] {
            let rows = 37, lda = k + 5
            let a = (0..<(rows * lda)).map { _ in Float.random(in: -1...1, using: &g) }
            let x = (0..<k).map { _ in Float.random(in: -1...1, using: &g) }
            var out = [Float](repeating: .nan, count: rows)
            pbk_dot_rows(path, a, Int32(rows), Int32(k), lda, x, &out)
            for r in 0..<rows {
                let want = (0..<k).reduce(0.0) { $0 + Double(a[r * lda + $1]) * Double(x[$1]) }
                #expect(abs(Double(out[r]) - want) <= 1e-5 * Double(k).squareRoot() + 1e-6, "\(p) k=\(k) row \(r)")
            }
        }
        // No rows: nothing written.
        var none: [Float] = [7]
        pbk_dot_rows(path, [1], 0, 1, 1, [1], &none)
        #expect(none == [7])
    }

    @Test("softmax, LayerNorm and GELU match their definitions", arguments: ownPaths)
    func rowPasses(kernel: KernelPath) {
        guard let path = path(kernel) else { return }
        var g = SeededGenerator(seed: 11)
        for n in [1, 5, 16, 37, 384] {
            let x = (0..<(3 * n)).map { _ in Float.random(in: -20...5, using: &g) }
            var y = x
            var inverse = [Float](repeating: 0, count: 3)
            pbk_softmax_rows(path, &y, 3, Int32(n), n, &inverse)
            for r in 0..<3 {
                let row = x[(r * n)..<((r + 1) * n)].map(Double.init)
                let m = row.max()!
                let e = row.map { Foundation.pow(2, $0 - m) }
                let sum = e.reduce(0, +)
                for j in 0..<n { #expect(abs(Double(y[r * n + j]) - e[j]) < 1e-6 * max(1, e[j])) }
                #expect(abs(Double(inverse[r]) * sum - 1) < 1e-5)
            }

            var z = x
            let gamma = (0..<n).map { _ in Float.random(in: 0.5...1.5, using: &g) }
            let beta = (0..<n).map { _ in Float.random(in: -1...1, using: &g) }
            pbk_layer_norm(path, &z, 3, Int32(n), gamma, beta, 1e-12)
            for r in 0..<3 {
                let row = x[(r * n)..<((r + 1) * n)].map(Double.init)
                let mean = row.reduce(0, +) / Double(n)
                let variance = row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n)
                for j in 0..<n {
                    let want = (row[j] - mean) / (variance + 1e-12).squareRoot() * Double(gamma[j]) + Double(beta[j])
                    #expect(abs(Double(z[r * n + j]) - want) < 1e-4, "\(kernel) layer norm n \(n)")
                }
            }

            var u = x.map { $0 / 4 }
            pbk_gelu(path, &u, Int32(u.count))
            for (j, v) in x.enumerated() {
                let s = Double(v / 4)
                #expect(abs(Double(u[j]) - 0.5 * s * (1 + Foundation.erf(s / 2.0.squareRoot()))) < 1e-6 * max(1, abs(s)))
            }
        }
    }
}

@Suite("kernel path choice")
struct KernelPathTests {
    @Test func environmentChoosesThePath() throws {
        #expect(try KernelPath.configured([:]) == KernelPath.best)
        #expect(try KernelPath.configured(["PB_KERNEL": ""]) == KernelPath.best)
        #expect(try KernelPath.configured(["PB_KERNEL": "blas"]) == .blas)
        #expect(try KernelPath.configured(["PB_KERNEL": "Portable"]) == .portable)
        #expect(throws: KernelError.unknown("avx9")) { try KernelPath.configured(["PB_KERNEL": "avx9"]) }
        #expect(KernelError.unknown("x").exitCode == .usage)
        #expect(KernelError.unsupported(.avx512).exitCode == .unavailable)
        for path in KernelPath.allCases where !path.isSupported {
            #expect(throws: KernelError.unsupported(path)) { try KernelPath.configured(["PB_KERNEL": path.rawValue]) }
        }
        // The best path is one this machine has, and the portable and blas paths exist everywhere.
        #expect(KernelPath.best.isSupported && KernelPath.portable.isSupported && KernelPath.blas.isSupported)
    }

    @Test func bestFollowsTheFeatureBits() {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        guard let flags = cpu.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return }
        let set = Set(flags.split(separator: " ").map(String.init))
        // The kernel's flags list only what the OS enabled, as our XGETBV check demands.
        #expect(KernelPath.avx512.isSupported == set.contains("avx512f"))
        #expect(KernelPath.avx2.isSupported == (set.contains("avx2") && set.contains("fma")))
    }
}
