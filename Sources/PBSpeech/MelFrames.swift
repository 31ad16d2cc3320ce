import CKernels
import Foundation

/// The log10 mel values of samples that arrive a piece at a time: what `LogMelSpectrogram`
/// computes for a whole file, frame for frame the same, without holding the file.
///
/// A frame is computed once every sample its window covers has arrived (the reflect padding of
/// the end reaches only the last frames, done at `finish`), and frames are computed in blocks of
/// 1024 counted from the first, as for a whole file, so each block is the same product on the
/// kernels and its values the same to the bit. Samples behind the next frame are let go.
final class MelFrames {
    static let block = 1024
    let bands: Int
    private let analysis: LogMelSpectrogram.Analysis
    private let context: KernelContext
    /// The padded signal from sample `base` of it (the reflect padding of the start at 0...199).
    private var signal: [Float] = []
    private var base = 0
    /// Samples taken, and those held until there are enough to reflect the start.
    private(set) var samples = 0
    private var early: [Float] = []
    private var started = false
    /// Frames handed out so far, and the largest log10 value among them.
    private(set) var frames = 0
    private(set) var top = -Float.infinity
    /// Each frame's loudness: the RMS of the 160 samples it is centred on (the hop), for
    /// `SilenceCuts`. 400 bytes a second.
    private(set) var levels: [Float] = []

    private var windowed: [Float]
    private var spectrum: [Float]
    private var power: [Float]

    init(bands: Int, path: Int32) {
        self.bands = bands
        analysis = LogMelSpectrogram.Analysis.shared(bands: bands, path: path)
        context = KernelContext(path: path)
        windowed = [Float](repeating: 0, count: Self.block * LogMelSpectrogram.windowLength)
        spectrum = [Float](repeating: 0, count: Self.block * 2 * LogMelSpectrogram.bins)
        power = [Float](repeating: 0, count: Self.block * LogMelSpectrogram.bins)
    }

    static let half = LogMelSpectrogram.windowLength / 2

    /// Takes more samples; returns the log10 values of the whole blocks of frames now complete.
    func append<C: Collection>(_ more: C) -> [Float] where C.Element == Float {
        samples += more.count
        if !started {
            early += more
            // Reflecting the start needs samples 1...200; with fewer, `finish` pads first.
            guard early.count > Self.half else { return [] }
            started = true
            signal = (0..<Self.half).map { early[Self.half - $0] } + early
            early = []
        } else {
            signal += more
        }
        // A frame whose window ends within the samples is final whatever comes after.
        let known = Self.half + samples
        let ready = known >= LogMelSpectrogram.windowLength ? (known - LogMelSpectrogram.windowLength) / LogMelSpectrogram.hop + 1 : 0
        var out: [Float] = []
        while frames + Self.block <= ready { out += compute(Self.block) }
        return out
    }

    /// The values of the frames left, once every sample has come: 160 zero samples appended,
    /// then the end reflected, as for a whole file.
    func finish() -> [Float] {
        let hop = LogMelSpectrogram.hop
        if !started {
            var padded = early + repeatElement(0, count: hop)
            if padded.count <= Self.half { padded += repeatElement(0, count: Self.half + 1 - padded.count) }
            let n = padded.count
            signal = (0..<Self.half).map { padded[Self.half - $0] } + padded + (0..<Self.half).map { padded[n - 2 - $0] }
            started = true
            early = []
            return rest(padded: n)
        }
        // Started means more than 200 samples came, so no padding to 201 is needed here.
        let n = samples + hop
        signal += repeatElement(0, count: hop)
        // signal[half + n + i] = padded[n - 2 - i]: the last 201 padded samples, mirrored.
        let end = Self.half + n - base
        for i in 0..<Self.half { signal.append(signal[end - 2 - i]) }
        return rest(padded: n)
    }

    private func rest(padded n: Int) -> [Float] {
        let total = n / LogMelSpectrogram.hop
        var out: [Float] = []
        while frames < total { out += compute(min(Self.block, total - frames)) }
        return out
    }

    /// The next `count` frames: windowed, one DFT product, power, one mel product, log10.
    private func compute(_ count: Int) -> [Float] {
        let n = LogMelSpectrogram.windowLength, bins = LogMelSpectrogram.bins, hop = LogMelSpectrogram.hop
        for f in 0..<count {
            let start = (frames + f) * hop - base
            for i in 0..<n { windowed[f * n + i] = signal[start + i] * analysis.window[i] }
            var energy: Float = 0
            for i in (start + Self.half - hop / 2)..<(start + Self.half + hop / 2) { energy += signal[i] * signal[i] }
            levels.append((energy / Float(hop)).squareRoot())
        }
        windowed.withUnsafeBufferPointer { w in
            spectrum.withUnsafeMutableBufferPointer { s in
                context.product(w.baseAddress!, rows: count, analysis.dft, into: s.baseAddress!)
            }
        }
        for f in 0..<count {
            for b in 0..<bins {
                let re = spectrum[f * 2 * bins + 2 * b], im = spectrum[f * 2 * bins + 2 * b + 1]
                power[f * bins + b] = re * re + im * im
            }
        }
        var values = [Float](repeating: 0, count: count * bands)
        power.withUnsafeBufferPointer { p in
            values.withUnsafeMutableBufferPointer { v in
                context.product(p.baseAddress!, rows: count, analysis.filters, into: v.baseAddress!)
            }
        }
        for i in values.indices {
            let v = log10(max(values[i], 1e-10))
            values[i] = v
            top = max(top, v)
        }
        frames += count
        // What the next frame does not reach is let go.
        let keep = frames * hop - base
        if keep > 0, keep <= signal.count {
            signal.removeFirst(keep)
            base += keep
        }
        return values
    }

    /// Whisper's scaling of log10 values: floored at the file's largest less 8, then (x + 4) / 4.
    static func normalize(_ values: inout [Float], top: Float) {
        let floor = top - 8
        for i in values.indices { values[i] = (max(values[i], floor) + 4) / 4 }
    }
}
