import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The chat screen offers "Show all" on a message history cut short; taking it shows the whole text, or
/// says the gateway cannot.
@MainActor
@Suite("Chat screen: show all")
struct ShowAllScreenTests {
    private static let long = String(repeating: "lighthouse ", count: 8) + "END"

    private func screenOutcome(quirks: GatewayQuirks) async throws -> (ShowAllOutcome?, String?) {
        try await withTestGateway(TestGatewayConfiguration(historyMaxChars: 12, quirks: quirks)) { gateway in
            await gateway.appendMessage(sessionKey: "main", role: "assistant", text: Self.long)
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            #expect(await waitUntil { screen.rows.contains { $0.actions == [.showAll] } })
            let row = try #require(screen.rows.first { $0.actions == [.showAll] })
            await screen.perform(.showAll, on: row)
            let text = screen.rows.first { $0.id == row.id }?.text
            let outcome = screen.lastShowAll
            await app.signOut()
            return (outcome, text)
        }
    }

    @Test func showAllShowsTheWholeMessage() async throws {
        let (outcome, text) = try await screenOutcome(quirks: [])
        #expect(outcome == .shown)
        #expect(text == Self.long)
    }

    @Test func anOlderGatewayLeavesItShortAndSaysSo() async throws {
        let (outcome, text) = try await screenOutcome(quirks: .noHistoryCatchUp)
        #expect(outcome == .unsupported)
        #expect(text?.hasSuffix("...(truncated)...") == true)
    }
}
