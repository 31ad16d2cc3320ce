import CCurl
import Foundation

/// One POST through the system libcurl, for https:// endpoints (TLS comes with it), loaded only
/// when such a request is made (CCurl), so no other run of pb-answer, pb-pack or pb-verify pays
/// for loading it. libcurl enforces the deadline itself (connect and whole request).
enum CurlTransport {
    static func post(url: URL, headers: [(String, String)], body: Data, deadline: Deadline, loopback: Bool) throws -> HTTPResponse {
        let remaining = Int(try deadline.remainingMilliseconds())
        let lines = headers.map { "\($0.0): \($0.1)" }
        var response = pbc_response()
        let code: Int32 = withCStrings(lines) { pointers in
            body.withUnsafeBytes { bytes in
                pbc_post(url.absoluteString, pointers, Int32(lines.count), bytes.baseAddress, bytes.count,
                         remaining, PlainHTTPClient.maximumResponseBytes, loopback ? 1 : 0, &response)
            }
        }
        defer { pbc_free(&response) }
        guard code == 0 else {
            if response.timed_out != 0 { throw EndpointError.timeout(deadline.seconds) }
            let why = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if response.too_large != 0 { throw EndpointError.badResponse(why) }
            throw EndpointError.unreachable(why)
        }
        let head = response.head.map { String(cString: $0) } ?? ""
        let content = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
        return HTTPResponse(status: Int(response.status), headers: Self.headers(head), body: content)
    }

    /// The header fields of the last response in `head` (a 100 Continue may come first), names
    /// lowercased.
    static func headers(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("HTTP/") {
                fields = [:]
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Calls `body` with the strings as an array of C strings that live for the call.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0).map { UnsafePointer($0) } }
        defer { for c in copies { free(UnsafeMutablePointer(mutating: c)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress ?? UnsafePointer(bitPattern: 1)!) }
    }
}
