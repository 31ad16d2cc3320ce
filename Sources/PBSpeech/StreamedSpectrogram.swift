import Foundation
import PBCore

/// The spectrogram of a long recording, read window by window from a second decoding of the file,
/// so memory holds a window and a block, not the hour (`AudioInput.listen` made the first pass,
/// which found the largest value Whisper's scaling needs and the silences to leave out). Frames
/// are counted as Whisper hears them: with `cuts`' silences left out.
final class StreamedSpectrogram {
    /// Frames Whisper hears.
    let frames: Int
    let bands: Int
    private let top: Float
    private let stream: AudioStream
    private let mel: MelFrames
    private let kept: [Range<Int>]
    /// The next part of `kept` a file frame may fall in.
    private var part = 0
    /// Scaled values of heard frames `first ..< first + values.count / bands`.
    private var values: [Float] = []
    private var first = 0
    /// Heard frames seen so far (held or let go).
    private var heard = 0
    private var finished = false

    init(stream: AudioStream, cuts: SilenceCuts, bands: Int, top: Float, path: Int32) {
        self.stream = stream
        frames = cuts.count
        kept = cuts.kept
        self.bands = bands
        self.top = top
        mel = MelFrames(bands: bands, path: path)
    }

    /// Heard frames `from ..< from + count`, time-major; windows only move forward, and what is
    /// behind `from` is let go. 65 or 74 when the file no longer decodes as it did.
    func window(from: Int, count: Int) throws -> [Float] {
        precondition(from >= first, "windows move forward")
        let drop = min((from - first) * bands, values.count)
        values.removeFirst(drop)
        first = from
        while values.count < count * bands, !finished {
            var more: [Float]
            if let samples = try stream.next() {
                more = mel.append(samples)
            } else {
                more = mel.finish()
                finished = true
            }
            MelFrames.normalize(&more, top: top)
            var file = mel.frames - more.count / bands
            for f in 0..<(more.count / bands) {
                defer { file += 1 }
                while part < kept.count, kept[part].upperBound <= file { part += 1 }
                guard part < kept.count, kept[part].contains(file) else { continue }
                if heard >= first { values += more[(f * bands)..<((f + 1) * bands)] }
                heard += 1
            }
        }
        guard values.count >= count * bands else {
            throw ToolFailure(.ioError, "\(stream.path): the file changed while it was being transcribed (it decoded to fewer frames the second time)")
        }
        return Array(values[0..<(count * bands)])
    }
}
