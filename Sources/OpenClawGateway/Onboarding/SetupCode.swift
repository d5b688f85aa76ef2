import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A gateway's setup code (`openclaw qr`): where to connect and a short-lived, single-use bootstrap
/// token that pairs this device, optionally with the gateway's certificate fingerprint and an expiry.
///
/// Two forms: the bare base64url text of a JSON object, or the same behind `oc-pair://`. The object is
/// `{url, urls?, bootstrapToken, tlsFingerprint?, expiresAtMs?}`; `urls` lists other addresses of the
/// same gateway (LAN, tailnet), tried in order after `url`.
public struct SetupCode: Sendable, Equatable, CustomStringConvertible {
    /// At most this many addresses are tried (the gateway writes at most 8).
    public static let maxURLs = 8
    /// Longer text is not a setup code (a QR code holds a few hundred bytes).
    public static let maxLength = 8192

    /// The addresses to try, in order, without duplicates.
    public let urls: [GatewayURL]
    public let bootstrapToken: String
    /// The gateway certificate's fingerprint, for `wss://`: trusted without asking, as the code came from
    /// the gateway's owner. It never overrides a pin already stored for an address.
    public let tlsFingerprint: TLSFingerprint?
    public let expiresAt: Date?

    public init(
        urls: [GatewayURL], bootstrapToken: String, tlsFingerprint: TLSFingerprint? = nil, expiresAt: Date? = nil
    ) {
        self.urls = urls
        self.bootstrapToken = bootstrapToken
        self.tlsFingerprint = tlsFingerprint
        self.expiresAt = expiresAt
    }

    /// Reads a pasted or scanned code; `now` decides expiry.
    public init(parsing text: String, now: Date = Date()) throws(SetupCodeError) {
        var body = Substring(text.trimming(.whitespacesAndNewlines))
        guard !body.isEmpty else { throw .empty }
        guard body.utf8.count <= Self.maxLength else { throw .malformed("it is too long") }
        let scheme = "oc-pair://"
        if body.lowercased().hasPrefix(scheme) { body = body.dropFirst(scheme.count) }
        while body.hasSuffix("/") { body = body.dropLast() }
        while body.hasSuffix("=") { body = body.dropLast() }
        guard let bytes = Base64URL.decode(String(body)), !bytes.isEmpty else {
            throw .malformed("it is not base64url text")
        }
        guard let json = try? JSONParser().parse(bytes), json.objectValue != nil else {
            throw .malformed("it does not hold a JSON object")
        }
        guard let first = json["url"]?.nonEmptyStringValue else { throw .malformed("it names no gateway URL") }
        guard let token = json["bootstrapToken"]?.nonEmptyStringValue else {
            throw .malformed("it has no bootstrap token")
        }
        var urls: [GatewayURL] = []
        for text in [first] + (json["urls"]?.stringArrayValue ?? []) where urls.count < Self.maxURLs {
            let url: GatewayURL
            do {
                url = try GatewayURL(parsing: text)
            } catch {
                throw .invalidURL(text.count > 200 ? String(text.prefix(200)) + "…" : text, error)
            }
            if !urls.contains(url) { urls.append(url) }
        }
        var fingerprint: TLSFingerprint?
        if let text = json["tlsFingerprint"]?.nonEmptyStringValue {
            guard let parsed = TLSFingerprint(parsing: text) else {
                throw .malformed("its TLS fingerprint is not a SHA-256")
            }
            fingerprint = parsed
        }
        let expiresAt = WireTimestamp.epochMilliseconds(json["expiresAtMs"]).map {
            Date(timeIntervalSince1970: TimeInterval($0) / 1000)
        }
        if let expiresAt, expiresAt <= now { throw .expired(at: expiresAt) }
        self.init(urls: urls, bootstrapToken: token, tlsFingerprint: fingerprint, expiresAt: expiresAt)
    }

    /// The bare base64url form (no padding), as the gateway prints it.
    public var encoded: String {
        let members: [(String, JSONValue?)] = [
            ("url", .string(urls.first?.absoluteString)),
            ("urls", urls.count > 1 ? .strings(urls.map(\.absoluteString)) : nil),
            ("bootstrapToken", .string(bootstrapToken)),
            ("tlsFingerprint", .string(tlsFingerprint?.hex)),
            ("expiresAtMs", .int(expiresAt.map { Int($0.timeIntervalSince1970 * 1000) })),
        ]
        return Base64URL.encode(JSONSerializer.bytes(.object(dropping: members)))
    }

    /// Never shows the bootstrap token.
    public var description: String {
        "SetupCode(urls: \(urls.map(\.description)), bootstrapToken: <redacted>, tlsFingerprint: "
            + "\(tlsFingerprint?.description ?? "none"))"
    }
}

/// Why a setup code cannot be used.
public enum SetupCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// Not an OpenClaw setup code at all; says what is wrong with it, never what it contains.
    case malformed(String)
    case invalidURL(String, GatewayURLError)
    case expired(at: Date)

    public var description: String {
        switch self {
        case .empty: return "no setup code was given"
        case .malformed(let problem): return "this is not an OpenClaw setup code: \(problem)"
        case .invalidURL(let url, let error): return "the setup code's gateway address '\(url)' is not usable: \(error)"
        case .expired(let date):
            return "the setup code expired at \(date.formatted(.iso8601))"
        }
    }

    /// What to do about it.
    public var nextStep: String {
        switch self {
        case .empty, .malformed, .invalidURL:
            return "Copy the whole code (with or without oc-pair://) from the gateway host's `openclaw qr`."
        case .expired:
            return "Setup codes are short-lived and single-use: create a new one on the gateway host (`openclaw qr`)."
        }
    }
}
