import NIOCore
import NIOPosix
import NIOWebSocket
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The test gateway's WebSocket as RFC 6455 has it, which clients depend on: their liveness pings
/// answered, fragmented messages joined, an oversized one refused with 1009, a close answered with its
/// code.
@Suite("Test gateway: WebSocket framing")
struct ServerFramingTests {
    @Test func aPingIsAnsweredWithAPongCarryingItsData() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            _ = try await client.event("connect.challenge")
            try await client.socket.send(.ping, Array("are you there".utf8))
            #expect(await eventually { client.inbox.pongs == [Array("are you there".utf8)] })
            await client.close()
        }
    }

    @Test func aRequestSentInFragmentsIsJoinedAndAnswered() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            let challenge = try #require(ConnectChallenge(json: try await client.event("connect.challenge")["payload"]))
            let text = JSONSerializer.bytes(
                RequestFrame(id: "c", method: "connect", params: try HandshakeHelper().params(for: challenge)).json)
            let third = text.count / 3
            try await client.socket.send(.text, Array(text[..<third]), fin: false)
            try await client.socket.send(.continuation, Array(text[third..<(2 * third)]), fin: false)
            try await client.socket.send(.continuation, Array(text[(2 * third)...]), fin: true)
            #expect(try await client.response(id: "c")["ok"] == true)
            await client.close()
        }
    }

    @Test func aMessageFragmentedPastMaxPayloadClosesWith1009() async throws {
        try await withTestGateway(.init(maxPayload: 100_000)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let part = [UInt8](repeating: UInt8(ascii: "x"), count: 40_000)
            try await client.socket.send(.text, part, fin: false)
            try await client.socket.send(.continuation, part, fin: false)
            try? await client.socket.send(.continuation, part, fin: true)
            #expect(try await client.closeCode() == 1009)
        }
    }

    @Test func aClientsCloseIsAnsweredWithItsCode() async throws {
        try await withTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            try await client.socket.close(code: .init(codeNumber: 4001))
            #expect(try await client.closeCode() == 4001)
            #expect(await eventually { await gateway.connectionCount() == 0 })
        }
    }

    @Test func aReservedOpcodeClosesWith1002() async throws {
        try await withTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            try await client.socket.send(WebSocketOpcode(encodedWebSocketOpcode: 0x3)!, Array("?".utf8))
            #expect(try await client.closeCode() == 1002)
        }
    }

    @Test(arguments: [
        ([0x03, 0xED], 1002),  // 1005 may not be sent
        ([0x03], 1002),  // a one-byte body
        ([0x0F, 0xA0, 0xFF], 1007),  // 4000 with a reason that is not UTF-8
        ([], 1000),  // no code at all
    ])
    func aCloseIsAnsweredAsTheRFCSays(body: [UInt8], answer: Int) async throws {
        try await withTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            try await client.socket.send(.connectionClose, body)
            #expect(try await client.closeCode() == answer)
        }
    }

    @Test func invalidUTF8InATextMessageClosesWith1007() async throws {
        try await withTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            try await client.socket.send(.text, [0x7B, 0xC3, 0x28, 0x7D])
            #expect(try await client.closeCode() == 1007)
        }
    }

    @Test func aConnectionThatNeverUpgradesIsClosedByStop() async throws {
        let gateway = try await TestGateway.start()
        let idle = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: gateway.port).get()
        #expect(idle.isActive)
        await gateway.stop()
        #expect(await eventually { !idle.isActive })
        try? await idle.close()
    }
}
