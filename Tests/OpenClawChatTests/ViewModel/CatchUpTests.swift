import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// After a reconnect the view model asks for what was stored since its last page (`deltaCursor`), not
/// the whole page again, and still ends equal to the gateway's history; a `reset` answer or a gateway
/// without cursors makes it read the whole page, as before.
@MainActor
@Suite("View model: catch-up after a reconnect")
struct CatchUpTests {
    /// Exchanges one message, drops the socket, lets `whileAway` change the session, reconnects, and
    /// returns the `chat.history` answers sent from the drop on, once the transcript equals history.
    private func answersAfterReconnect(
        quirks: GatewayQuirks = [], whileAway: (TestGateway) async -> Void
    ) async throws -> (answers: [HistoryAnswer], settled: Bool, rows: Int) {
        let configuration = TestGatewayConfiguration(protocolNumber: 4, quirks: quirks)
        return try await ChatHarness.withViewModel(configuration) { fixture in
            let viewModel = fixture.viewModel
            _ = await viewModel.send("before the drop")
            let before = await fixture.settled(storedMessages: 2)
            #expect(before.transcript == before.history)
            await viewModel.finishHistoryFetch()
            await fixture.gateway.dropAllConnections()
            #expect(await eventually { !viewModel.connectionState.isConnected })
            let mark = await fixture.gateway.historyAnswers().count
            await whileAway(fixture.gateway)
            await viewModel.start()
            let after = await fixture.settled()
            await viewModel.finishHistoryFetch()
            let answers = Array(await fixture.gateway.historyAnswers().dropFirst(mark))
            return (answers, after.transcript == after.history, after.history.count)
        }
    }

    @Test func aReconnectReadsOnlyTheMessagesStoredWhileAway() async throws {
        let result = try await answersAfterReconnect { gateway in
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "from another device")
            await gateway.appendMessage(sessionKey: "main", role: "assistant", text: "answered there")
        }
        #expect(result.settled)
        #expect(result.rows == 4)
        // The reconnect's read is a catch-up carrying the two messages; any later read (a refresh the
        // transcript asked for) is a catch-up too, carrying nothing new.
        #expect(result.answers.first == HistoryAnswer(kind: .delta, messageCount: 2))
        #expect(result.answers.allSatisfy { $0.kind == .delta })
        #expect(result.answers.map(\.messageCount).reduce(0, +) == 2)
    }

    @Test func aResetAnswerFallsBackToTheWholePage() async throws {
        let result = try await answersAfterReconnect { gateway in
            await gateway.appendBoundary(sessionKey: "main", .compaction(tokensBefore: 9000, tokensAfter: 1200))
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "after the compaction")
        }
        #expect(result.settled)
        #expect(result.rows == 4)
        #expect(
            Array(result.answers.prefix(2)) == [
                HistoryAnswer(kind: .reset, messageCount: 0), HistoryAnswer(kind: .tail, messageCount: 4),
            ])
        #expect(result.answers.dropFirst(2).allSatisfy { $0 == HistoryAnswer(kind: .delta, messageCount: 0) })
    }

    @Test func aGatewayWithoutCursorsIsReadPageByPageAsBefore() async throws {
        let result = try await answersAfterReconnect(quirks: .noHistoryCatchUp) { gateway in
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "from another device")
        }
        #expect(result.settled)
        #expect(result.rows == 3)
        #expect(result.answers.first == HistoryAnswer(kind: .tail, messageCount: 3))
        #expect(result.answers.allSatisfy { $0.kind == .tail })
    }
}
