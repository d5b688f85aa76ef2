import OpenClawGateway

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ArtifactFetchError {
    /// What a failed GET of `url` means for the image: a redirect off the gateway is a foreign URL (as
    /// the URL itself would have been); the rest are transfer failures with their reason.
    init(_ error: HTTPDownloadError, limit: Int, url: URL, policy: ArtifactURLPolicy) {
        switch error {
        case .tooLarge(let received):
            self = .tooLarge(limit: limit, received: received)
        case .redirected(_, let location):
            let target = location.flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
            if let target, policy.allows(target) {
                self = .transfer(error.description)
            } else {
                self = .foreignURL(host: target?.host)
            }
        case .unsupportedURL, .status, .timedOut, .truncated, .transport:
            self = .transfer(error.description)
        }
    }
}
