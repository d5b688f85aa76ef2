import OpenClawChat
import OpenClawProtocol
import OpenClawTestGateway

/// One message reduced to what "the transcript equals the gateway's history" compares: the gateway's
/// transcript entry id (so order and identity both count), the role and the visible text.
struct HistoryRow: Hashable, CustomStringConvertible {
    var entryId: String?
    var role: ChatRole
    var text: String

    var description: String { "\(role.wireValue)[\(entryId ?? "-")]: \(text.prefix(60))" }

    /// The gateway's stored messages of `sessionKey`, as `chat.history` returns them (long texts cut at
    /// the gateway's `maxChars`; the latest `limit`, all by default).
    static func history(of gateway: TestGateway, sessionKey: String, limit: Int? = nil) async -> [HistoryRow] {
        await gateway.history(
            sessionKey: sessionKey, limit: limit, maxChars: gateway.configuration.historyMaxChars
        ).compactMap(ChatMessage.init(json:)).map {
            HistoryRow(entryId: $0.entry?.id, role: $0.role, text: $0.text)
        }
    }

    /// The view model's rows. A row not yet confirmed by history has no entry id.
    @MainActor
    static func transcript(of viewModel: ChatSession) -> [HistoryRow] {
        viewModel.messages.map {
            HistoryRow(entryId: $0.source == .history ? $0.message?.entry?.id : nil, role: $0.role, text: $0.text)
        }
    }
}

extension ChatFixture {
    /// Waits until no run is active and the transcript equals the gateway's history of `sessionKey`
    /// (default: the view model's session); returns both sides for the caller's assertion. When events
    /// were lost the client cannot know a run is still going, so `storedMessages` first waits for the
    /// gateway to have stored that many.
    func settled(
        sessionKey: String? = nil, storedMessages: Int? = nil, timeout: Duration = .seconds(15)
    ) async -> (
        transcript: [HistoryRow], history: [HistoryRow]
    ) {
        let key = sessionKey ?? viewModel.currentSessionKey
        if let storedMessages {
            _ = await eventually(timeout: timeout) {
                await gateway.history(sessionKey: key).count >= storedMessages
            }
        }
        _ = await eventually(timeout: timeout) {
            let history = await HistoryRow.history(of: gateway, sessionKey: key)
            return !viewModel.isRunning && HistoryRow.transcript(of: viewModel) == history
        }
        return (HistoryRow.transcript(of: viewModel), await HistoryRow.history(of: gateway, sessionKey: key))
    }
}
