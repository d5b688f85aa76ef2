import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `wss://` to a self-signed gateway over a real TLS socket: first use, exact match later, hard failure
/// on a change, an expired certificate, and a pin that stays with the address it was made for.
@Suite("TLS pinning over a real TLS socket")
struct TLSPinningTests {
    private func connection(_ url: String, trust: TLSTrust) throws -> GatewayConnection {
        try Harness.connection(url: url, transport: LiveWebSocketTransport(tlsTrust: trust))
    }

    private func tlsFailure(_ error: GatewayError) -> TLSTrustFailure? {
        if case .transport(.tlsTrust(let failure)) = error { return failure }
        return nil
    }

    @Test func firstUseIsRefusedWithTheFingerprintUntilThePersonTrustsIt() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let url = "wss://localhost:\(gateway.port)"
            let pins = InMemoryTLSPinStore()
            let fingerprint = try #require(gateway.tlsFingerprint)

            // No pin and no consent: the system does not trust a self-signed certificate; the error
            // carries the fingerprint so the person can compare it with the gateway's.
            let refused = try connection(url, trust: TLSTrust(pinStore: pins))
            let error = await #expect(throws: GatewayError.self) { try await refused.connect() }
            guard case .firstUse(let host, let certificate)? = error.flatMap(tlsFailure) else {
                Issue.record("expected a first-use refusal, got \(String(describing: error))")
                return
            }
            #expect(host == "localhost")
            #expect(certificate.fingerprint == fingerprint)
            #expect(error?.isRetryable == false)
            #expect(try pins.all().isEmpty)

            // Trust on first use: connects and pins exactly that certificate for this address.
            let trusting = try connection(url, trust: TLSTrust(pinStore: pins, trustOnFirstUse: true))
            let session = try await trusting.connect()
            #expect(session.protocolVersion.rawValue == 4)
            await trusting.disconnect()
            #expect(try pins.pin(for: "wss://localhost:\(gateway.port)")?.fingerprint == fingerprint)

            // Later connections need no consent: the pin matches.
            let later = try connection(url, trust: TLSTrust(pinStore: pins))
            _ = try await later.connect()
            await later.disconnect()
        }
    }

    @Test func anExpectedFingerprintConnectsAndIsPinned() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let pins = InMemoryTLSPinStore()
            let fingerprint = try #require(gateway.tlsFingerprint)
            let expected = try #require(TLSFingerprint(parsing: "SHA256:" + fingerprint.hex.uppercased()))
            let connection = try connection(
                "wss://127.0.0.1:\(gateway.port)", trust: TLSTrust(pinStore: pins, expectedFingerprint: expected))
            _ = try await connection.connect()
            await connection.disconnect()
            #expect(try pins.pin(for: "wss://127.0.0.1:\(gateway.port)")?.fingerprint == fingerprint)
        }
    }

    /// A self-signed certificate made for the gateway's own name, reached by another name (or an IP): the
    /// fingerprint is the trust, so the names it lists do not matter.
    @Test func aPinnedCertificateThatDoesNotNameTheAddressStillConnects() async throws {
        var tls = TestGatewayTLS(dnsNames: ["gateway.home.arpa"])
        tls.namesLoopback = false
        try await withTestGateway(TestGatewayConfiguration(tls: tls)) { gateway in
            let fingerprint = try #require(gateway.tlsFingerprint)
            let pins = InMemoryTLSPinStore()
            let connection = try connection(
                "wss://localhost:\(gateway.port)", trust: TLSTrust(pinStore: pins, expectedFingerprint: fingerprint))
            #expect(try await connection.connect().protocolVersion.rawValue == 4)
            await connection.disconnect()
            #expect(try pins.pin(for: "wss://localhost:\(gateway.port)")?.fingerprint == fingerprint)
        }
    }

    @Test func aChangedCertificateFailsHardShowingBothFingerprints() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let url = "wss://localhost:\(gateway.port)"
            let observed = try #require(gateway.tlsFingerprint)
            let pinned = TLSFingerprint(certificateDER: Array("the certificate this gateway used to have".utf8))
            let pins = InMemoryTLSPinStore()
            try pins.save(TLSPin(fingerprint: pinned), for: "wss://localhost:\(gateway.port)")

            // Even with consent to trust on first use and the right fingerprint offered (as a setup code
            // or a discovery record would), a stored pin is never overridden.
            let trust = TLSTrust(pinStore: pins, expectedFingerprint: observed, trustOnFirstUse: true)
            let connection = try connection(url, trust: trust)
            let error = await #expect(throws: GatewayError.self) { try await connection.connect() }
            #expect(
                error.flatMap(tlsFailure) == .pinMismatch(host: "localhost", pinned: pinned, observed: observed))
            let message = try #require(error?.message)
            #expect(message.contains(pinned.description) && message.contains(observed.description))
            #expect(error?.nextStep?.contains("trust --forget") == true)
            #expect(try pins.pin(for: "wss://localhost:\(gateway.port)")?.fingerprint == pinned)
            #expect(await gateway.receivedConnectParams().isEmpty)
        }
    }

    @Test func aWrongExpectedFingerprintIsRefused() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let observed = try #require(gateway.tlsFingerprint)
            let expected = TLSFingerprint(certificateDER: [1, 2, 3])
            let pins = InMemoryTLSPinStore()
            let connection = try connection(
                "wss://localhost:\(gateway.port)", trust: TLSTrust(pinStore: pins, expectedFingerprint: expected))
            let error = await #expect(throws: GatewayError.self) { try await connection.connect() }
            #expect(
                error.flatMap(tlsFailure)
                    == .fingerprintMismatch(host: "localhost", expected: expected, observed: observed))
            #expect(try pins.all().isEmpty)
        }
    }

    @Test func anExpiredCertificateIsNeverAcceptedNotEvenWhenPinned() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: .expired)) { gateway in
            let url = "wss://localhost:\(gateway.port)"
            let fingerprint = try #require(gateway.tlsFingerprint)
            let pins = InMemoryTLSPinStore()

            // First use: the system refuses it, and the reason shown is the expiry, not "untrusted".
            let plain = try connection(url, trust: TLSTrust(pinStore: pins))
            let first = await #expect(throws: GatewayError.self) { try await plain.connect() }
            guard case .outsideValidity(_, let certificate)? = first.flatMap(tlsFailure) else {
                Issue.record("expected an expiry refusal, got \(String(describing: first))")
                return
            }
            #expect(certificate.fingerprint == fingerprint)
            #expect(first?.message.contains("expired on") == true)

            // Consent to trust on first use does not pin an expired certificate.
            let trusting = try connection(url, trust: TLSTrust(pinStore: pins, trustOnFirstUse: true))
            let second = await #expect(throws: GatewayError.self) { try await trusting.connect() }
            #expect(second.flatMap(tlsFailure) == .outsideValidity(host: "localhost", certificate: certificate))
            #expect(try pins.all().isEmpty)

            // A pin of exactly this certificate does not make it good either.
            try pins.save(TLSPin(fingerprint: fingerprint), for: "wss://localhost:\(gateway.port)")
            let pinned = try connection(url, trust: TLSTrust(pinStore: pins))
            let third = await #expect(throws: GatewayError.self) { try await pinned.connect() }
            #expect(third.flatMap(tlsFailure) == .outsideValidity(host: "localhost", certificate: certificate))
        }
    }

    @Test func aPinBelongsToTheAddressItWasMadeForNotToAnotherHostName() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            let fingerprint = try #require(gateway.tlsFingerprint)
            let pins = InMemoryTLSPinStore()
            try pins.save(TLSPin(fingerprint: fingerprint), for: "wss://localhost:\(gateway.port)")

            let pinnedHost = try connection("wss://localhost:\(gateway.port)", trust: TLSTrust(pinStore: pins))
            _ = try await pinnedHost.connect()
            await pinnedHost.disconnect()

            // The same machine under another name has no pin: first use again, never silent trust.
            let otherHost = try connection("wss://127.0.0.1:\(gateway.port)", trust: TLSTrust(pinStore: pins))
            let error = await #expect(throws: GatewayError.self) { try await otherHost.connect() }
            guard case .firstUse(let host, let certificate)? = error.flatMap(tlsFailure) else {
                Issue.record("expected a first-use refusal, got \(String(describing: error))")
                return
            }
            #expect(host == "127.0.0.1")
            #expect(certificate.fingerprint == fingerprint)
        }
    }

    @Test func plainWebSocketsAreUntouchedByTheTrustSettings() async throws {
        try await withTestGateway(TestGatewayConfiguration()) { gateway in
            let pins = InMemoryTLSPinStore()
            let connection = try connection(gateway.url, trust: TLSTrust(pinStore: pins, trustOnFirstUse: true))
            _ = try await connection.connect()
            await connection.disconnect()
            #expect(try pins.all().isEmpty)
        }
    }

    @Test func fingerprintsParseInTheFormsPeopleCopy() throws {
        let hex = String(repeating: "ab", count: 32)
        let colons = stride(from: 0, to: 64, by: 2).map { index -> String in
            let start = hex.index(hex.startIndex, offsetBy: index)
            return String(hex[start..<hex.index(start, offsetBy: 2)]).uppercased()
        }.joined(separator: ":")
        for text in [hex, "sha256:\(hex)", "SHA-256:\(colons)", " \(colons) "] {
            #expect(TLSFingerprint(parsing: text)?.hex == hex, "\(text)")
        }
        for bad in ["", "sha256:", String(hex.dropLast()), hex + "0", "md5:\(hex)", String(repeating: "zz", count: 32)]
        {
            #expect(TLSFingerprint(parsing: bad) == nil, "\(bad)")
        }
        #expect(TLSFingerprint(parsing: hex)?.description == "sha256:\(hex)")
    }

    @Test func thePinFileIsPrivateAndKeyedWithoutPathOrQuery() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileTLSPinStore(path: directory.path + "/credentials/tls-pins.json")
        let url = try GatewayURL(parsing: "wss://Gateway.Local:8443/ws?token=secret")
        #expect(url.tlsPinKey == "wss://gateway.local:8443")
        let fingerprint = TLSFingerprint(certificateDER: [9, 9, 9])
        try store.save(TLSPin(fingerprint: fingerprint, pinnedAtMs: 5), for: url.tlsPinKey)
        #expect(SecureFile.mode(of: store.path) == 0o600)
        #expect(
            try FileTLSPinStore(path: store.path).pin(for: url.tlsPinKey)
                == TLSPin(fingerprint: fingerprint, pinnedAtMs: 5))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(!text.contains("secret"))
    }
}
