import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A token in the URL (`?token=…`) never reaches text or a storage key.
@Suite("Secrets in URLs")
struct URLSecretsTests {
    @Test func theQueryIsRedactedInEveryDescription() throws {
        let url = try GatewayURL(parsing: "ws://gw.local:18789/ws?token=s3cr3t-in-url")
        #expect(!url.description.contains("s3cr3t"))
        #expect(url.description == "ws://gw.local:18789/ws?<redacted>")
        #expect(url.storageIdentity == "ws://gw.local:18789/ws")
        #expect(url.absoluteString.contains("s3cr3t"), "kept for saving what the person typed")
        let error = GatewayError.transport(.connectionRefused(host: url.host, port: url.port))
        #expect(!String(describing: error).contains("s3cr3t"))
        #expect(throws: GatewayURLError.credentialsInURL) { try GatewayURL(parsing: "ws://user:pw@gw.local") }
    }

    @Test func theDeviceTokenKeyHasNoQuery() async throws {
        try await withTestGateway { gateway in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("url-secrets-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("device-tokens.json").path
            let store = FileDeviceTokenStore(path: path)
            let connection = try Harness.connection(url: "\(gateway.url)/?token=s3cr3t-in-url", tokenStore: store)
            try await connection.connect()
            await connection.disconnect()
            let file = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!file.contains("s3cr3t"))
            #expect(file.contains("ws://127.0.0.1:\(gateway.port)|"))
        }
    }
}

/// Loopback is decided on the parsed address: a plaintext link and silent pairing rest on it.
@Suite("Loopback hosts")
struct LoopbackHostTests {
    @Test(arguments: [
        "ws://127.0.0.1:18789", "ws://127.8.9.10", "ws://localhost", "ws://LOCALHOST.", "ws://[::1]:1",
        "ws://[0:0:0:0:0:0:0:1]", "ws://[::ffff:127.0.0.1]",
    ])
    func loopbackAddresses(_ address: String) throws {
        #expect(try GatewayURL(parsing: address).isLoopback)
    }

    @Test(arguments: [
        "ws://127.0.0.1.attacker.example", "ws://127.evil", "ws://127.1", "ws://localhost.attacker.example",
        "ws://[::2]", "ws://10.0.0.1", "ws://mini.local", "ws://[::ffff:10.0.0.1]", "ws://0x7f000001",
    ])
    func namesThatOnlyLookLocal(_ address: String) throws {
        #expect(try !GatewayURL(parsing: address).isLoopback)
    }
}
