import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One POST through URLSession, for https:// endpoints (TLS comes with it). The caller's thread
/// waits on a semaphore for at most the deadline, then cancels the task: it never hangs.
enum URLSessionTransport {
    /// What the completion handler hands back across threads; written once, before the signal.
    private final class Outcome: @unchecked Sendable {
        var data: Data?
        var response: URLResponse?
        var error: Error?
    }

    static func post(url: URL, headers: [(String, String)], body: Data, deadline: Deadline) throws -> HTTPResponse {
        let remaining = Double(try deadline.remainingMilliseconds()) / 1000
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = remaining
        configuration.timeoutIntervalForResource = remaining
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: remaining)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            outcome.data = data
            outcome.response = response
            outcome.error = error
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + remaining) == .timedOut {
            task.cancel()
            session.invalidateAndCancel()
            throw EndpointError.timeout(deadline.seconds)
        }
        session.finishTasksAndInvalidate()
        if let error = outcome.error {
            throw map(error, deadline: deadline)
        }
        guard let http = outcome.response as? HTTPURLResponse else {
            throw EndpointError.badResponse("no HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: outcome.data ?? Data())
    }

    static func map(_ error: Error, deadline: Deadline) -> EndpointError {
        guard let urlError = error as? URLError else {
            return .unreachable(error.localizedDescription.lowercased())
        }
        switch urlError.code {
        case .timedOut: return .timeout(deadline.seconds)
        case .badServerResponse, .cannotDecodeContentData, .cannotParseResponse:
            return .badResponse("\(urlError.code.rawValue): \(urlError.localizedDescription)")
        default:
            return .unreachable("\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }
}
