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

    /// Names of `Tests/Fixtures/protocol/v4-current.schema.json`.
    public static let v4 = ProtocolFrameDefinitions(
        methods: [
            "connect": Method(params: "ConnectParams", result: "HelloOk"),
            "chat.send": Method(params: "ChatSendParams"), "chat.history": Method(params: "ChatHistoryParams"),
            "chat.abort": Method(params: "ChatAbortParams"),
            "chat.message.get": Method(params: "ChatMessageGetParams", result: "ChatMessageGetResult"),
            "sessions.list": Method(params: "SessionsListParams"),
            "sessions.patch": Method(params: "SessionsPatchParams"),
            "sessions.reset": Method(params: "SessionsResetParams"),
            "sessions.messages.subscribe": Method(params: "SessionsMessagesSubscribeParams"),
            "sessions.messages.unsubscribe": Method(params: "SessionsMessagesUnsubscribeParams"),
            "models.list": Method(params: "ModelsListParams", result: "ModelsListResult"),
            "agent.identity.get": Method(params: "AgentIdentityParams", result: "AgentIdentityResult"),
            "commands.list": Method(params: "CommandsListParams", result: "CommandsListResult"),
            "exec.approval.list": Method(params: "ExecApprovalListParams"),
            "exec.approval.get": Method(params: "ExecApprovalGetParams"),
            "exec.approval.resolve": Method(params: "ExecApprovalResolveParams"),
            "approval.get": Method(params: "ApprovalGetParams", result: "ApprovalGetResult"),
            "approval.resolve": Method(params: "ApprovalResolveParams", result: "ApprovalResolveResult"),
            "approval.history": Method(params: "ApprovalHistoryParams", result: "ApprovalHistoryResult"),
            "question.list": Method(params: "QuestionListParams"), "question.get": Method(params: "QuestionGetParams"),
            "question.resolve": Method(params: "QuestionResolveParams"),
            "artifacts.download": Method(params: "ArtifactsDownloadParams"),
            "node.list": Method(params: "NodeListParams"), "node.describe": Method(params: "NodeDescribeParams"),
            "node.invoke": Method(params: "NodeInvokeParams"),
            "node.invoke.result": Method(params: "NodeInvokeResultParams"),
            "node.invoke.progress": Method(params: "NodeInvokeProgressParams"),
            "node.event": Method(params: "NodeEventParams"),
            "device.pair.list": Method(params: "DevicePairListParams"),
            "device.pair.approve": Method(params: "DevicePairApproveParams"),
        ],
        events: [
            "tick": "TickEvent", "shutdown": "ShutdownEvent", "connect.challenge": "ConnectChallengeEvent",
            "chat": "ChatEvent", "agent": "AgentEvent", "exec.approval.requested": "ExecApprovalRequestedEvent",
            "exec.approval.resolved": "ExecApprovalResolvedEvent", "question.requested": "QuestionRecord",
            "question.resolved": "QuestionResolvedEvent", "node.invoke.request": "NodeInvokeRequestEvent",
            "node.invoke.cancel": "NodeInvokeCancelEvent",
        ]
    )

    /// What has no definition here because its upstream definition was not read (see the README beside
    /// the v4 schema): suites assert that nothing else goes unchecked, so a new frame is noticed.
    public static let knownUnchecked: Set<String> = [
        "params of health", "result of health", "params of sessions.subscribe", "result of sessions.subscribe",
        "event sessions.changed", "result of chat.send", "result of chat.abort", "result of chat.history",
        "result of sessions.list", "result of sessions.patch", "result of sessions.reset",
        "result of exec.approval.list", "result of exec.approval.resolve", "result of question.list",
        "result of question.resolve", "result of device.pair.list", "result of node.list",
        // v3 only: the shared v3 schema has no definition for these.
        "event connect.challenge", "event exec.approval.requested", "event exec.approval.resolved",
        "params of exec.approval.list",
    ]

    /// `chat.history` answers a cursor request with this closed union (v4 only).
    public static let chatHistoryCursorResults = ["ChatHistoryDeltaResult", "ChatHistoryResetResult"]
}
