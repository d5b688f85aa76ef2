import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A gateway reached by an IP address is connected to without a name lookup, and one reached by name
/// through the resolver: both kinds of host reach the same gateway, over IPv4 and IPv6.
@Suite("Connecting by address or by name")
struct AddressLiteralConnectTests {
    @Test(arguments: [("127.0.0.1", "127.0.0.1"), ("::1", "[::1]"), ("127.0.0.1", "localhost")])
    func everyKindOfHostReachesTheGateway(bind: String, urlHost: String) async throws {
        try await withTestGateway(.init(host: bind)) { gateway in
            let connection = try Harness.connection(url: "ws://\(urlHost):\(gateway.port)")
            let session = try await connection.connect()
            #expect(session.hello.server.connId.isEmpty == false)
            await connection.disconnect()
        }
    }
}
