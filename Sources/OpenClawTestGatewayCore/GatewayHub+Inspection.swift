import OpenClawProtocol

/// What tests and benchmarks read of the gateway's state (through `TestGateway`).
extension GatewayHub {
    func history(_ sessionKey: String, limit: Int?, maxChars: Int?) -> [JSONValue] {
        sessions.store.history(sessionKey, limit: limit, maxChars: maxChars, images: configuration.historyImages)
            .messages
    }

    func sentUserMessages(_ sessionKey: String) -> [String] { sessions.store.userTexts(sessionKey) }

    func runCount() -> Int { chat.runsStarted }

    func attachmentsReceived() -> [ReceivedAttachment] { chat.receivedAttachments }

    func requestCount(_ method: String) -> Int { requestLog.counts[method] ?? 0 }

    func lastArrival(_ method: String) -> ContinuousClock.Instant? { requestLog.lastArrivals[method] }

    func lastRequestParams(_ method: String) -> JSONValue? { requestLog.lastParams[method] }

    func openConnectionCount() -> Int { peers.values.filter(\.isOpen).count }

    func historyAnswerLog() -> [HistoryAnswer] { chat.historyAnswers }

    func receivedConnectParams() -> [JSONValue] { connect.paramsLog }

    func pendingPairingRequestIds() -> [String] { pairing.pendingRequestIds }
}
