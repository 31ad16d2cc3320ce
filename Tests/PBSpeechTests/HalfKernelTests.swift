import CKernels
import Testing

@Suite("float16 kernels")
struct HalfKernelTests {
    static let paths = [Int32(PBK_PORTABLE), Int32(PBK_AVX2), Int32(PBK_AVX512)].filter { pbk_supported($0) != 0 }

    @Test("every one of the 65,536 halves widens exactly, on every path this CPU has", arguments: paths)
    func widensEveryHalf(path: Int32) {
        let all = (0...0xFFFF).map { UInt16($0) }
        var out = [Float](repeating: 0, count: all.count)
        pbk_widen_f16(path, all, &out, all.count)
        var wrong = 0
        for (h, f) in zip(all, out) {
            let want = Float(Float16(bitPattern: h))
            if want.isNaN ? !f.isNaN || (f.bitPattern >> 31) != (want.bitPattern >> 31) : f.bitPattern != want.bitPattern { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("dot products over halves equal those over the widened rows bit for bit", arguments: paths)
    func dotRowsMatch(path: Int32) {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Float { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Float(Int64(bitPattern: seed >> 11) % 2001 - 1000) / 997 }
        for k in [1, 15, 64, 384, 385] {
            let rows = 7
            let halves = (0..<(rows * k)).map { _ in Float16(next()).bitPattern }
            let widened = halves.map { Float(Float16(bitPattern: $0)) }
            let x = (0..<k).map { _ in next() }
            var a = [Float](repeating: 0, count: rows), b = [Float](repeating: 0, count: rows)
            pbk_dot_rows_f16(path, halves, Int32(rows), Int32(k), k, x, &a)
            pbk_dot_rows(path, widened, Int32(rows), Int32(k), k, x, &b)
            #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "k \(k)")
        }
    }
}
