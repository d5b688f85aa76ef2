import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// Generated images from a `wss://` gateway with a self-signed certificate: the image is fetched with
/// the connection's certificate pin, so a gateway the person trusted serves its images too, and one
/// whose pin is gone (or another certificate) does not.
@MainActor
@Suite("Generated images over a pinned TLS gateway")
struct PinnedArtifactTests {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let pins = InMemoryTLSPinStore()

    private func pinnedTrust(_ gateway: TestGateway) throws -> TLSTrust {
        let fingerprint = try #require(gateway.tlsFingerprint)
        try pins.save(TLSPin(fingerprint: fingerprint), for: "wss://127.0.0.1:\(gateway.port)")
        return TLSTrust(pinStore: pins)
    }

    private var configuration: TestGatewayConfiguration {
        TestGatewayConfiguration(protocolNumber: 4, tls: TestGatewayTLS())
    }

    private func drawnImage(_ fixture: ChatFixture) async throws -> ArtifactImageReference {
        _ = await fixture.viewModel.send("draw a cat")
        let found = await eventually(timeout: .seconds(20), every: .milliseconds(100)) {
            await fixture.viewModel.refreshHistoryAndWait()
            return !fixture.viewModel.artifactImages.isEmpty
        }
        #expect(found, "the reply's image block never showed")
        return try #require(fixture.viewModel.artifactImages.first)
    }

    @Test func thePinnedCertificateServesTheImage() async throws {
        try await ChatHarness.withViewModel(configuration, tlsTrust: pinnedTrust) { fixture in
            #expect(fixture.gateway.url.hasPrefix("wss://127.0.0.1:"))
            let image = try await drawnImage(fixture)
            let bytes = try await fixture.viewModel.artifactImage(image.artifactId).get()
            #expect(bytes.data.count == 4096)
            #expect(Array(bytes.data.prefix(8)) == Self.pngSignature)
        }
    }

    @Test func withoutThePinTheSameImageIsRefused() async throws {
        try await ChatHarness.withViewModel(configuration, tlsTrust: pinnedTrust) { fixture in
            let image = try await drawnImage(fixture)
            // The person forgets the pin while connected: the image is fetched under the system's trust
            // store, which does not know a self-signed certificate.
            try pins.remove("wss://127.0.0.1:\(fixture.gateway.port)")
            let result = await fixture.viewModel.artifactImage(image.artifactId)
            guard case .failure(.transfer(let reason)) = result else {
                Issue.record("expected a refused transfer, got \(result)")
                return
            }
            #expect(reason.contains("TLS"), "\(reason)")
        }
    }

    @Test func anotherPinnedCertificateRefusesTheImage() async throws {
        try await ChatHarness.withViewModel(configuration, tlsTrust: pinnedTrust) { fixture in
            let image = try await drawnImage(fixture)
            let other = TLSFingerprint(certificateDER: Array("another certificate".utf8))
            try pins.save(TLSPin(fingerprint: other), for: "wss://127.0.0.1:\(fixture.gateway.port)")
            let result = await fixture.viewModel.artifactImage(image.artifactId)
            guard case .failure(.transfer(let reason)) = result else {
                Issue.record("expected a refused transfer, got \(result)")
                return
            }
            #expect(reason.contains("CHANGED"), "\(reason)")
        }
    }
}
