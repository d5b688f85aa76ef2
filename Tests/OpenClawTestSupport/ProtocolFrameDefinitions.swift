/// Which schema definition describes each method's params and result, and each event's payload, per
/// protocol version. A method or event missing here is one whose upstream definition was not read:
/// the validator checks only its frame envelope and reports it as unchecked.
public struct ProtocolFrameDefinitions: Sendable {
    public struct Method: Sendable {
        public var params: String?
        public var result: String?
    }

    public var methods: [String: Method]
    public var events: [String: String]

    public static func forProtocol(_ version: Int) -> ProtocolFrameDefinitions { version >= 4 ? v4 : v3 }

    /// Names of `v3-generated-2026-04-12.schema.json` (shared folder).
    public static let v3 = ProtocolFrameDefinitions(
        methods: [
            "connect": Method(params: "ConnectParams", result: "HelloOk"),
            "chat.send": Method(params: "ChatSendParams"), "chat.history": Method(params: "ChatHistoryParams"),
            "chat.abort": Method(params: "ChatAbortParams"), "sessions.list": Method(params: "SessionsListParams"),
            "sessions.patch": Method(params: "SessionsPatchParams"),
            "sessions.reset": Method(params: "SessionsResetParams"),
            "models.list": Method(params: "ModelsListParams", result: "ModelsListResult"),
            "agent.identity.get": Method(params: "AgentIdentityParams", result: "AgentIdentityResult"),
            "commands.list": Method(params: "CommandsListParams", result: "CommandsListResult"),
            "exec.approval.get": Method(params: "ExecApprovalGetParams"),
            "exec.approval.resolve": Method(params: "ExecApprovalResolveParams"),
            "node.list": Method(params: "NodeListParams"), "node.describe": Method(params: "NodeDescribeParams"),
            "node.invoke": Method(params: "NodeInvokeParams"),
            "node.invoke.result": Method(params: "NodeInvokeResultParams"),
            "node.event": Method(params: "NodeEventParams"),
            "device.pair.list": Method(params: "DevicePairListParams"),
            "device.pair.approve": Method(params: "DevicePairApproveParams"),
        ],
        events: [
            "tick": "TickEvent", "shutdown": "ShutdownEvent", "chat": "ChatEvent", "agent": "AgentEvent",
            "node.invoke.request": "NodeInvokeRequestEvent", "device.pair.requested": "DevicePairRequestedEvent",
            "device.pair.resolved": "DevicePairResolvedEvent",
        ]
    )

    /// Names of `Tests/Fixtures/protocol/v4-current.schema.json`. Results upstream has no schema for
    /// are the handlers' answers, open where the handler's answer grows per build (see the README).
    public static let v4 = ProtocolFrameDefinitions(
        methods: [
            "connect": Method(params: "ConnectParams", result: "HelloOk"),
            "health": Method(params: "AnyParams", result: "HealthResult"),
            "chat.send": Method(params: "ChatSendParams", result: "ChatSendResult"),
            "chat.history": Method(params: "ChatHistoryParams", result: "ChatHistoryPage"),
            "chat.abort": Method(params: "ChatAbortParams", result: "ChatAbortResult"),
            "chat.message.get": Method(params: "ChatMessageGetParams", result: "ChatMessageGetResult"),
            "sessions.list": Method(params: "SessionsListParams", result: "SessionsListResult"),
            "sessions.patch": Method(params: "SessionsPatchParams", result: "SessionsPatchResult"),
            "sessions.reset": Method(params: "SessionsResetParams", result: "SessionsResetResult"),
            "sessions.subscribe": Method(params: "AnyParams", result: "SessionsSubscribeResult"),
            "sessions.messages.subscribe": Method(
                params: "SessionsMessagesSubscribeParams", result: "SessionsMessagesSubscribeResult"),
            "sessions.messages.unsubscribe": Method(
                params: "SessionsMessagesUnsubscribeParams", result: "SessionsMessagesUnsubscribeResult"),
            "models.list": Method(params: "ModelsListParams", result: "ModelsListResult"),
            "agent.identity.get": Method(params: "AgentIdentityParams", result: "AgentIdentityResult"),
            "commands.list": Method(params: "CommandsListParams", result: "CommandsListResult"),
            "exec.approval.list": Method(params: "ExecApprovalListParams", result: "ExecApprovalListResult"),
            "exec.approval.get": Method(params: "ExecApprovalGetParams", result: "ExecApprovalGetResult"),
            "exec.approval.resolve": Method(params: "ExecApprovalResolveParams", result: "ExecApprovalResolveResult"),
            "approval.get": Method(params: "ApprovalGetParams", result: "ApprovalGetResult"),
            "approval.resolve": Method(params: "ApprovalResolveParams", result: "ApprovalResolveResult"),
            "approval.history": Method(params: "ApprovalHistoryParams", result: "ApprovalHistoryResult"),
            "question.list": Method(params: "QuestionListParams", result: "QuestionListResult"),
            "question.get": Method(params: "QuestionGetParams", result: "QuestionGetResult"),
            "question.resolve": Method(params: "QuestionResolveParams", result: "QuestionResolveResult"),
            "artifacts.download": Method(params: "ArtifactsDownloadParams", result: "ArtifactsDownloadResult"),
            "node.list": Method(params: "NodeListParams", result: "NodeListResult"),
            "node.describe": Method(params: "NodeDescribeParams", result: "NodeDescribeResult"),
            "node.invoke": Method(params: "NodeInvokeParams", result: "NodeInvokeResponse"),
            "node.invoke.result": Method(params: "NodeInvokeResultParams", result: "NodeInvokeResultAck"),
            "node.invoke.progress": Method(params: "NodeInvokeProgressParams", result: "NodeInvokeProgressAck"),
            "node.event": Method(params: "NodeEventParams", result: "NodeEventResult"),
            "device.pair.list": Method(params: "DevicePairListParams", result: "DevicePairListResult"),
            "device.pair.approve": Method(params: "DevicePairApproveParams"),
        ],
        events: [
            "tick": "TickEvent", "shutdown": "ShutdownEvent", "connect.challenge": "ConnectChallengeEvent",
            "chat": "ChatEvent", "agent": "AgentEvent", "exec.approval.requested": "ExecApprovalRequestedEvent",
            "exec.approval.resolved": "ExecApprovalResolvedEvent", "question.requested": "QuestionRecord",
            "question.resolved": "QuestionResolvedEvent", "node.invoke.request": "NodeInvokeRequestEvent",
            "node.invoke.cancel": "NodeInvokeCancelEvent", "sessions.changed": "SessionsChangedEvent",
            "session.approval": "SessionApprovalEvent", "presence": "PresenceEvent",
        ]
    )

    /// Per protocol version, what has no definition here (see the README beside the v4 schema): the
    /// recorder fails on anything else that goes unchecked, so a new frame is noticed.
    public static func knownUnchecked(forProtocol version: Int) -> Set<String> {
        version >= 4 ? knownUncheckedV4 : knownUncheckedV3
    }

    /// The shared v3 schema defines params and events only: the answers, and the events it lacks, go
    /// unchecked (the ones the suites see).
    public static let knownUncheckedV3: Set<String> = [
        "params of health", "result of health", "params of sessions.subscribe", "result of sessions.subscribe",
        "event sessions.changed", "event presence", "result of chat.send", "result of chat.abort",
        "result of chat.history", "result of sessions.list", "result of sessions.patch", "result of sessions.reset",
        "result of exec.approval.list", "result of exec.approval.resolve", "result of device.pair.list",
        "result of node.list", "event connect.challenge", "event exec.approval.requested",
        "event exec.approval.resolved", "params of exec.approval.list",
    ]

    /// v4 answers whose shape was not read (upstream registers no schema and the handler was not read);
    /// the suites see none of them today.
    public static let knownUncheckedV4: Set<String> = ["result of device.pair.approve"]

    /// `chat.history` answers a cursor request with this closed union (v4 only).
    public static let chatHistoryCursorResults = ["ChatHistoryDeltaResult", "ChatHistoryResetResult"]
}
