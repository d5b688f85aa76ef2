import Foundation
import OpenClawGateway
import OpenClawMobileNode
import OpenClawNode
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The app's node commands over real sockets, with fake providers standing in for UIKit, CoreLocation
/// and AVFoundation.
@Suite("Mobile node")
struct MobileNodeTests {
    struct FakeInfo: DeviceInfoProvider {
        func info() async -> DeviceInfo {
            DeviceInfo(
                deviceName: "Peter's iPhone", modelIdentifier: "iPhone17,1", systemName: "iOS", systemVersion: "18.4",
                appVersion: "1.0", locale: "en-US")
        }
    }

    struct FakeStatus: DeviceStatusProvider {
        func status() async -> DeviceStatus {
            DeviceStatus(
                batteryLevel: 0.5, batteryState: .charging, lowPowerMode: false, thermalState: .nominal,
                storageTotalBytes: 128, storageFreeBytes: 64, uptimeSeconds: 42)
        }
    }

    struct FakeLocation: LocationProvider {
        let granted: Bool
        func currentLocation(maxAgeMs: Int?, timeoutMs: Int) async throws(NodeInvokeError) -> LocationFix {
            guard granted else { throw NodeInvokeError(.locationPermissionRequired, "location access not granted") }
            return LocationFix(
                latitude: 52.52, longitude: 13.405, accuracyMeters: 5, timestampMs: 1_000, isPrecise: true)
        }
    }

    struct FakeCamera: CameraProvider {
        func cameras() async throws(NodeInvokeError) -> [CameraDevice] {
            [CameraDevice(id: "back-wide", name: "Back Camera", position: .back)]
        }
    }

    struct Notifications: Notifier {
        let shown: LockedBox<[NodeNotification]>
        func show(_ notification: NodeNotification) async throws(NodeInvokeError) {
            shown.mutate { $0.append(notification) }
        }
    }

    @Test func anOperatorReadsTheDeviceAndNotifiesIt() async throws {
        try await withValidatedTestGateway { gateway in
            let shown = LockedBox<[NodeNotification]>([])
            let mobile = MobileNode(
                info: FakeInfo(), status: FakeStatus(), notifier: Notifications(shown: shown),
                location: FakeLocation(granted: false), camera: FakeCamera())
            let url = try GatewayURL(parsing: gateway.url)
            var configuration = GatewayConnectionConfiguration(
                url: url, credential: .token("test-token"),
                client: MobileNode.client(version: "1.0", displayName: "Peter's iPhone", deviceFamily: "iPhone"),
                role: "node", scopes: [], caps: MobileNode.caps, reconnect: nil)
            configuration.nodeDeclaration = mobile.declaration(permissions: ["location": false, "camera": true])
            let node = GatewayConnection(
                configuration: configuration,
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
                tokenStore: InMemoryDeviceTokenStore())
            let host = NodeHost(connection: node, commands: mobile.commands)
            await host.start()
            let nodeId = try await node.connect().deviceId
            let operatorConnection = GatewayConnection(
                configuration: GatewayConnectionConfiguration(
                    url: url, credential: .token("test-token"),
                    client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux"), reconnect: nil),
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 1)),
                tokenStore: InMemoryDeviceTokenStore())
            try await operatorConnection.connect()
            func invoke(_ command: String, _ params: JSONValue = [:]) async throws(GatewayError) -> JSONValue? {
                try await operatorConnection.request(
                    "node.invoke",
                    params: [
                        "nodeId": .string(nodeId), "command": .string(command), "params": params,
                        "idempotencyKey": .string(UUID().uuidString),
                    ])?["payload"]
            }

            #expect(try await invoke("device.info")?["modelIdentifier"]?.stringValue == "iPhone17,1")
            let status = try await invoke("device.status")
            #expect(status?["battery"]?["state"]?.stringValue == "charging")
            #expect(status?["uptimeSeconds"]?.intValue == 42)
            #expect(try await invoke("camera.list")?["devices"]?.arrayValue?.first?["position"]?.stringValue == "back")
            #expect(try await invoke("system.notify", ["title": "Build done", "body": "all green"])?["ok"] == true)
            #expect(shown.value.map(\.title) == ["Build done"])
            await #expect {
                _ = try await invoke("location.get")
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message.hasPrefix("LOCATION_PERMISSION_REQUIRED")
            }

            let listed = try await operatorConnection.request("node.list", params: [:])
            let row = listed?["nodes"]?.arrayValue?.first
            #expect(row?["clientId"]?.stringValue == "openclaw-ios")
            #expect(row?["permissions"]?["camera"]?.boolValue == true)
            await host.stop()
            await node.disconnect()
            await operatorConnection.disconnect()
        }
    }
}
