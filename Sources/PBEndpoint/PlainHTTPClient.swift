import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in time after which a request has failed: every blocking step (connect, send, each
/// receive) waits in `poll` for at most what is left, so the whole request honours one timeout.
struct Deadline: Sendable {
    let seconds: Double
    private let end: UInt64

    init(seconds: Double) {
        self.seconds = seconds
        end = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(seconds, 0) * 1e9)
    }

    /// Milliseconds left, rounded up so a nearly spent deadline still polls once; throws when spent.
    func remainingMilliseconds() throws -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < end else { throw EndpointError.timeout(seconds) }
        return Int32(min((end - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }
}

/// One HTTP/1.1 POST over a plain TCP socket (`Connection: close`), for http:// endpoints.
///
/// Written on sockets rather than libcurl so that the deadline is exact, nothing runs on
/// another thread, and no proxy settings from the environment can route a loopback request off
/// the machine. With `loopbackOnly`, resolved addresses that are not loopback are never dialled.
enum PlainHTTPClient {
    /// The largest response read before giving up: chat answers are kilobytes.
    static let maximumResponseBytes = 32 << 20

    static func post(host: String, port: Int, path: String, headers: [(String, String)], body: Data,
                     deadline: Deadline, loopbackOnly: Bool) throws -> HTTPResponse {
        let fd = try dial(host: host, port: port, deadline: deadline, loopbackOnly: loopbackOnly)
        defer { close(fd) }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        try transmit(fd, Array(head.utf8) + Array(body), deadline: deadline)
        return try receive(fd, deadline: deadline)
    }

    /// Resolves and connects, trying each address in turn; non-blocking so `poll` bounds the wait.
    static func dial(host: String, port: Int, deadline: Deadline, loopbackOnly: Bool) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamSocket
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0 else {
            throw EndpointError.unreachable("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var skipped = 0
        var node = list
        while let ai = node {
            node = ai.pointee.ai_next
            guard let address = ai.pointee.ai_addr else { continue }
            if loopbackOnly && !EndpointPolicy.isLoopback(address: address) { skipped += 1; continue }
            let fd = socket(ai.pointee.ai_family, Self.streamSocket, ai.pointee.ai_protocol)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if connect(fd, address, ai.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = String(cString: strerror(errno))
                close(fd)
                continue
            }
            do {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            } catch {
                close(fd)
                throw error
            }
            var soError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
            if soError == 0 { return fd }
            lastError = String(cString: strerror(soError))
            close(fd)
        }
        if skipped > 0 && lastError == "no address for \(host)" {
            throw EndpointError.refusedRemote("\(host) (resolves to no loopback address)")
        }
        throw EndpointError.unreachable("\(host):\(port): \(lastError.lowercased())")
    }

    static func transmit(_ fd: Int32, _ bytes: [UInt8], deadline: Deadline) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { sent += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                continue
            }
            throw EndpointError.unreachable("the server closed the connection while the request was sent (\(String(cString: strerror(errno)).lowercased()))")
        }
    }

    static func receive(_ fd: Int32, deadline: Deadline) throws -> HTTPResponse {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            try wait(fd, for: Int16(POLLIN), deadline: deadline)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                bytes += chunk[0..<n]
                if bytes.count > maximumResponseBytes {
                    throw EndpointError.badResponse("response larger than \(maximumResponseBytes >> 20) MiB")
                }
                if let response = try HTTPResponse.parse(bytes, atEOF: false) { return response }
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            if n < 0 && errno != ECONNRESET {
                throw EndpointError.unreachable("receiving: \(String(cString: strerror(errno)).lowercased())")
            }
            // End of stream (or a reset): whatever arrived must be a whole response.
            if bytes.isEmpty { throw EndpointError.unreachable("the server closed the connection without answering") }
            if let response = try HTTPResponse.parse(bytes, atEOF: true) { return response }
            throw EndpointError.unreachable("the server closed the connection mid-response")
        }
    }

    /// Waits until `fd` is ready for `events` (or has failed or hung up, which the next call
    /// reports); throws when the deadline passes first.
    static func wait(_ fd: Int32, for events: Int16, deadline: Deadline) throws {
        while true {
            var p = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&p, 1, try deadline.remainingMilliseconds())
            if rc > 0 { return }
            if rc == 0 { throw EndpointError.timeout(deadline.seconds) }
            if errno != EINTR { throw EndpointError.unreachable("poll: \(String(cString: strerror(errno)).lowercased())") }
        }
    }

    #if os(Linux)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    static let streamSocket = SOCK_STREAM
    #endif
}
