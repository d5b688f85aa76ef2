import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// Generated images over real sockets: the `draw` reply carries an image block with an `artifactId`;
/// `artifacts.download` gives a ticketed URL on the gateway (or inline base64) and the view model
/// fetches the bytes, bounded by 12 MiB, only from the gateway itself.
@MainActor
@Suite("Generated images: artifacts.download")
struct ArtifactImageTests {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Sends `draw a cat`, waits for the image row and returns its reference.
    private func drawnImage(_ fixture: ChatFixture) async throws -> ArtifactImageReference {
        _ = await fixture.viewModel.send("draw a cat")
        let found = await eventually(timeout: .seconds(20), every: .milliseconds(100)) {
            await fixture.viewModel.refreshHistoryAndWait()
            return !fixture.viewModel.artifactImages.isEmpty
        }
        #expect(found, "the reply's image block never showed")
        return try #require(fixture.viewModel.artifactImages.first)
    }

    private func configuration(
        _ change: (inout TestGatewayConfiguration) -> Void = { _ in }
    )
        -> TestGatewayConfiguration
    {
        var configuration = TestGatewayConfiguration(protocolNumber: 4)
        change(&configuration)
        return configuration
    }

    @Test func aURLDownloadIsFetchedFromTheGateway() async throws {
        try await ChatHarness.withViewModel(configuration()) { fixture in
            let image = try await drawnImage(fixture)
            #expect(image.number == 1)
            #expect(image.mimeType == "image/png")
            let bytes = try await fixture.viewModel.artifactImage(image.artifactId).get()
            #expect(bytes.data.count == 4096)
            #expect(Array(bytes.data.prefix(8)) == Self.pngSignature)
            #expect(await fixture.gateway.requestCount(method: "artifacts.download") == 1)
            // The row keeps the reference: the stored message has the id and no bytes.
            let row = try #require(fixture.viewModel.messages.first { $0.id == image.entryID })
            #expect(row.attachments.first?.artifactId == image.artifactId)
        }
    }

    @Test func anInlineDownloadIsDecoded() async throws {
        try await ChatHarness.withViewModel(configuration { $0.artifactDelivery = .inline }) { fixture in
            let image = try await drawnImage(fixture)
            let bytes = try await fixture.viewModel.artifactImage(image.artifactId).get()
            #expect(bytes.data.count == 4096)
            #expect(Array(bytes.data.prefix(8)) == Self.pngSignature)
        }
    }

    @Test func anImageOverTwelveMebibytesIsRefusedWhileItStreams() async throws {
        let size = 13 * 1_048_576
        let configuration = configuration {
            $0.agent.drawnImageBytes = size
            $0.artifactStatesSize = false
        }
        try await ChatHarness.withViewModel(configuration) { fixture in
            let image = try await drawnImage(fixture)
            let result = await fixture.viewModel.artifactImage(image.artifactId)
            guard case .failure(.tooLarge(let limit, let received)) = result else {
                Issue.record("expected tooLarge, got \(result)")
                return
            }
            #expect(limit == ArtifactLimits.maximumImageBytes)
            // Cut while streaming: something arrived, never more than the limit was kept.
            #expect(received > 0 && received <= limit, "received \(received)")
        }
    }

    @Test func aStatedSizeOverTheLimitIsRefusedBeforeFetching() async throws {
        try await ChatHarness.withViewModel(configuration { $0.agent.drawnImageBytes = 13 * 1_048_576 }) { fixture in
            let image = try await drawnImage(fixture)
            let result = await fixture.viewModel.artifactImage(image.artifactId)
            #expect(result == .failure(.tooLarge(limit: ArtifactLimits.maximumImageBytes, received: 0)))
        }
    }

    @Test(arguments: ["https://images.example.test/cat.png", "http://127.0.0.1:9/cat.png", "//evil.test/x"])
    func aURLOffTheGatewayIsRefused(url: String) async throws {
        try await ChatHarness.withViewModel(configuration { $0.artifactURLOverride = url }) { fixture in
            let image = try await drawnImage(fixture)
            let result = await fixture.viewModel.artifactImage(image.artifactId)
            guard case .failure(.foreignURL) = result else {
                Issue.record("expected foreignURL, got \(result)")
                return
            }
        }
    }

    @Test func aGatewayWithoutArtifactsIsNotAsked() async throws {
        try await ChatHarness.withViewModel(configuration { $0.quirks = .noArtifacts }) { fixture in
            let image = try await drawnImage(fixture)
            #expect(await fixture.viewModel.artifactImage(image.artifactId) == .failure(.unsupported))
            #expect(await fixture.gateway.requestCount(method: "artifacts.download") == 0)
        }
    }
}
