import OpenClawGateway

/// Why a generated image's bytes could not be had.
public enum ArtifactFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The gateway has no `artifacts.download` (before summer 2026): the image cannot be fetched.
    case unsupported
    /// The image is larger than ``ArtifactLimits/maximumImageBytes``; `received` is what had arrived
    /// when the download was cut (0 when the size was known up front).
    case tooLarge(limit: Int, received: Int)
    /// The gateway pointed the download somewhere other than itself (another host, port or scheme, or a
    /// redirect away): refused, never fetched.
    case foreignURL(host: String?)
    /// The gateway answered the request with an error, or with a shape that is no download.
    case gateway(GatewayError)
    /// The inline bytes were not base64.
    case undecodable
    /// The HTTP fetch failed (status, transport), with a short reason.
    case transfer(String)

    public var description: String {
        switch self {
        case .unsupported: "this gateway cannot send generated images (it has no artifacts.download)"
        case .tooLarge(let limit, _): "the image is larger than \(limit / 1_048_576) MiB"
        case .foreignURL(let host): "the gateway pointed the image at another server (\(host ?? "no host")): refused"
        case .gateway(let error): "the gateway would not send the image: \(error)"
        case .undecodable: "the gateway sent image bytes that are not base64"
        case .transfer(let reason): "the image could not be downloaded: \(reason)"
        }
    }
}

/// Bounds on generated images.
public enum ArtifactLimits {
    /// Upstream's per-file cap for gateway-managed assistant images (12 MiB, `nodes/media-playback.md`).
    public static let maximumImageBytes = 12 * 1_048_576
}
