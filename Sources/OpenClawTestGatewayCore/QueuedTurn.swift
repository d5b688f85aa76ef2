/// A `chat.send` waiting for its session's running turn to end (`queueMode` `followup` or `collect`).
///
/// It keeps its client run id: the gateway answers `chat.abort {runId}` for it while it waits
/// (`docs/concepts/queue.md`, "Queued-turn cancellation") and runs it under that id.
struct QueuedTurn: Sendable {
    let runId: String
    let rawSessionKey: String
    let sessionKey: String
    let message: String
    let attachments: [AttachmentIntake.Accepted]
    let collects: Bool
    let ownerConnection: Int
    let ownerDevice: String?
}
