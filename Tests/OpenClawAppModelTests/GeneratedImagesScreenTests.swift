import Foundation
import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A bubble with a generated image loads its bytes through the screen model; an older gateway without
/// `artifacts.download` gives a readable failure instead of an image.
@MainActor
@Suite("Chat screen: generated images")
struct GeneratedImagesScreenTests {
    private func loadedState(quirks: GatewayQuirks) async throws -> GeneratedImages.State? {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: 4, quirks: quirks)) { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            _ = await screen.chat.session.send("draw a cat")
            let shown = await eventually(timeout: .seconds(20), every: .milliseconds(100)) {
                await screen.chat.session.refreshHistoryAndWait()
                return screen.rows.contains { $0.attachments.contains { $0.artifactId != nil } }
            }
            #expect(shown)
            let artifactId = try #require(screen.rows.flatMap(\.attachments).compactMap(\.artifactId).first)
            await screen.images.load(artifactId)
            let state = screen.images.state(of: artifactId)
            await app.signOut()
            return state
        }
    }

    @Test func theImageLoads() async throws {
        guard case .loaded(let data, let mimeType)? = try await loadedState(quirks: []) else {
            Issue.record("the image did not load")
            return
        }
        #expect(data.count == 4096)
        #expect(mimeType == "image/png")
    }

    @Test func anOlderGatewaySaysWhy() async throws {
        let state = try await loadedState(quirks: .noArtifacts)
        #expect(state == .failed(ArtifactFetchError.unsupported.description))
    }
}
