import OpenClawNode
import OpenClawProtocol

/// Commands that take no params (`device.info`, `device.status`, `camera.list`): any object is accepted.
public struct NoParams: NodeCommandParams {
    public init(json: JSONValue?) throws(NodeInvokeError) { _ = try NodeParamReader(json) }
}

/// `device.info` → `{deviceName, modelIdentifier, systemName, systemVersion, appVersion, locale?}`.
public struct DeviceInfoCommand: NodeCommand {
    public let name = "device.info"
    public let provider: any DeviceInfoProvider

    public init(provider: any DeviceInfoProvider) {
        self.provider = provider
    }

    public struct Payload: NodeCommandPayload {
        public var info: DeviceInfo
        public var json: JSONValue {
            .object(dropping: [
                ("deviceName", .string(info.deviceName)), ("modelIdentifier", .string(info.modelIdentifier)),
                ("systemName", .string(info.systemName)), ("systemVersion", .string(info.systemVersion)),
                ("appVersion", .string(info.appVersion)), ("locale", .string(info.locale)),
            ])
        }
    }

    public func perform(_ params: NoParams, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        Payload(info: await provider.info())
    }
}

/// `device.status` → `{battery: {level?, state, lowPowerModeEnabled}, thermal: {state}, storage: {…}, uptimeSeconds}`.
public struct DeviceStatusCommand: NodeCommand {
    public let name = "device.status"
    public let provider: any DeviceStatusProvider

    public init(provider: any DeviceStatusProvider) {
        self.provider = provider
    }

    public struct Payload: NodeCommandPayload {
        public var status: DeviceStatus
        public var json: JSONValue {
            [
                "battery": .object(dropping: [
                    ("level", status.batteryLevel.map { .double(min(1, max(0, $0))) }),
                    ("state", .string(status.batteryState.rawValue)),
                    ("lowPowerModeEnabled", .bool(status.lowPowerMode)),
                ]),
                "thermal": ["state": .string(status.thermalState.rawValue)],
                "storage": .object(dropping: [
                    ("totalBytes", .int(status.storageTotalBytes)), ("freeBytes", .int(status.storageFreeBytes)),
                ]),
                "uptimeSeconds": .int(status.uptimeSeconds),
            ]
        }
    }

    public func perform(_ params: NoParams, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        Payload(status: await provider.status())
    }
}

/// `location.get {maxAgeMs?, timeoutMs?}` → `{lat, lon, accuracyMeters, altitudeMeters?, timestamp, isPrecise}`.
public struct LocationGetCommand: NodeCommand {
    public let name = "location.get"
    public let provider: any LocationProvider

    public init(provider: any LocationProvider) {
        self.provider = provider
    }

    public static let defaultTimeoutMs = 10_000

    public struct Params: NodeCommandParams {
        public var maxAgeMs: Int?
        public var timeoutMs: Int

        public init(json: JSONValue?) throws(NodeInvokeError) {
            let reader = try NodeParamReader(json)
            maxAgeMs = try reader.int("maxAgeMs").map { max(0, $0) }
            timeoutMs = min(60_000, max(1, try reader.int("timeoutMs") ?? LocationGetCommand.defaultTimeoutMs))
        }
    }

    public struct Payload: NodeCommandPayload {
        public var fix: LocationFix
        public var json: JSONValue {
            .object(dropping: [
                ("lat", .double(fix.latitude)), ("lon", .double(fix.longitude)),
                ("accuracyMeters", .double(fix.accuracyMeters)),
                ("altitudeMeters", fix.altitudeMeters.map(JSONValue.double)),
                ("timestamp", .int(fix.timestampMs)), ("isPrecise", .bool(fix.isPrecise)),
            ])
        }
    }

    public func perform(_ params: Params, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        Payload(fix: try await provider.currentLocation(maxAgeMs: params.maxAgeMs, timeoutMs: params.timeoutMs))
    }
}

/// `camera.list` → `{devices: [{id, name, position}]}`. Listing only: taking pictures is a separate,
/// "dangerous" command the gateway must enable explicitly.
public struct CameraListCommand: NodeCommand {
    public let name = "camera.list"
    public let provider: any CameraProvider

    public init(provider: any CameraProvider) {
        self.provider = provider
    }

    public struct Payload: NodeCommandPayload {
        public var devices: [CameraDevice]
        public var json: JSONValue {
            [
                "devices": .array(
                    devices.map {
                        ["id": .string($0.id), "name": .string($0.name), "position": .string($0.position.rawValue)]
                    })
            ]
        }
    }

    public func perform(_ params: NoParams, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        Payload(devices: try await provider.cameras())
    }
}
