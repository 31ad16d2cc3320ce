import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program (poppler's pdftotext and pdfinfo today) with a deadline.
///
/// A helper can hang for reasons that have nothing to do with the document: pdfinfo was seen
/// waiting forever with the loopback interface down, and pb-ingest waited with it. So every run
/// has a time limit; when it passes, the program is killed (SIGKILL: a hung program may ignore
/// SIGTERM) and the caller is told it timed out rather than handed a partial output.
public struct ExternalProgram: Sendable {
    public let executable: URL
    public let timeout: Double
    /// Variables set for the program on top of this process's environment.
    public let environment: [String: String]

    public init(executable: URL, timeout: Double, environment: [String: String] = [:]) {
        self.executable = executable
        self.timeout = timeout
        self.environment = environment
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// The program was killed at the deadline; `stdout` is whatever it had printed.
        public var timedOut: Bool
    }

    /// The first executable of that name on PATH (or the given search path).
    public static func find(_ name: String, searchPath: String? = nil) -> URL? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Holds what a pipe reader collected; the dispatch group's wait orders the write before the read.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }

    public func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained at once: a damaged PDF can make poppler print more warnings than
        // a pipe buffer holds, and it would then block on stderr while we block on stdout.
        let output = Collected(), errors = Collected()
        let group = DispatchGroup()
        let outHandle = stdout.fileHandleForReading, errHandle = stderr.fileHandleForReading
        DispatchQueue.global().async(group: group) { output.data = outHandle.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errors.data = errHandle.readDataToEndOfFile() }
        var timedOut = false, drained = true
        if group.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            // The pipes reach end of file once the program is gone (unless it left a child holding
            // them; poppler's tools do not fork). Bounded anyway, so a stray child cannot hang us;
            // then the readers may still be writing, and their data is not touched.
            drained = group.wait(timeout: .now() + 5) == .success
        }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: drained ? [UInt8](output.data) : [],
                      stderr: drained ? [UInt8](errors.data) : [], timedOut: timedOut)
    }
}
