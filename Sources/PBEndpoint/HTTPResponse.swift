import Foundation

/// An HTTP/1.1 response as read off a socket: status, headers (names lowercased) and the body
/// with any chunked transfer coding removed.
struct HTTPResponse: Equatable, Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// Parses `bytes` received so far. Returns nil while the response is incomplete; with
    /// `atEOF` the connection has closed, so a body without a length ends here.
    /// Throws when the bytes cannot be an HTTP response.
    static func parse(_ bytes: [UInt8], atEOF: Bool) throws -> HTTPResponse? {
        var offset = 0
        while true {
            guard let headEnd = find([13, 10, 13, 10], in: bytes, from: offset) else {
                if bytes.count - offset > 65_536 { throw EndpointError.badResponse("response headers exceed 64 KiB") }
                return nil
            }
            let head = String(decoding: bytes[offset..<headEnd], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status) else {
                throw EndpointError.badResponse("not an HTTP response: \(statusLine.prefix(80))")
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
            let bodyStart = headEnd + 4
            // An interim 1xx response precedes the real one on the same connection.
            if (100...199).contains(status) {
                offset = bodyStart
                continue
            }
            let rest = bytes[bodyStart...]
            if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                guard let body = try dechunk(rest) else {
                    if atEOF { throw EndpointError.unreachable("the server closed the connection mid-response") }
                    return nil
                }
                return HTTPResponse(status: status, headers: headers, body: body)
            }
            if let lengthText = headers["content-length"] {
                guard let length = Int(lengthText), length >= 0 else {
                    throw EndpointError.badResponse("bad Content-Length: \(lengthText)")
                }
                if rest.count >= length {
                    return HTTPResponse(status: status, headers: headers, body: Data(rest.prefix(length)))
                }
                if atEOF { throw EndpointError.unreachable("the server closed the connection mid-response") }
                return nil
            }
            // No length and no chunks: the body runs to the end of the connection.
            return atEOF ? HTTPResponse(status: status, headers: headers, body: Data(rest)) : nil
        }
    }

    /// Removes the chunked transfer coding; nil until the last (zero-size) chunk has arrived.
    static func dechunk(_ bytes: ArraySlice<UInt8>) throws -> Data? {
        var body = Data()
        var i = bytes.startIndex
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: i) else { return nil }
            let sizeLine = String(decoding: bytes[i..<lineEnd], as: UTF8.self)
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw EndpointError.badResponse("bad chunk size: \(sizeLine.prefix(40))")
            }
            let dataStart = lineEnd + 2
            if size == 0 { return body }  // trailers, if any, carry nothing we need
            guard bytes.endIndex >= dataStart + size + 2 else { return nil }
            body.append(contentsOf: bytes[dataStart..<(dataStart + size)])
            i = dataStart + size + 2
        }
    }

    private static func find<C: Collection>(_ needle: [UInt8], in hay: C, from start: C.Index) -> C.Index?
    where C.Element == UInt8, C.Index == Int {
        guard hay.endIndex - start >= needle.count else { return nil }
        var i = start
        while i + needle.count <= hay.endIndex {
            if hay[i] == needle[0] {
                var match = true
                for k in 1..<needle.count where hay[i + k] != needle[k] { match = false; break }
                if match { return i }
            }
            i += 1
        }
        return nil
    }
}
