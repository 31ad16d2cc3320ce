import Foundation
import PBCore
import Testing
@testable import PBSpeech

@Suite("audio input through sox", .enabled(if: SpeechFixtures.soxPresent, "sox is not installed"))
struct AudioInputTests {
    @Test("16 kHz mono samples, a cut-short WAV said to be, nothing for a header alone")
    func reads() throws {
        let input = try AudioInput.find()
        let request = try input.read(SpeechFixtures.file("request.wav"))
        #expect(abs(request.seconds - 3.385) < 0.001)
        #expect(request.promisedSeconds == nil)
        let cut = try input.read(SpeechFixtures.file("truncated.wav"))
        #expect(cut.promisedSeconds.map { abs($0 - request.seconds) < 0.001 } == true)
        #expect(cut.seconds < 1.3)
        #expect(try input.read(SpeechFixtures.file("empty.wav")).samples.isEmpty)
    }

    @Test("a file that is not audio is bad input (65), one that is not there cannot be opened (66)")
    func failures() throws {
        let input = try AudioInput.find()
        #expect { try input.read(SpeechFixtures.file("not-audio.wav")) } throws: { ($0 as? ToolFailure)?.code == .badInput }
        #expect { try input.read(SpeechFixtures.file("no-such.wav")) } throws: { ($0 as? ToolFailure)?.code == .cannotOpen }
        #expect { try input.read(SpeechFixtures.file("")) } throws: { ($0 as? ToolFailure)?.code == .cannotOpen }
    }
}

@Suite("WAV headers")
struct WAVHeaderTests {
    /// A RIFF/WAVE file: a JUNK chunk of `junk` bytes, `fmt ` (16 kHz mono 16-bit), and a data
    /// chunk declaring `declared` bytes and holding `held`.
    static func wav(junk: Int, declared: UInt32, held: Int) throws -> String {
        var b: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        func u32(_ v: UInt32) { b += (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
        func u16(_ v: UInt16) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        if junk > 0 { b += Array("JUNK".utf8); u32(UInt32(junk)); b += [UInt8](repeating: 0, count: junk + (junk & 1)) }
        b += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(16_000); u32(32_000); u16(2); u16(16)
        b += Array("data".utf8); u32(declared); b += [UInt8](repeating: 0, count: held)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pb-wav-\(getpid())-\(junk)-\(declared).wav").path
        try Data(b).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a data chunk longer than the file is a cut-short file; a pipe's placeholder length is not")
    func declaredLengths() throws {
        let cut = try Self.wav(junk: 0, declared: 64_000, held: 3_200)
        #expect(AudioInput.promisedSeconds(cut, holding: 0.1) == 2.0)
        let whole = try Self.wav(junk: 0, declared: 3_200, held: 3_200)
        #expect(AudioInput.promisedSeconds(whole, holding: 0.1) == nil)
        let piped = try Self.wav(junk: 0, declared: 0x7FFF_FFFF, held: 3_200)
        #expect(AudioInput.promisedSeconds(piped, holding: 0.1) == nil)
        [cut, whole, piped].forEach { try? FileManager.default.removeItem(atPath: $0) }
    }

    @Test("a fmt chunk at the end of the first 4 KiB is read within bounds", arguments: [4040, 4050, 4060, 4064, 4070, 4080, 4090])
    func fmtNearTheEdge(junk: Int) throws {
        let path = try Self.wav(junk: junk, declared: 64_000, held: 100)
        _ = AudioInput.promisedSeconds(path, holding: 0.1)
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite("audio files by what they are", .enabled(if: SpeechFixtures.soxPresent, "sox is not installed"))
struct AudioFileKindTests {
    @Test("a FIFO or a folder is refused (66) before sox would block on it")
    func notRegularFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("memo.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let input = try AudioInput.find()
        for path in [fifo, folder.path] {
            #expect { try input.listen(path, bands: 80, kernel: 0) } throws: { ($0 as? ToolFailure)?.code == .cannotOpen }
        }
    }

    @Test("an MP3 under a name that says no audio format is read by what its bytes say")
    func mp3WithoutItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mp3 = folder.appendingPathComponent("memo.mp3").path, bin = folder.appendingPathComponent("memo.bin").path
        let sox = Process()
        sox.executableURL = ExternalProgram.find("sox")
        sox.arguments = [SpeechFixtures.file("request.wav"), mp3]
        try sox.run()
        sox.waitUntilExit()
        try #require(sox.terminationStatus == 0, "this sox writes no MP3")
        try FileManager.default.copyItem(atPath: mp3, toPath: bin)
        let input = try AudioInput.find()
        let named = try input.read(mp3), unnamed = try input.read(bin)
        #expect(named.samples.count > 50_000 && named.samples == unnamed.samples)
    }
}
