import OpenClawProtocol

/// Where a `chat.send` loses its socket.
public enum DropPoint: Sendable, Hashable {
    /// The request is accepted (the run starts, the user message is stored) but the socket is dropped
    /// before the ack is written: the client cannot know whether its message landed.
    case beforeAck
    /// The ack is written, then the socket is dropped.
    case afterAck
}

/// Misbehaviour to inject, for client tests. Everything is off by default; set with
/// ``TestGateway/setFaults(_:)``, which replaces the whole plan.
public struct FaultPlan: Sendable {
    /// Wait this long after the socket opens before sending `connect.challenge`.
    public var challengeDelayMs: Int?
    /// Never send `connect.challenge`.
    public var omitChallenge: Bool
    /// Answer every `connect` with this error...
    public var rejectConnect: ErrorShape?
    /// ...then close with this code (1013 with ``startupSidecars`` for the retryable startup refusal).
    public var rejectConnectCloseCode: Int
    /// Close reason after ``rejectConnect``; nil uses the error message.
    public var rejectConnectCloseReason: String?
    /// After this many broadcast events on a socket, skip one frame `seq` number (once per socket).
    public var skipSeqAfterEvents: Int?
    /// Delay before every event frame is written (responses are not delayed).
    public var eventDelayMs: Int
    /// Once per run: after this many broadcast frames of a streamed run were sent, every socket that
    /// received them is dropped abruptly (no close frame). The run itself goes on.
    public var dropConnectionAfterRunFrames: Int?
    /// Drop the socket of the next `chat.send` (one shot: cleared once it fired).
    public var dropConnectionOnChatSend: DropPoint?
    /// Once per run: right before its terminal `chat` event, every socket that would receive it is
    /// dropped abruptly; the run ends and history holds the reply, the event itself reaches nobody.
    public var dropConnectionBeforeRunFinal: Bool
    /// The next this many `connect` requests lose their socket unanswered (a drop mid-handshake).
    public var dropConnects: Int
    /// Percent of a run's non-terminal events sent twice (the second copy with its own frame `seq`,
    /// the same payload `seq`), as a gateway re-emitting after an internal retry would.
    public var duplicateRunEventsPercent: Int
    /// Percent of a run's non-terminal events held back and sent after the run's next event (a
    /// terminal event goes first, so a held delta then arrives after the final).
    public var reorderRunEventsPercent: Int
    /// Percent of a run's events preceded by a broadcast the client may not see (an exec approval
    /// request): with a global frame `seq` (v3) it leaves a gap in the client's numbering; with
    /// per-socket numbering it is invisible.
    public var hiddenBroadcastPercent: Int
    /// Seed of the choices the faults above make, so a scenario replays exactly.
    public var seed: UInt64
    /// Requests with these methods are read and never answered.
    public var ignoreRequests: Set<String>
    /// Every request waits this long before it is handled.
    public var delayResponsesMs: Int
    /// When not empty, only requests with these methods wait `delayResponsesMs` (a slow history read).
    public var delayedMethods: Set<String>
    /// The next `exec.approval.resolve` that decides a pending request is applied (the run goes on,
    /// other approvers get `exec.approval.resolved`), then its socket is dropped before the answer or
    /// that event is written to it: the approver cannot know its decision landed (one shot).
    public var dropConnectionOnApprovalResolve: Bool

    public init(
        challengeDelayMs: Int? = nil,
        omitChallenge: Bool = false,
        rejectConnect: ErrorShape? = nil,
        rejectConnectCloseCode: Int = GatewayCloseCode.policyViolation,
        rejectConnectCloseReason: String? = nil,
        skipSeqAfterEvents: Int? = nil,
        eventDelayMs: Int = 0,
        dropConnectionAfterRunFrames: Int? = nil,
        dropConnectionOnChatSend: DropPoint? = nil,
        dropConnectionBeforeRunFinal: Bool = false,
        dropConnects: Int = 0,
        duplicateRunEventsPercent: Int = 0,
        reorderRunEventsPercent: Int = 0,
        seed: UInt64 = 0,
        ignoreRequests: Set<String> = [],
        delayResponsesMs: Int = 0,
        delayedMethods: Set<String> = [],
        hiddenBroadcastPercent: Int = 0,
        dropConnectionOnApprovalResolve: Bool = false
    ) {
        self.challengeDelayMs = challengeDelayMs
        self.omitChallenge = omitChallenge
        self.rejectConnect = rejectConnect
        self.rejectConnectCloseCode = rejectConnectCloseCode
        self.rejectConnectCloseReason = rejectConnectCloseReason
        self.skipSeqAfterEvents = skipSeqAfterEvents
        self.eventDelayMs = eventDelayMs
        self.dropConnectionAfterRunFrames = dropConnectionAfterRunFrames
        self.dropConnectionOnChatSend = dropConnectionOnChatSend
        self.dropConnectionBeforeRunFinal = dropConnectionBeforeRunFinal
        self.dropConnects = dropConnects
        self.duplicateRunEventsPercent = duplicateRunEventsPercent
        self.reorderRunEventsPercent = reorderRunEventsPercent
        self.seed = seed
        self.ignoreRequests = ignoreRequests
        self.delayResponsesMs = delayResponsesMs
        self.delayedMethods = delayedMethods
        self.hiddenBroadcastPercent = hiddenBroadcastPercent
        self.dropConnectionOnApprovalResolve = dropConnectionOnApprovalResolve
    }

    /// The gateway-is-starting refusal of v4 (and late v3): `UNAVAILABLE` `startup-sidecars`, retryable
    /// after 500 ms, then close 1013 "gateway starting".
    public static var startupSidecars: FaultPlan {
        FaultPlan(
            rejectConnect: ErrorShape(
                code: .unavailable,
                message: "gateway starting; retry shortly",
                details: ["reason": "startup-sidecars"],
                retryable: true,
                retryAfterMs: 500
            ),
            rejectConnectCloseCode: GatewayCloseCode.tryAgainLater,
            rejectConnectCloseReason: "gateway starting"
        )
    }
}
