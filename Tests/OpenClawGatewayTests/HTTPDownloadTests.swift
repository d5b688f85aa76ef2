import Foundation
import OpenClawGateway
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The capped GET a generated image is fetched with, against hostile HTTP servers and a self-signed
/// TLS gateway on 127.0.0.1: the body is cut at the limit while it streams, redirects and silences are
/// refused, and the certificate is trusted exactly as the WebSocket's is.
@Suite("Capped HTTP downloads over real sockets")
struct HTTPDownloadTests {
    private static let limit = 1_048_576
    private let transport = LiveWebSocketTransport()

    private func download(
        _ url: String, with transport: LiveWebSocketTransport? = nil, idleTimeout: Duration = .seconds(10)
    ) async -> Result<Data, HTTPDownloadError> {
        guard let url = URL(string: url) else { return .failure(.unsupportedURL) }
        do throws(HTTPDownloadError) {
            return .success(
                try await (transport ?? self.transport).download(url, limit: Self.limit, idleTimeout: idleTimeout))
        } catch {
            return .failure(error)
        }
    }

    private func withServer(
        _ reply: ScriptedHTTPServer.Reply, _ body: (ScriptedHTTPServer) async throws -> Void
    ) async throws {
        let server = try await ScriptedHTTPServer.start(reply)
        do {
            try await body(server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func aBodyWithinTheLimitArrivesWhole() async throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await withServer(.body(bytes)) { server in
            #expect(await download(server.url()) == .success(Data(bytes)))
        }
    }

    /// The server would send 256 MiB; the client keeps at most the limit and hangs up, so the server
    /// stops long before (the socket buffers hold a few MiB at most).
    @Test(arguments: [ScriptedHTTPServer.Framing.chunked, .untilClose])
    func anEndlessBodyIsCutWhileItStreams(framing: ScriptedHTTPServer.Framing) async throws {
        try await withServer(.endless(framing)) { server in
            let result = await download(server.url())
            guard case .failure(.tooLarge(let received)) = result else {
                Issue.record("expected tooLarge, got \(result)")
                return
            }
            #expect(received > 0 && received <= Self.limit, "kept \(received)")
            #expect(await eventually { server.observed.connectionsClosed == 1 })
            #expect(server.observed.bodyBytesWritten < 64 * 1_048_576, "\(server.observed)")
        }
    }

    @Test func aStatedLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
        try await withServer(.endless(.contentLength(ScriptedHTTPServer.endlessCap))) { server in
            #expect(await download(server.url()) == .failure(.tooLarge(received: 0)))
            #expect(await eventually { server.observed.connectionsClosed == 1 })
            #expect(server.observed.bodyBytesWritten < 64 * 1_048_576, "\(server.observed)")
        }
    }

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectIsRefusedNotFollowed(status: Int) async throws {
        try await withServer(.redirect(status: status, location: "/elsewhere.png")) { server in
            let result = await download(server.url())
            #expect(result == .failure(.redirected(status: status, location: "/elsewhere.png")))
            #expect(server.observed.requests == 1, "the redirect was followed: \(server.observed)")
        }
    }

    /// The server states 1,000 bytes, sends ten and goes silent (it hangs up only after 30 s).
    @Test func aSilentServerTimesOut() async throws {
        try await withServer(.stall) { server in
            #expect(await download(server.url(), idleTimeout: .milliseconds(300)) == .failure(.timedOut))
        }
    }

    @Test func nothingListeningIsATransportFailure() async throws {
        let server = try await ScriptedHTTPServer.start(.stall)
        let url = server.url()
        await server.stop()
        guard case .failure(.transport(.connectionRefused)) = await download(url) else {
            Issue.record("expected connectionRefused")
            return
        }
    }

    // MARK: TLS, as the WebSocket trusts it

    /// A path the gateway answers with 404: reaching that status means the certificate was accepted.
    private func missingImage(_ gateway: TestGateway) -> String {
        "https://127.0.0.1:\(gateway.port)/api/chat/media/outgoing/none?ticket=none"
    }

    @Test func aPinnedSelfSignedCertificateIsTrusted() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let pins = InMemoryTLSPinStore()
            try pins.save(
                TLSPin(fingerprint: try #require(gateway.tlsFingerprint)), for: "wss://127.0.0.1:\(gateway.port)")
            let pinned = LiveWebSocketTransport(tlsTrust: TLSTrust(pinStore: pins))
            #expect(await download(missingImage(gateway), with: pinned) == .failure(.status(404)))
        }
    }

    @Test func theSameCertificateUnpinnedIsRefused() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let unpinned = LiveWebSocketTransport(tlsTrust: TLSTrust(pinStore: InMemoryTLSPinStore()))
            for transport in [unpinned, LiveWebSocketTransport()] {
                guard case .failure(.transport(.tlsFailed)) = await download(missingImage(gateway), with: transport)
                else {
                    Issue.record("expected the system trust store to refuse a self-signed certificate")
                    return
                }
            }
        }
    }

    @Test func anotherPinIsAPinMismatch() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let pins = InMemoryTLSPinStore()
            let other = TLSFingerprint(certificateDER: Array("another certificate".utf8))
            try pins.save(TLSPin(fingerprint: other), for: "wss://127.0.0.1:\(gateway.port)")
            let transport = LiveWebSocketTransport(tlsTrust: TLSTrust(pinStore: pins))
            guard
                case .failure(.transport(.tlsTrust(.pinMismatch(_, let pinned, let observed)))) =
                    await download(missingImage(gateway), with: transport)
            else {
                Issue.record("expected a pin mismatch")
                return
            }
            #expect(pinned == other)
            #expect(observed == gateway.tlsFingerprint)
        }
    }

    @Test func aPinnedHostIsNotFetchedOverPlainHTTP() async throws {
        try await withServer(.body([1, 2, 3])) { server in
            let pins = InMemoryTLSPinStore()
            try pins.save(
                TLSPin(fingerprint: TLSFingerprint(certificateDER: [1])), for: "wss://127.0.0.1:\(server.port)")
            let transport = LiveWebSocketTransport(tlsTrust: TLSTrust(pinStore: pins))
            guard
                case .failure(.transport(.tlsTrust(.pinnedHostOverPlaintext))) = await download(
                    server.url(), with: transport)
            else {
                Issue.record("expected a refusal before connecting")
                return
            }
            #expect(server.observed.requests == 0)
        }
    }
}
