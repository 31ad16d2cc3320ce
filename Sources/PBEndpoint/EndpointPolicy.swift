import Foundation
import PBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where evidence may be sent. The user's documents stay on this machine unless they say
/// otherwise: a loopback endpoint is always allowed, anything else only with `--allow-remote`.
///
/// Loopback is decided from the literal host, never from DNS: `localhost`, an IPv4 address in
/// 127.0.0.0/8, `::1` or an IPv4-mapped 127.x address. A name such as `127.example.com` is remote,
/// and the HTTP client re-checks the resolved address of `localhost` before connecting.
public enum EndpointPolicy {
    /// Whether the URL's host is this machine's loopback interface.
    public static func isLoopback(_ url: URL) -> Bool {
        guard let host = normalisedHost(url) else { return false }
        return isLoopbackHost(host)
    }

    /// The URL of an `--endpoint` option, checked: a usage error for one that is not http(s)
    /// with a host, or that is remote without `allowRemote` (pb-answer's and pb-remember's rule).
    public static func option(_ raw: String, allowRemote: Bool) throws -> URL {
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw ToolFailure(.usage, "--endpoint: expected an http:// URL, got '\(raw)'")
        }
        do {
            try check(url, allowRemote: allowRemote)
        } catch {
            throw ToolFailure(.usage, "--endpoint: \(error)")
        }
        return url
    }

    /// Throws unless the URL is an http(s) URL with a host, and loopback or `allowRemote`.
    public static func check(_ url: URL, allowRemote: Bool) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw EndpointError.unreachable("\(url.absoluteString) is not an http or https URL")
        }
        guard let host = normalisedHost(url) else {
            throw EndpointError.unreachable("\(url.absoluteString) names no host")
        }
        if let port = url.port, !(1...65535).contains(port) {
            throw EndpointError.unreachable("\(url.absoluteString): port \(port) is out of range")
        }
        if !allowRemote && !isLoopbackHost(host) {
            throw EndpointError.refusedRemote(host)
        }
    }

    /// The host without IPv6 brackets or a trailing root dot, lowercased; nil when empty.
    static func normalisedHost(_ url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return isLoopback(ipv4: v4)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return isLoopback(ipv6: v6)
        }
        return false
    }

    /// 127.0.0.0/8; `s_addr` is in network byte order, so the first octet is its first byte.
    static func isLoopback(ipv4 a: in_addr) -> Bool {
        withUnsafeBytes(of: a.s_addr) { $0[0] == 127 }
    }

    /// ::1, or ::ffff:127.x.y.z (an IPv4 loopback address written as IPv6).
    static func isLoopback(ipv6 a: in6_addr) -> Bool {
        withUnsafeBytes(of: a) { b in
            let zeroTen = b[0..<10].allSatisfy { $0 == 0 }
            if zeroTen && b[10] == 0 && b[11] == 0 && b[12..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return true }
            return zeroTen && b[10] == 0xff && b[11] == 0xff && b[12] == 127
        }
    }

    /// The resolved-address check the HTTP client applies to loopback URLs.
    static func isLoopback(address: UnsafePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { isLoopback(ipv4: $0.pointee.sin_addr) }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { isLoopback(ipv6: $0.pointee.sin6_addr) }
        default:
            return false
        }
    }
}
