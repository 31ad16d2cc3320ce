import CSignals
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The frame every program's `main.swift` runs in: program name for diagnostics, SIGPIPE
/// handled as a quiet end, options parsed (`--help`, `--version`, usage errors exit 64), and any
/// error turned into its message and exit status.
public enum Tool {
    public static func main(_ spec: CommandSpec, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            _ body: (ParsedOptions) throws -> ExitCode) -> Never {
        Diagnostics.shared.program = spec.name
        PrivateHome.restrictCreation()
        // Writes to a closed pipe return EPIPE (handled by the writer) instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        // A mapped file that shrank under us, or whose blocks a full disk could not back, is a
        // read error (74) with a message, not a core dump.
        _ = pbs_install_sigbus_handler(Tool.busErrorMessage(spec.name), ExitCode.ioError.rawValue)
        let code: ExitCode
        do {
            switch try OptionParser(spec).parse(arguments) {
            case .help:
                NDJSONWriter.standardOutput.writeText(spec.helpText)
                exit(0)
            case .version:
                NDJSONWriter.standardOutput.writeText("\(spec.name) \(spec.version)\n")
                exit(0)
            case .run(let options):
                code = try body(options)
            }
        } catch {
            let failure = Tool.failure(for: error)
            Diagnostics.shared.error(failure.message)
            code = failure.code
        }
        Diagnostics.shared.endProgress()
        exit(code.rawValue)
    }

    static func busErrorMessage(_ program: String) -> String {
        "\(program): bus error reading a memory-mapped file (a library's vectors.f32 or index.sqlite-shm, "
            + "or the model): it was truncated while in use, or the disk is full; stopped with nothing more written\n"
    }

    /// Maps any error to a status and message; domain errors say which status they mean.
    public static func failure(for error: Error) -> ToolFailure {
        switch error {
        case let f as ToolFailure: return f
        case let e as ExitStatusProviding: return ToolFailure(e.exitCode, String(describing: e))
        case let e as RecordError: return ToolFailure(.badInput, e.description)
        default: return ToolFailure(.ioError, String(describing: error))
        }
    }
}

/// Domain errors that know which exit status they mean.
public protocol ExitStatusProviding: Error, CustomStringConvertible {
    var exitCode: ExitCode { get }
}
