import Foundation
import OpenClawProtocol
import Testing

@testable import OpenClawGateway

@Suite("Identity and credential files")
struct StoreTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("openclaw-store-\(UUID().uuidString)").path

    @Test func identityIsCreatedOnceWithMode0600AndReloaded() throws {
        let path = directory + "/identity/device.json"
        let first = try FileDeviceIdentityStore(path: path).loadOrCreate()
        #expect(SecureFile.mode(of: path) == 0o600)
        #expect(SecureFile.mode(of: directory + "/identity") == 0o700)
        let second = try FileDeviceIdentityStore(path: path).loadOrCreate()
        #expect(first.deviceId == second.deviceId)
        #expect(first.privateKeySeed == second.privateKeySeed)
    }

    @Test func aCorruptIdentityFileIsAClearErrorNotACrash() throws {
        let path = directory + "/identity/device.json"
        try FileManager.default.createDirectory(atPath: directory + "/identity", withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: DeviceIdentityError.self) { try FileDeviceIdentityStore(path: path).loadOrCreate() }
    }

    @Test func deviceTokensArePerGatewayDeviceAndRoleWithMode0600() throws {
        let path = directory + "/credentials/device-tokens.json"
        let store = FileDeviceTokenStore(path: path)
        let keyA = DeviceTokenKey(gateway: "ws://a", deviceId: "d", role: "operator")
        let keyB = DeviceTokenKey(gateway: "ws://b", deviceId: "d", role: "operator")
        try store.save(DeviceTokenRecord(token: "secret-a", role: "operator", scopes: ["operator.read"]), for: keyA)
        #expect(SecureFile.mode(of: path) == 0o600)
        #expect(try FileDeviceTokenStore(path: path).load(keyA)?.token == "secret-a")
        #expect(try store.load(keyB) == nil)
        try store.remove(keyA)
        #expect(try FileDeviceTokenStore(path: path).load(keyA) == nil)
    }

    @Test func savingTheSameTokenAgainLeavesTheFileUntouched() throws {
        let path = directory + "/credentials/device-tokens.json"
        let store = FileDeviceTokenStore(path: path)
        let key = DeviceTokenKey(gateway: "ws://a", deviceId: "d", role: "operator")
        let record = DeviceTokenRecord(token: "secret-a", role: "operator", scopes: ["operator.read"], issuedAtMs: 5)
        try store.save(record, for: key)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        // Every hello-ok hands the token over again; an unchanged one is not rewritten (no temp file, no fsync).
        try store.save(record, for: key)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        var renewed = record
        renewed.issuedAtMs = 6
        try store.save(renewed, for: key)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int != inode)
        #expect(try FileDeviceTokenStore(path: path).load(key)?.issuedAtMs == 6)
    }

    @Test func aTokenRecordNeverPrintsItsToken() {
        let record = DeviceTokenRecord(token: "super-secret", role: "operator", scopes: [])
        #expect(!"\(record)".contains("super-secret"))
        #expect(!String(reflecting: record).contains("super-secret"))
        #expect(!"\(GatewayCredential.token("super-secret"))".contains("super-secret"))
    }
}

@Suite("Gateway URLs")
struct GatewayURLTests {
    @Test func parsesWhatPeoplePaste() throws {
        #expect(
            try GatewayURL(parsing: "ws://127.0.0.1:18789")
                == GatewayURL(isSecure: false, host: "127.0.0.1", port: 18789))
        #expect(
            try GatewayURL(parsing: "wss://gw.example.com")
                == GatewayURL(isSecure: true, host: "gw.example.com", port: 443))
        #expect(
            try GatewayURL(parsing: "https://gw.example.com/ws")
                == GatewayURL(isSecure: true, host: "gw.example.com", port: 443, path: "/ws"))
        #expect(try GatewayURL(parsing: "mini.local") == GatewayURL(isSecure: false, host: "mini.local", port: 18789))
        #expect(try GatewayURL(parsing: " [::1]:9000 ") == GatewayURL(isSecure: false, host: "::1", port: 9000))
        #expect(try GatewayURL(parsing: "ws://h:1/p?x=1").query == "x=1")
        // ws:// without a port is the gateway's port; the web schemes keep theirs (a proxy publishes them).
        #expect(
            try GatewayURL(parsing: "ws://mini.local") == GatewayURL(isSecure: false, host: "mini.local", port: 18789))
        #expect(
            try GatewayURL(parsing: "http://proxy.example")
                == GatewayURL(isSecure: false, host: "proxy.example", port: 80))
        #expect(try GatewayURL(parsing: "ws://h:80").description == "ws://h:80")
        #expect(try GatewayURL(parsing: GatewayURL(parsing: "ws://h:80").absoluteString).port == 80)
        #expect(try GatewayURL(parsing: "ws://h:80").storageIdentity == "ws://h")
    }

    @Test func rejectsWhatCannotWork() {
        #expect(throws: GatewayURLError.unsupportedScheme("ftp")) { try GatewayURL(parsing: "ftp://h") }
        #expect(throws: GatewayURLError.invalidPort("99999")) { try GatewayURL(parsing: "ws://h:99999") }
        #expect(throws: GatewayURLError.credentialsInURL) { try GatewayURL(parsing: "ws://user:secret@h") }
        #expect(throws: GatewayURLError.empty) { try GatewayURL(parsing: "  ") }
    }

    @Test func printsCanonically() throws {
        #expect(try GatewayURL(parsing: "ws://127.0.0.1:18789").description == "ws://127.0.0.1:18789")
        #expect(try GatewayURL(parsing: "wss://h:443/").description == "wss://h")
        #expect(try GatewayURL(parsing: "ws://localhost").isLoopback)
    }
}

@Suite("Frame redaction")
struct FrameRedactorTests {
    @Test func removesEverySecretWhereverItIs() {
        let frame =
            #"{"type":"req","id":"1","method":"connect","params":{"auth":{"token":"gw-secret","deviceToken":"dev-secret","password":"pw"},"device":{"signature":"sig","publicKey":"pk"}}}"#
        let redacted = FrameRedactor.redactedText(frame)
        for secret in ["gw-secret", "dev-secret", "\"pw\"", "\"sig\""] {
            #expect(!redacted.contains(secret))
        }
        #expect(redacted.contains("\"pk\""))
        #expect(FrameRedactor.redactedText("not json token=abc") == "<18 bytes, not JSON>")
    }
}
