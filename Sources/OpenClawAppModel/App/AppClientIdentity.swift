import OpenClawProtocol

/// How the iOS app introduces itself to gateways.
public enum AppClientIdentity {
    /// `openclaw-ios` in mode `ui`: ids both protocol versions know. `platform` and `deviceFamily` are
    /// pinned by the gateway at pairing and a change asks for a new approval, so they name the OS and
    /// the kind of device, never an OS version or a model.
    public static func ios(version: String, displayName: String? = nil, deviceFamily: String = "iPhone") -> ClientInfo {
        ClientInfo(
            id: .ios,
            mode: .ui,
            version: version,
            platform: "ios",
            displayName: displayName,
            deviceFamily: deviceFamily
        )
    }
}
