import Foundation
import PBCore

/// Why a chat endpoint gave no answer. pb-answer falls back to the extractive composer on any of
/// these except `refusedRemote`, which is the user's consent missing, not the server failing.
public enum EndpointError: Error, Equatable, CustomStringConvertible, ExitStatusProviding {
    /// Nothing answered: bad host, connection refused or reset, the server went away mid-request.
    case unreachable(String)
    /// The whole request took longer than this many seconds.
    case timeout(Double)
    /// The server answered with a non-2xx status (and this message).
    case http(Int, String)
    /// The server answered 2xx with something that is not a chat completion.
    case badResponse(String)
    /// The endpoint is not on this machine and `--allow-remote` was not given.
    case refusedRemote(String)

    public var description: String {
        switch self {
        case .unreachable(let why): return "endpoint unreachable: \(why)"
        case .timeout(let seconds): return "endpoint timed out after \(Self.seconds(seconds)) s"
        case .http(let status, let message): return "endpoint answered HTTP \(status): \(message)"
        case .badResponse(let why): return "endpoint sent a bad response: \(why)"
        case .refusedRemote(let host):
            return "\(host) is not a loopback address; pass --allow-remote to send anything off this machine"
        }
    }

    /// A missing consent is a usage error; everything else is the service being unavailable.
    public var exitCode: ExitCode {
        if case .refusedRemote = self { return .usage }
        return .unavailable
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(format: "%.3g", s)
    }
}
