import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET whose body is cut off past a byte limit: memory stays bounded by the limit plus one
/// network chunk, whatever the server sends or claims (`Content-Length` is checked first, but a
/// streamed body without one is counted as it arrives).
///
/// Redirects are not followed: an artifact URL is exact, and a redirect could lead off the gateway.
final class CappedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    /// Checked against where the request ended up: a redirect off the gateway is refused even if the
    /// platform followed it.
    private let allows: @Sendable (URL) -> Bool
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var received = Data()
    private var overLimit = false
    private var continuation: CheckedContinuation<Data, any Error>?

    private init(limit: Int, allows: @escaping @Sendable (URL) -> Bool) {
        self.limit = limit
        self.allows = allows
    }

    /// The body of `url`, or ``ArtifactFetchError``.
    static func fetch(
        _ url: URL, limit: Int, timeout: TimeInterval, allows: @escaping @Sendable (URL) -> Bool
    ) async throws(ArtifactFetchError) -> Data {
        let delegate = CappedDownload(limit: limit, allows: allows)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                delegate.lock.withLock { delegate.continuation = continuation }
                session.dataTask(with: url).resume()
            }
        } catch let error as ArtifactFetchError {
            throw error
        } catch {
            throw .transfer(String(describing: type(of: error)))
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if response.expectedContentLength > Int64(limit) {
            lock.withLock { overLimit = true }
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cut = lock.withLock { () -> Bool in
            guard !overLimit else { return true }
            if received.count + data.count > limit {
                overLimit = true
                return true
            }
            received.append(data)
            return false
        }
        if cut { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, body, tooLarge) = lock.withLock {
            () -> (CheckedContinuation<Data, any Error>?, Data, Bool) in
            defer { self.continuation = nil }
            return (self.continuation, received, overLimit)
        }
        guard let continuation else { return }
        if let finalURL = task.currentRequest?.url ?? task.response?.url, !allows(finalURL) {
            continuation.resume(throwing: ArtifactFetchError.foreignURL(host: finalURL.host))
        } else if tooLarge {
            continuation.resume(throwing: ArtifactFetchError.tooLarge(limit: limit, received: body.count))
        } else if let error {
            continuation.resume(throwing: ArtifactFetchError.transfer(error.localizedDescription))
        } else if let status = (task.response as? HTTPURLResponse)?.statusCode, status != 200 {
            continuation.resume(throwing: ArtifactFetchError.transfer("HTTP status \(status)"))
        } else {
            continuation.resume(returning: body)
        }
    }
}
