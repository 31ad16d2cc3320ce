import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PBCore

/// Speech from the microphone, through ALSA's `arecord` (Debian's alsa-utils) as 16 kHz mono
/// 16-bit samples, until Enter on the terminal (push-to-talk), or until the speaker stops
/// (`SpeechEndDetector`).
public struct Microphone {
    /// An ALSA device name (`arecord -L` lists them); nil: ALSA's default.
    public var device: String?
    public var detector: SpeechEndDetector

    public init(device: String? = nil, detector: SpeechEndDetector = SpeechEndDetector()) {
        self.device = device
        self.detector = detector
    }

    /// What was recorded.
    public struct Recording: Sendable {
        public var samples: [Float]
        public var stop: SpeechEndDetector.Stop
        public var began: Date
        /// Why `save` holds less than was recorded (it could not be written), nil when it is whole.
        public var saveFailed: String?
    }

    /// A device that gives nothing for this long is broken, not quiet: the recording stops.
    static let stall = 10.0

    /// Records until the detector, Enter on the controlling terminal (when this process is in the
    /// terminal's foreground: a background job reading it would be stopped), or arecord ends,
    /// writing the sound to `save` as it comes (a file made new before anything is recorded, so
    /// a recording is never lost to a file that cannot be made). 69 when arecord is missing or
    /// cannot open the device, or the device gives nothing.
    public func record(save: String? = nil) throws -> Recording {
        guard let arecord = ExternalProgram.find("arecord") else {
            throw ToolFailure(.unavailable, "arecord is not installed (apt-get install alsa-utils): it records from the microphone")
        }
        let file = try save.map { try WAVWriter(path: $0) }
        let process = Process()
        process.executableURL = arecord
        // The device in the option's own word: a name starting with '-' is still a name.
        process.arguments = ["-q", "-t", "raw", "-f", "S16_LE", "-r", String(AudioInput.sampleRate), "-c", "1"]
            + (device.map { ["--device=\($0)"] } ?? [])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let began = Date()
        do { try process.run() } catch {
            file?.abandon()
            throw ToolFailure(.unavailable, "cannot run arecord: \(error.localizedDescription)")
        }
        let terminal = Self.foregroundTerminal()
        defer { if let terminal { close(terminal) } }
        var detector = self.detector
        var samples: [Float] = []
        var odd: UInt8?
        var stop: SpeechEndDetector.Stop = .ended
        var failure: ToolFailure?
        var buffer = [UInt8](repeating: 0, count: 1 << 15)
        let fd = out.fileHandleForReading.fileDescriptor
        var lastSound = Date()
        func checkFrame() -> SpeechEndDetector.Stop? {
            guard samples.count % SpeechEndDetector.frame == 0 else { return nil }
            return detector.feed(samples[(samples.count - SpeechEndDetector.frame)...])
        }
        reading: while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let terminal { fds.append(pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), 500)
            if ready < 0 { if errno == EINTR { continue }; break }
            if fds.count > 1, fds[1].revents & Int16(POLLIN) != 0 {
                let n = read(terminal!, &buffer, buffer.count)
                if n > 0, buffer[0..<n].contains(0x0A) { stop = .enter; break }
            }
            guard fds[0].revents & Int16(POLLIN | POLLHUP) != 0 else {
                if Date().timeIntervalSince(lastSound) > Self.stall {
                    failure = ToolFailure(.unavailable, "\(device ?? "the default device") gave no sound for \(Int(Self.stall)) s; recording stopped")
                    break
                }
                continue
            }
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            lastSound = Date()
            var bytes = buffer[0..<n]
            file?.append(bytes)
            // Whole samples go to the detector, a frame at a time.
            if let first = odd {
                samples.append(Float(Int16(bitPattern: UInt16(first) | UInt16(bytes.first!) << 8)) / 32768)
                bytes = bytes.dropFirst()
                odd = nil
                if let why = checkFrame() { stop = why; break reading }
            }
            var at = bytes.startIndex
            while at + 1 < bytes.endIndex {
                samples.append(Float(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)) / 32768)
                at += 2
                if let why = checkFrame() { stop = why; break reading }
            }
            if at < bytes.endIndex { odd = bytes[at] }
        }
        // arecord ends on SIGTERM only between writes: one blocked on a full pipe is ended by the
        // pipe's closing (EPIPE), and the last resort is SIGKILL.
        if process.isRunning { process.terminate() }
        try? out.fileHandleForReading.close()
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").last.map(String.init)
        if samples.isEmpty, failure == nil, stop == .ended, process.terminationStatus != 0 {
            failure = ToolFailure(.unavailable, "cannot record from \(device ?? "the default device"): \(said ?? "arecord exited with status \(process.terminationStatus)")")
        }
        if let failure {
            // Nothing worth keeping was recorded: no file is left behind.
            if samples.isEmpty { file?.abandon() } else { _ = file?.finish(samples: samples.count) }
            throw failure
        }
        let saved = file?.finish(samples: samples.count)
        return Recording(samples: samples, stop: stop, began: began, saveFailed: saved.flatMap { $0 })
    }

    /// The controlling terminal, open for reading, when this process is its foreground job.
    static func foregroundTerminal() -> Int32? {
        guard isatty(0) == 1 || isatty(2) == 1 else { return nil }
        let fd = open("/dev/tty", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard tcgetpgrp(fd) == getpgrp() else { close(fd); return nil }
        return fd
    }
}
