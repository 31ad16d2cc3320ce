import Foundation
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

    let sox: ExternalProgram

    public init(sox: ExternalProgram) { self.sox = sox }

    /// sox from PATH; status 69 when it is not installed.
    public static func find() throws -> AudioInput {
        guard let url = ExternalProgram.find("sox") else {
            throw ToolFailure(.unavailable, "sox is not installed (apt-get install sox libsox-fmt-all): it reads the audio")
        }
        // An hour of audio decodes in seconds; the limit only stops a hung decoder.
        return AudioInput(sox: ExternalProgram(executable: url, timeout: 900))
    }

    /// The samples of the file at `path`: 66 when it cannot be opened, 65 when it is not audio.
    public func read(_ path: String) throws -> Audio {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ToolFailure(.cannotOpen, "\(path): no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else { throw ToolFailure(.cannotOpen, "\(path): not readable") }
        // sox reads a name starting with '-' as an option, one starting with '|' as a command to
        // run, and one starting with a URL scheme as a download: an absolute path is none of these.
        let operand = URL(fileURLWithPath: path).standardizedFileURL.path
        let output = try sox.run(["-V1", operand, "-t", "raw", "-e", "floating-point", "-b", "32", "-L",
                                  "-r", String(Self.sampleRate), "-c", "1", "-"])
        if output.timedOut { throw ToolFailure(.ioError, "\(path): sox did not finish decoding within \(Int(sox.timeout)) s") }
        guard output.status == 0 else {
            let said = String(decoding: output.stderr, as: UTF8.self).replacingOccurrences(of: operand, with: path)
                .split(separator: "\n").last.map { line in
                    line.range(of: "FAIL ").map { String(line[$0.upperBound...]) } ?? String(line)
                } ?? "sox exited with status \(output.status)"
            throw ToolFailure(.badInput, "\(path): not audio sox can read (\(said))")
        }
        let samples = output.stdout.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
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
