import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PBCore
import PBText

/// The samples of an audio file as sox decodes them (16 kHz mono float), a piece at a time, so
/// an hour-long recording is never all in memory. sox is paced by the reading (the pipe fills);
/// a sox that gives nothing for `stall` seconds is stopped, so a broken decoder cannot hang us.
final class AudioStream {
    private let process = Process()
    private let output: FileHandle
    private let errors = Collected()
    private let errorsRead = DispatchGroup()
    private var carry: [UInt8] = []
    private var ended = false
    let path: String
    let operand: String
    let stall: Double

    private final class Collected: @unchecked Sendable { var data = Data() }

    init(sox: URL, path: String, stall: Double = 120) throws {
        self.path = path
        self.stall = stall
        // sox reads a name starting with '-' as an option, one starting with '|' as a command to
        // run, and one starting with a URL scheme as a download: an absolute path is none of these.
        operand = URL(fileURLWithPath: path).standardizedFileURL.path
        process.executableURL = sox
        // sox tells a format by the file's name, then by its content, which MP3 has none of: a
        // file whose name says no audio format is given the type its first bytes say.
        let named = AudioDocument.extensions.contains((path as NSString).pathExtension.lowercased())
        let type = named ? nil : FileHandle(forReadingAtPath: path).flatMap { handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 64)).flatMap { AudioDocument.soxType(firstBytes: [UInt8]($0)) }
        }
        process.arguments = ["-V1"] + (type.map { ["-t", $0] } ?? []) + [operand, "-t", "raw", "-e", "floating-point", "-b", "32", "-L",
                             "-r", String(AudioInput.sampleRate), "-c", "1", "-"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        output = out.fileHandleForReading
        do { try process.run() } catch {
            throw ToolFailure(.unavailable, "cannot run sox: \(error.localizedDescription)")
        }
        let handle = err.fileHandleForReading, errors = self.errors
        DispatchQueue.global().async(group: errorsRead) { errors.data = handle.readDataToEndOfFile() }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? output.close()
        if process.isRunning || !ended { process.waitUntilExit() }
    }

    /// Up to `limit` samples, at least one unless the file has ended (then nil: the whole file
    /// was decoded). 65 when sox cannot read the file, 74 when it stalls.
    func next(_ limit: Int = 1 << 16) throws -> [Float]? {
        guard !ended else { return nil }
        var buffer = [UInt8](repeating: 0, count: limit * 4)
        let fd = output.fileDescriptor
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(stall * 1000))
            if ready < 0 { if errno == EINTR { continue }; throw ToolFailure(.ioError, "\(path): cannot read sox's output: \(String(cString: strerror(errno)))") }
            if ready == 0 {
                kill(process.processIdentifier, SIGKILL)
                throw ToolFailure(.ioError, "\(path): sox gave no audio for \(Int(stall)) s and was stopped")
            }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 { if errno == EINTR { continue }; throw ToolFailure(.ioError, "\(path): cannot read sox's output: \(String(cString: strerror(errno)))") }
            if n == 0 { try finish(); return nil }
            carry += buffer[0..<n]
            let whole = carry.count / 4
            guard whole > 0 else { continue }
            let samples = carry.withUnsafeBytes { raw in
                (0..<whole).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
            carry.removeFirst(whole * 4)
            return samples
        }
    }

    /// At the end of sox's output: its status says whether the file was audio.
    private func finish() throws {
        ended = true
        process.waitUntilExit()
        errorsRead.wait()
        guard process.terminationStatus == 0 else {
            let said = String(decoding: errors.data, as: UTF8.self).replacingOccurrences(of: operand, with: path)
                .split(separator: "\n").last.map { line in
                    line.range(of: "FAIL ").map { String(line[$0.upperBound...]) } ?? String(line)
                } ?? "sox exited with status \(process.terminationStatus)"
            throw ToolFailure(.badInput, "\(path): not audio sox can read (\(said))")
        }
    }
}
