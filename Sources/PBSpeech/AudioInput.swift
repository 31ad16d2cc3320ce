import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PBCore

/// Audio files to 16 kHz mono samples, through sox (Debian's `sox` with `libsox-fmt-all`: WAV,
/// FLAC, OGG, MP3 and the rest), which also resamples and mixes down.
///
/// A WAV file's header is read here too, so a file cut short (its header promises more samples
/// than it holds) is said to be, rather than passed as if whole.
public struct AudioInput: Sendable {
    public static let sampleRate = 16_000

    /// What a file held.
    public struct Audio: Sendable {
        public var samples: [Float]
        /// Seconds the WAV header promised, when the file holds fewer.
        public var promisedSeconds: Double?
        public var seconds: Double { Double(samples.count) / Double(AudioInput.sampleRate) }
    }

    /// The sox executable (`AudioStream` runs it, and stops one that stalls).
    let sox: URL

    public init(sox: URL) { self.sox = sox }

    /// sox from PATH; status 69 when it is not installed.
    public static func find() throws -> AudioInput {
        guard let url = ExternalProgram.find("sox") else {
            throw ToolFailure(.unavailable, "sox is not installed (apt-get install sox libsox-fmt-all): it reads the audio")
        }
        return AudioInput(sox: url)
    }

    /// A file's audio as the transcriber reads it, decoded a piece at a time: the spectrogram
    /// itself for a recording up to `heldSeconds`, else (an hour-long one) a spectrogram read
    /// window by window from a second decoding, once the first has found its largest value.
    /// Either way memory holds at most `heldSeconds` of spectrogram, never the samples.
    public struct Listening {
        /// What Whisper hears: the spectrogram with `cuts`' silences left out.
        let spectrogram: LogMelSpectrogram?
        let streamed: StreamedSpectrogram?
        /// The long silences left out, and the way back to the file's times.
        public let cuts: SilenceCuts
        /// Samples (16 kHz) in the file.
        public let samples: Int
        /// Seconds the WAV header promised, when the file holds fewer.
        public let promisedSeconds: Double?
        public var seconds: Double { Double(samples) / Double(AudioInput.sampleRate) }
    }

    /// Five minutes of spectrogram is 9.6 MB; past that the file is decoded a second time.
    public static let heldSeconds = 300.0

    /// The audio of the file at `path` (see `Listening`): 66 when it cannot be opened, 65 when
    /// it is not audio.
    public func listen(_ path: String, bands: Int, kernel: Int32, heldSeconds: Double = AudioInput.heldSeconds) throws -> Listening {
        try Self.checkReadable(path)
        let mel = MelFrames(bands: bands, path: kernel)
        let heldFrames = Int(heldSeconds * 100)
        var values: [Float] = []
        var held = true
        let stream = try AudioStream(sox: sox, path: path)
        func keep(_ more: [Float]) {
            guard held else { return }
            if values.count + more.count > heldFrames * bands { held = false; values = [] } else { values += more }
        }
        while let samples = try stream.next() { keep(mel.append(samples)) }
        keep(mel.finish())
        let promised = Self.promisedSeconds(path, holding: Double(mel.samples) / Double(Self.sampleRate))
        if held { return Self.held(values, mel: mel, bands: bands, promised: promised) }
        let cuts = SilenceCuts(levels: mel.levels)
        let again = StreamedSpectrogram(stream: try AudioStream(sox: sox, path: path), cuts: cuts, bands: bands,
                                        top: mel.top, path: kernel)
        return Listening(spectrogram: nil, streamed: again, cuts: cuts, samples: mel.samples, promisedSeconds: promised)
    }

    /// The same for samples in memory.
    public static func listening(samples: [Float], bands: Int, kernel: Int32) -> Listening {
        let mel = MelFrames(bands: bands, path: kernel)
        var values = mel.append(samples)
        values += mel.finish()
        return held(values, mel: mel, bands: bands, promised: nil)
    }

    /// What Whisper hears of a spectrogram held whole: its values scaled, long silences left out.
    static func held(_ raw: [Float], mel: MelFrames, bands: Int, promised: Double?) -> Listening {
        var values = raw
        let cuts = SilenceCuts(levels: mel.levels)
        MelFrames.normalize(&values, top: mel.top)
        if !cuts.isEmpty { values = cuts.kept.flatMap { values[($0.lowerBound * bands)..<($0.upperBound * bands)] } }
        return Listening(spectrogram: LogMelSpectrogram(frames: cuts.count, bands: bands, values: values), streamed: nil,
                         cuts: cuts, samples: mel.samples, promisedSeconds: promised)
    }

    /// Only a regular file (or a link to one) is read: it is read twice when long, its header
    /// once more, and a FIFO would block the second time. 66 otherwise, saying what it is.
    static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ToolFailure(.cannotOpen, "\(path): \(String(cString: strerror(errno)).lowercased())") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ToolFailure(.cannotOpen, "\(path): is a directory")
        case S_IFIFO: throw ToolFailure(.cannotOpen, "\(path): is a FIFO or a pipe, not a file (give audio on standard input as -)")
        default: throw ToolFailure(.cannotOpen, "\(path): is not a regular file")
        }
        guard access(path, R_OK) == 0 else { throw ToolFailure(.cannotOpen, "\(path): \(String(cString: strerror(errno)).lowercased())") }
    }

    /// The samples of the file at `path`, all of them (a recording the length of a request):
    /// 66 when it cannot be opened, 65 when it is not audio.
    public func read(_ path: String) throws -> Audio {
        try Self.checkReadable(path)
        let stream = try AudioStream(sox: sox, path: path)
        var samples: [Float] = []
        while let more = try stream.next() { samples += more }
        return Audio(samples: samples, promisedSeconds: Self.promisedSeconds(path, holding: Double(samples.count) / Double(Self.sampleRate)))
    }

    /// For a WAV file whose data chunk is declared longer than the file: the seconds declared.
    static func promisedSeconds(_ path: String, holding seconds: Double) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 4096), header.count >= 12,
              header.prefix(4) == Data("RIFF".utf8), header[header.startIndex + 8 ..< header.startIndex + 12] == Data("WAVE".utf8) else { return nil }
        let bytes = [UInt8](header)
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var at = 12, bytesPerSecond = 0
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<(at + 4)], as: UTF8.self), size = u32(at + 4)
            if id == "fmt ", at + 20 <= bytes.count { bytesPerSecond = u32(at + 16) }
            if id == "data" {
                // A WAV written to a pipe (arecord, sox -t wav -) cannot know its length and
                // declares the largest it can: that promises nothing.
                guard bytesPerSecond > 0, size < 0x7FFF_F000 else { return nil }
                let fileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                let held = fileSize - (at + 8)
                guard held < size else { return nil }
                return Double(size) / Double(bytesPerSecond)
            }
            at += 8 + size + (size & 1)
        }
        return nil
    }
}
