import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A row `chat.history` cut at its per-text limit is fetched whole with `chat.message.get` and stays
/// whole on later pages; a gateway without the method leaves it as it is, saying so.
@MainActor
@Suite("View model: show a shortened message whole")
struct ShowAllTests {
    private static let long = String(repeating: "lighthouse ", count: 8)

    private func truncatedRow(_ viewModel: ChatSession) async -> TranscriptEntry? {
        _ = await eventually { viewModel.messages.contains(where: \.isTruncated) }
        return viewModel.messages.first(where: \.isTruncated)
    }

    @Test func showAllFetchesTheWholeMessageAndKeepsIt() async throws {
        let configuration = TestGatewayConfiguration(protocolNumber: 4, historyMaxChars: 12)
        try await ChatHarness.withViewModel(configuration) { fixture in
            await fixture.gateway.appendMessage(sessionKey: "main", role: "assistant", text: Self.long)
            await fixture.viewModel.refreshHistoryAndWait()
            let row = try #require(await truncatedRow(fixture.viewModel))
            #expect(await fixture.viewModel.showAll(row.id) == .shown)
            let shown = try #require(fixture.viewModel.messages.first { $0.id == row.id })
            #expect(shown.text == Self.long)
            #expect(!shown.isTruncated)
            #expect(await fixture.gateway.requestCount(method: "chat.message.get") == 1)
            // A later page still shows it whole; the row keeps its id.
            await fixture.gateway.appendMessage(sessionKey: "main", role: "user", text: "more")
            await fixture.viewModel.refreshHistoryAndWait()
            #expect(fixture.viewModel.messages.first { $0.id == row.id }?.text == Self.long)
            #expect(await fixture.viewModel.showAll(row.id) == .notTruncated)
        }
    }

    @Test func aGatewayWithoutTheMethodIsNotAsked() async throws {
        let configuration = TestGatewayConfiguration(protocolNumber: 4, historyMaxChars: 12, quirks: .noHistoryCatchUp)
        try await ChatHarness.withViewModel(configuration) { fixture in
            await fixture.gateway.appendMessage(sessionKey: "main", role: "assistant", text: Self.long)
            await fixture.viewModel.refreshHistoryAndWait()
            let row = try #require(await truncatedRow(fixture.viewModel))
            #expect(await fixture.viewModel.showAll(row.id) == .unsupported)
            #expect(await fixture.gateway.requestCount(method: "chat.message.get") == 0)
            #expect(fixture.viewModel.messages.first { $0.id == row.id }?.isTruncated == true)
        }
    }
}
