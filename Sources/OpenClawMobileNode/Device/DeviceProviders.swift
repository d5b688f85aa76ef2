import OpenClawNode

/// What `device.info` reports: stable facts about the device and the app.
public struct DeviceInfo: Sendable, Hashable {
    public var deviceName: String
    public var modelIdentifier: String
    public var systemName: String
    public var systemVersion: String
    public var appVersion: String
    public var locale: String?

    public init(
        deviceName: String, modelIdentifier: String, systemName: String, systemVersion: String, appVersion: String,
        locale: String? = nil
    ) {
        self.deviceName = deviceName
        self.modelIdentifier = modelIdentifier
        self.systemName = systemName
        self.systemVersion = systemVersion
        self.appVersion = appVersion
        self.locale = locale
    }
}

/// What `device.status` reports: the device's state now.
public struct DeviceStatus: Sendable, Hashable {
    public enum BatteryState: String, Sendable, Hashable {
        case unknown, unplugged, charging, full
    }

    public enum ThermalState: String, Sendable, Hashable {
        case nominal, fair, serious, critical
    }

    /// 0…1, nil when unknown (simulator, desktop).
    public var batteryLevel: Double?
    public var batteryState: BatteryState
    public var lowPowerMode: Bool
    public var thermalState: ThermalState
    public var storageTotalBytes: Int?
    public var storageFreeBytes: Int?
    public var uptimeSeconds: Int

    public init(
        batteryLevel: Double?, batteryState: BatteryState, lowPowerMode: Bool, thermalState: ThermalState,
        storageTotalBytes: Int?, storageFreeBytes: Int?, uptimeSeconds: Int
    ) {
        self.batteryLevel = batteryLevel
        self.batteryState = batteryState
        self.lowPowerMode = lowPowerMode
        self.thermalState = thermalState
        self.storageTotalBytes = storageTotalBytes
        self.storageFreeBytes = storageFreeBytes
        self.uptimeSeconds = uptimeSeconds
    }
}

/// One position fix for `location.get`.
public struct LocationFix: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var altitudeMeters: Double?
    public var timestampMs: Int
    /// False when the person granted only approximate location.
    public var isPrecise: Bool

    public init(
        latitude: Double, longitude: Double, accuracyMeters: Double, altitudeMeters: Double? = nil, timestampMs: Int,
        isPrecise: Bool
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.altitudeMeters = altitudeMeters
        self.timestampMs = timestampMs
        self.isPrecise = isPrecise
    }
}

/// One camera for `camera.list`.
public struct CameraDevice: Sendable, Hashable {
    public enum Position: String, Sendable, Hashable {
        case front, back, external, unspecified
    }

    public var id: String
    public var name: String
    public var position: Position

    public init(id: String, name: String, position: Position) {
        self.id = id
        self.name = name
        self.position = position
    }
}

/// The device facts, behind small protocols: the app plugs in UIKit/CoreLocation/AVFoundation
/// implementations, tests plug in fakes. Each may refuse with a typed error (permission, background).
public protocol DeviceInfoProvider: Sendable {
    func info() async -> DeviceInfo
}

public protocol DeviceStatusProvider: Sendable {
    func status() async -> DeviceStatus
}

public protocol LocationProvider: Sendable {
    /// A fix no older than `maxAgeMs`, waiting at most `timeoutMs` for a new one.
    func currentLocation(maxAgeMs: Int?, timeoutMs: Int) async throws(NodeInvokeError) -> LocationFix
}

public protocol CameraProvider: Sendable {
    func cameras() async throws(NodeInvokeError) -> [CameraDevice]
}
