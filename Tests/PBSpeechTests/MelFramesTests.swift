import CKernels
import Foundation
import Testing
@testable import PBSpeech

@Suite("Spectrogram of a file read a piece at a time")
struct MelFramesTests {
    static let paths = [Int32(PBK_PORTABLE), Int32(PBK_AVX2), Int32(PBK_AVX512)].filter { pbk_supported($0) != 0 }

    /// 25 s of a gliding tone over noise: more than one block of 1024 frames.
    static let signal: [Float] = {
        var seed: UInt32 = 12345
        return (0..<400_000).map { i in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.01
            return 0.3 * Float(sin(Double(i) * (0.05 + Double(i) * 1e-7))) + noise
        }
    }()

    static func pieces(_ samples: [Float], sizes: [Int], path: Int32) -> (values: [Float], top: Float, frames: Int) {
        let mel = MelFrames(bands: 80, path: path)
        var values: [Float] = [], at = 0, k = 0
        while at < samples.count {
            let n = min(sizes[k % sizes.count], samples.count - at)
            values += mel.append(samples[at..<(at + n)])
            at += n
            k += 1
        }
        values += mel.finish()
        return (values, mel.top, mel.frames)
    }

    @Test("fed in any pieces, the values are the whole file's to the bit", arguments: paths)
    func piecesEqualWhole(path: Int32) {
        let whole = Self.pieces(Self.signal, sizes: [Self.signal.count], path: path)
        #expect(whole.frames == (Self.signal.count + 160) / 160)
        for sizes in [[1, 7, 199, 200, 201], [4096], [100_001, 3], [163_840]] {
            let got = Self.pieces(Self.signal, sizes: sizes, path: path)
            #expect(got.frames == whole.frames && got.top == whole.top)
            #expect(got.values == whole.values, "pieces \(sizes)")
        }
    }

    @Test("short inputs, all padding, in pieces or whole")
    func shortInputs() {
        for count in [0, 1, 150, 200, 201, 202, 361, 560] {
            let samples = Array(Self.signal.prefix(count))
            let whole = Self.pieces(samples, sizes: [max(1, count)], path: Int32(PBK_PORTABLE))
            let byOne = Self.pieces(samples, sizes: [1], path: Int32(PBK_PORTABLE))
            #expect(whole.values == byOne.values && whole.frames == byOne.frames, "\(count) samples")
            #expect(whole.frames == max(count + 160, 201) / 160)
        }
    }
}
