import Foundation
import OpenClawGateway
import Testing

@testable import OpenClawChat

@Suite("Artifact URLs: only the gateway's own origin")
struct ArtifactURLPolicyTests {
    private let plain = ArtifactURLPolicy(gateway: GatewayURL(isSecure: false, host: "127.0.0.1", port: 18789))
    private let secure = ArtifactURLPolicy(gateway: GatewayURL(isSecure: true, host: "gw.example.test", port: 443))

    @Test func aRelativeURLResolvesAgainstTheGateway() throws {
        #expect(
            try plain.resolve("/api/chat/media/outgoing/a?ticket=t").absoluteString
                == "http://127.0.0.1:18789/api/chat/media/outgoing/a?ticket=t")
        #expect(try secure.resolve("/x").absoluteString == "https://gw.example.test:443/x")
    }

    @Test func theSameOriginWrittenOutIsAllowed() throws {
        #expect(try plain.resolve("http://127.0.0.1:18789/x").path == "/x")
        #expect(try secure.resolve("https://GW.example.test/x").path == "/x")
    }

    @Test(arguments: [
        "https://127.0.0.1:18789/x", "http://127.0.0.1:18790/x", "http://localhost:18789/x",
        "http://user:pw@127.0.0.1:18789/x", "//127.0.0.1:18789/x", "file:///etc/passwd", "media://x",
    ])
    func anythingElseIsRefused(url: String) {
        #expect(throws: ArtifactFetchError.self) { try plain.resolve(url) }
    }
}
