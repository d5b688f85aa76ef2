import OpenClawProtocol

/// What tests and benchmarks read of the gateway's state (through `TestGateway`).
extension GatewayHub {
    func history(_ sessionKey: String, limit: Int?, maxChars: Int?) -> [JSONValue] {
        sessions.history(sessionKey, limit: limit, maxChars: maxChars, images: configuration.historyImages).messages
    }

    func sentUserMessages(_ sessionKey: String) -> [String] { sessions.userTexts(sessionKey) }

    func runCount() -> Int { runsStarted }

    func attachmentsReceived() -> [ReceivedAttachment] { receivedAttachments }

    func requestCount(_ method: String) -> Int { requestCounts[method] ?? 0 }

    func lastArrival(_ method: String) -> ContinuousClock.Instant? { lastArrivals[method] }

    func lastRequestParams(_ method: String) -> JSONValue? { lastParams[method] }

    func openConnectionCount() -> Int { connections.values.filter(\.isOpen).count }

    func receivedConnectParams() -> [JSONValue] { connectParamsLog }

    func pendingPairingRequestIds() -> [String] {
        pairing.pending.values.sorted { $0.ts < $1.ts }.map(\.requestId)
    }
}
