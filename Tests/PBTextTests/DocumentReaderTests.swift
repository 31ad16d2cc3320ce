import Foundation
import Testing
@testable import PBText

/// Files that are not documents say what they are (issue 17 item 12).
@Suite struct DocumentReaderFileTests {
    func message(_ path: String) -> String {
        do { _ = try DocumentReader.read(path: path); return "" } catch { return "\(error)" }
    }

    @Test func aFIFOALinkLoopAndADeviceAreNamedForWhatTheyAre() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pb-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.txt").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // Reading would block forever; it is refused without opening.
        #expect(message(fifo).contains("is a FIFO, not a regular file"))
        let a = dir.appendingPathComponent("a.md").path, b = dir.appendingPathComponent("b.md").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        #expect(message(a).contains("too many levels of symbolic links"))
        #expect(message("/dev/null").contains("is a device"))
        #expect(message(dir.appendingPathComponent("none.md").path).contains("no such file"))
        #expect(message(dir.path).contains("is a directory"))
        // A link to a regular file is read.
        let real = dir.appendingPathComponent("real.md").path
        try "# Hello\n\nText.".write(toFile: real, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link.md").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(message(link) == "")
    }
}
