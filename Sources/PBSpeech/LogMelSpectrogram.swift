import CKernels
import Foundation

/// Whisper's input: the log-mel spectrogram of 16 kHz audio, 80 bands every 10 ms.
///
/// As the reference implementations compute it (faster-whisper's feature extractor, whose
/// transcripts pb-listen is checked against): 160 zero samples appended, reflect padding of 200
/// on both sides, a periodic Hann window of 400 samples, hop 160, the last frame dropped, power
/// spectrum, Slaney mel filters (librosa's, Slaney-normalized), log10 floored at 1e-10, floored
/// again at the file's maximum - 8, then (x + 4) / 4.
///
/// The 201-bin real DFT of each frame is one matrix product against a cosine and sine basis on
/// the own kernels: n = 400 is not a power of two, and a product of 400 x 402 runs at the
/// kernels' full speed (about 25 ms for 30 s of audio), which no hand-written FFT here would beat.
public struct LogMelSpectrogram: Sendable {
    public static let sampleRate = 16_000
    public static let hop = 160
    public static let windowLength = 400
    public static let bins = windowLength / 2 + 1

    /// Frames (100 per second) of `bands` values each, time-major.
    public let frames: Int
    public let bands: Int
    public let values: [Float]

    public init(frames: Int, bands: Int, values: [Float]) {
        self.frames = frames
        self.bands = bands
        self.values = values
    }

    /// The spectrogram of `samples`, computed on `path` in blocks of frames (`MelFrames`, which
    /// computes the same for a file read a piece at a time).
    public init(samples: [Float], bands: Int = 80, path: Int32 = pbk_best()) {
        let mel = MelFrames(bands: bands, path: path)
        var values = mel.append(samples)
        values += mel.finish()
        MelFrames.normalize(&values, top: mel.top)
        self.init(frames: mel.frames, bands: bands, values: values)
    }

    /// The window, the DFT basis and the mel filters of one band count on one path, made once.
    final class Analysis: @unchecked Sendable {
        let window: [Float]
        let dft: PackedMatrix
        let filters: PackedMatrix

        private static let lock = NSLock()
        nonisolated(unsafe) private static var made: [String: Analysis] = [:]

        static func shared(bands: Int, path: Int32) -> Analysis {
            lock.lock()
            defer { lock.unlock() }
            if let a = made["\(bands)/\(path)"] { return a }
            let a = Analysis(bands: bands, path: path)
            made["\(bands)/\(path)"] = a
            return a
        }

        private init(bands: Int, path: Int32) {
            let n = LogMelSpectrogram.windowLength, bins = LogMelSpectrogram.bins
            window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
            // Rows 2b and 2b+1: the cosine and sine of bin b, as W[out, in] over the frame's samples.
            var basis = [Float](repeating: 0, count: 2 * bins * n)
            for b in 0..<bins {
                for i in 0..<n {
                    // The phase reduced exactly in integers first: cos(2 pi (b i mod n) / n).
                    let angle = 2 * Double.pi * Double((b * i) % n) / Double(n)
                    basis[(2 * b) * n + i] = Float(cos(angle))
                    basis[(2 * b + 1) * n + i] = Float(-sin(angle))
                }
            }
            dft = PackedMatrix(path: path, weights: basis, outputs: 2 * bins, inputs: n)
            filters = PackedMatrix(path: path, weights: Self.melFilters(bands: bands).map(Float.init), outputs: bands, inputs: bins)
        }

        /// Slaney mel filters over the 201 bins of a 400-point DFT at 16 kHz (librosa's
        /// `filters.mel(sr=16000, n_fft=400, n_mels=bands)`, htk=False, norm="slaney").
        static func melFilters(bands: Int) -> [Double] {
            let n = LogMelSpectrogram.windowLength, bins = LogMelSpectrogram.bins
            let rate = Double(LogMelSpectrogram.sampleRate)
            let fftFrequencies = (0..<bins).map { Double($0) * rate / Double(n) }
            func hertz(_ mel: Double) -> Double {
                let linearStep = 200.0 / 3, logStart = 1000.0, logStartMel = logStart / linearStep
                let logStep = log(6.4) / 27
                return mel >= logStartMel ? logStart * exp(logStep * (mel - logStartMel)) : linearStep * mel
            }
            func mel(_ hz: Double) -> Double {
                let linearStep = 200.0 / 3, logStart = 1000.0, logStartMel = logStart / linearStep
                let logStep = log(6.4) / 27
                return hz >= logStart ? logStartMel + log(hz / logStart) / logStep : hz / linearStep
            }
            let top = mel(rate / 2)
            let points = (0..<(bands + 2)).map { hertz(top * Double($0) / Double(bands + 1)) }
            var weights = [Double](repeating: 0, count: bands * bins)
            for m in 0..<bands {
                let lowerWidth = points[m + 1] - points[m], upperWidth = points[m + 2] - points[m + 1]
                let norm = 2 / (points[m + 2] - points[m])
                for b in 0..<bins {
                    let lower = (fftFrequencies[b] - points[m]) / lowerWidth
                    let upper = (points[m + 2] - fftFrequencies[b]) / upperWidth
                    weights[m * bins + b] = max(0, min(lower, upper)) * norm
                }
            }
            return weights
        }
    }
}
