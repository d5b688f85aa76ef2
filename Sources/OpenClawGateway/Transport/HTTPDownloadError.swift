/// Why a capped GET on the gateway's origin brought no body.
public enum HTTPDownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `http` or `https` with a host.
    case unsupportedURL
    /// The body is longer than the limit: cut off once `received` bytes had arrived (0 when the
    /// `Content-Length` said so up front). Nothing past the limit was kept.
    case tooLarge(received: Int)
    /// The server answered with a redirect (3xx), which is never followed; `location` is its
    /// `Location` header as sent, if any.
    case redirected(status: Int, location: String?)
    /// The server answered with another status than 200.
    case status(Int)
    /// Nothing arrived for longer than the idle timeout (connecting, the TLS handshake or the body).
    case timedOut
    /// The connection ended before the whole body had arrived.
    case truncated(received: Int)
    /// The socket could not be opened, or its certificate was not trusted (as the WebSocket's would
    /// not be).
    case transport(TransportError)

    public var description: String {
        switch self {
        case .unsupportedURL: "only http and https URLs with a host can be fetched"
        case .tooLarge(let received): "the body is larger than allowed (cut after \(received) bytes)"
        case .redirected(let status, _): "the server redirected (HTTP \(status)); redirects are not followed"
        case .status(let status): "HTTP status \(status)"
        case .timedOut: "the server sent nothing for too long"
        case .truncated(let received): "the connection ended after \(received) bytes, before the body was complete"
        case .transport(let error): error.description
        }
    }
}
