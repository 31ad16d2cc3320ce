import Foundation
import PBCore
import Testing
@testable import PBSpeech

@Suite("A recording kept as it is made")
struct WAVWriterTests {
    @Test("made new and private, written as it comes, its sizes filled in; never over a file")
    func keeps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("memo.wav").path
        let file = try WAVWriter(path: path)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        // 1,001 bytes: the odd one is not half a sample in the file.
        file.append(ArraySlice([UInt8](repeating: 1, count: 600)))
        file.append(ArraySlice([UInt8](repeating: 2, count: 401)))
        #expect(file.finish(samples: 10_000) == nil)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 44 + 1000)
        #expect(Array(bytes[0..<44]) == WAVWriter.header(dataBytes: 1000))
        if SpeechFixtures.soxPresent {
            #expect(try AudioInput.find().read(path).samples.count == 500)
        }
        // Cut to what was transcribed.
        let cut = folder.appendingPathComponent("cut.wav").path, short = try WAVWriter(path: cut)
        short.append(ArraySlice([UInt8](repeating: 3, count: 800)))
        #expect(short.finish(samples: 100) == nil)
        #expect((try FileManager.default.attributesOfItem(atPath: cut)[.size] as? Int) == 44 + 200)
        #expect { try WAVWriter(path: path) } throws: { ($0 as? ToolFailure)?.code == .usage }
        #expect { try WAVWriter(path: folder.appendingPathComponent("no/such/memo.wav").path) } throws: { ($0 as? ToolFailure)?.code == .ioError }
        // Abandoned: nothing left.
        let other = folder.appendingPathComponent("other.wav").path
        try WAVWriter(path: other).abandon()
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
