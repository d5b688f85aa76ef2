import OpenClawProtocol

/// Chat: `chat.send` and the runs it starts (streamed by `RunPerformer`), queued turns, `chat.abort`,
/// `chat.history` and `chat.message.get`, and the artifacts runs generate. The transcripts themselves
/// live in `SessionsFeature`.
final class ChatFeature {
    /// Runs under way, by run id.
    var runs: [String: ChatRun] = [:]
    /// `followup`/`collect` sends waiting for their session to go idle, oldest first.
    var queuedTurns: [QueuedTurn] = []
    /// Finished `chat.send` keys, remembered for a while (upstream's dedupe cache).
    var idempotency: IdempotencyCache
    /// Generated images of scripted runs and their download tickets.
    var artifacts = ArtifactShelf()
    var runsStarted = 0
    /// Every attachment of every `chat.send` that started a run, decoded, in order.
    var receivedAttachments: [ReceivedAttachment] = []
    /// Every `chat.history` answer, in order: tests count what crossed the wire after a reconnect.
    var historyAnswers: [HistoryAnswer] = []

    init(configuration: TestGatewayConfiguration) {
        idempotency = IdempotencyCache(ttlMs: configuration.dedupeTTLMs, maxEntries: configuration.dedupeMaxEntries)
    }

    func handle(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        switch request.method {
        case GatewayMethodName.chatSend: handleChatSend(request, from: id, in: gateway)
        case GatewayMethodName.chatAbort: handleChatAbort(request, from: id, in: gateway)
        case GatewayMethodName.chatHistory: handleChatHistory(request, from: id, in: gateway)
        case GatewayMethodName.chatMessageGet: handleChatMessageGet(request, from: id, in: gateway)
        case GatewayMethodName.artifactsDownload: handleArtifactsDownload(request, from: id, in: gateway)
        default:
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    /// Runs may be aborted by the socket or device that started them, or by an admin.
    static func mayAbort(_ run: ChatRun, by requester: PeerSession?) -> Bool {
        guard let requester else { return false }
        if requester.scopes.contains(OperatorScope.admin) || requester.id == run.ownerConnection { return true }
        return run.ownerDevice != nil && run.ownerDevice == requester.deviceId
    }

    /// Cancels every run (gateway stop).
    func cancelAllRuns() {
        for run in runs.values { run.task?.cancel() }
        runs.removeAll()
    }
}
