import OpenClawGateway
import OpenClawNode
import OpenClawProtocol

/// The app as a node (`client.id: "openclaw-ios"`, `mode: "node"`): device facts, notifications,
/// location and the camera list, each behind a provider the app implements with Apple's frameworks.
public struct MobileNode: Sendable {
    public var info: any DeviceInfoProvider
    public var status: any DeviceStatusProvider
    public var notifier: any Notifier
    public var location: any LocationProvider
    public var camera: any CameraProvider

    public init(
        info: any DeviceInfoProvider, status: any DeviceStatusProvider, notifier: any Notifier,
        location: any LocationProvider, camera: any CameraProvider
    ) {
        self.info = info
        self.status = status
        self.notifier = notifier
        self.location = location
        self.camera = camera
    }

    public static let caps = ["device", "location", "camera"]

    public var commands: [any NodeCommand] {
        [
            DeviceInfoCommand(provider: info), DeviceStatusCommand(provider: status),
            SystemNotifyCommand(notifier: notifier), LocationGetCommand(provider: location),
            CameraListCommand(provider: camera),
        ]
    }

    /// The declaration for `connect`; `permissions` are what the person granted (the app asks iOS).
    public func declaration(permissions: [String: Bool]) -> NodeDeclaration {
        NodeDeclaration(commands: NodeHost.commandNames(commands), permissions: permissions)
    }

    /// The node identity of the app: the same `client.id` as its operator connection, mode `node`.
    public static func client(version: String, displayName: String?, deviceFamily: String?) -> ClientInfo {
        ClientInfo(
            id: .ios, mode: .node, version: version, platform: "iOS", displayName: displayName,
            deviceFamily: deviceFamily)
    }
}
