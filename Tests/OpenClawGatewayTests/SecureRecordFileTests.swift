import Foundation
import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// Device tokens and certificate pins share one record file; these hold for both.
@Suite("Secure record files")
struct SecureRecordFileTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("openclaw-records-\(UUID().uuidString)").path

    private func inode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
    }

    @Test func aPinSavedAgainUnchangedLeavesTheFileUntouched() throws {
        let path = directory + "/credentials/tls-pins.json"
        let store = FileTLSPinStore(path: path)
        let pin = TLSPin(fingerprint: try #require(TLSFingerprint(parsing: String(repeating: "ab", count: 32))))
        try store.save(pin, for: "wss://gw:443")
        #expect(SecureFile.mode(of: path) == 0o600)
        let before = try inode(path)
        try store.save(pin, for: "wss://gw:443")
        #expect(try inode(path) == before)
    }

    @Test func theLastRecordRemovedRemovesTheFile() throws {
        let path = directory + "/credentials/tls-pins.json"
        let store = FileTLSPinStore(path: path)
        let pin = TLSPin(fingerprint: try #require(TLSFingerprint(parsing: String(repeating: "cd", count: 32))))
        try store.save(pin, for: "wss://a:443")
        try store.save(pin, for: "wss://b:443")
        try store.remove("wss://a:443")
        #expect(FileManager.default.fileExists(atPath: path))
        try store.remove("wss://b:443")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try store.all().isEmpty)
    }

    @Test func aDamagedFileIsATypedErrorAndStaysAsItWas() throws {
        let path = directory + "/credentials/device-tokens.json"
        try FileManager.default.createDirectory(atPath: directory + "/credentials", withIntermediateDirectories: true)
        try Data("{\"version\":1,\"pins\":{}}".utf8).write(to: URL(fileURLWithPath: path))
        let store = FileDeviceTokenStore(path: path)
        let key = DeviceTokenKey(gateway: "ws://a", deviceId: "d", role: "operator")
        #expect(throws: CredentialStoreError(path: path, reason: "not a device token file")) {
            try store.save(DeviceTokenRecord(token: "secret", role: "operator", scopes: []), for: key)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"version\":1,\"pins\":{}}")
    }

    @Test func oneUnreadableRecordIsDroppedNotTheWholeFile() throws {
        let path = directory + "/credentials/tls-pins.json"
        try FileManager.default.createDirectory(atPath: directory + "/credentials", withIntermediateDirectories: true)
        let good = String(repeating: "ef", count: 32)
        try Data(#"{"version":1,"pins":{"wss://bad:443":{"sha256":"zz"},"wss://good:443":{"sha256":"\#(good)"}}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let pins = try FileTLSPinStore(path: path).all()
        #expect(Array(pins.keys) == ["wss://good:443"])
    }

    /// Two store values of one file (each command makes its own) writing at once lose nothing.
    @Test func twoStoresOfOneFileLoseNoWrite() async throws {
        let path = directory + "/credentials/tls-pins.json"
        let fingerprint = try #require(TLSFingerprint(parsing: String(repeating: "ab", count: 32)))
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                let store = FileTLSPinStore(path: path)
                group.addTask {
                    for index in 0..<40 {
                        try? store.save(TLSPin(fingerprint: fingerprint), for: "wss://h\(writer)-\(index):443")
                    }
                }
            }
        }
        #expect(try FileTLSPinStore(path: path).all().count == 80)
    }
}
