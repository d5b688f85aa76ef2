import OpenClawProtocol

/// The closed request shapes of the methods this gateway implements, per protocol version.
///
/// v3 shapes are the 2026-04-12 generated schema; v4 adds only the optional fields of the v4 core
/// (never the late-v4 `client.buildId`/`timeZone`, which early v4 gateways reject too).
enum ProtocolShapes {
    static let v3ClientIds = [
        "webchat-ui", "openclaw-control-ui", "openclaw-tui", "webchat", "cli", "gateway-client", "openclaw-macos",
        "openclaw-ios", "openclaw-android", "node-host", "test", "fingerprint", "openclaw-probe",
    ]
    static let v4ExtraClientIds = ["openclaw-browser-copilot", "openclaw-linux", "openclaw-watchos", "openclaw-worker"]
    static let v3ClientModes = ["webchat", "cli", "ui", "backend", "node", "probe", "test"]

    static func connectParams(v4: Bool) -> ObjectShape {
        let client = ObjectShape(
            [
                "id": .oneOf(v4 ? v3ClientIds + v4ExtraClientIds : v3ClientIds),
                "displayName": .string(minLength: 1),
                "version": .string(minLength: 1),
                "platform": .string(minLength: 1),
                "deviceFamily": .string(minLength: 1),
                "modelIdentifier": .string(minLength: 1),
                "mode": .oneOf(v4 ? v3ClientModes + ["worker"] : v3ClientModes),
                "instanceId": .string(minLength: 1),
            ],
            required: ["id", "version", "platform", "mode"]
        )
        let device = ObjectShape(
            [
                "id": .string(minLength: 1), "publicKey": .string(minLength: 1), "signature": .string(minLength: 1),
                "signedAt": .integer(minimum: 0), "nonce": .string(minLength: 1),
            ],
            required: ["id", "publicKey", "signature", "signedAt", "nonce"]
        )
        var authFields: [String: ObjectShape.Field] = [
            "token": .string(), "bootstrapToken": .string(), "deviceToken": .string(), "password": .string(),
        ]
        if v4 {
            authFields["approvalRuntimeToken"] = .string()
            authFields["agentRuntimeIdentityToken"] = .string()
        }
        return ObjectShape(
            [
                "minProtocol": .integer(minimum: 1), "maxProtocol": .integer(minimum: 1), "client": .object(client),
                "caps": .stringArray(itemMinLength: 1), "commands": .stringArray(itemMinLength: 1),
                "permissions": .booleanMap, "pathEnv": .string(), "role": .string(minLength: 1),
                "scopes": .stringArray(itemMinLength: 1), "device": .object(device),
                "auth": .object(ObjectShape(authFields)), "locale": .string(), "userAgent": .string(),
            ],
            required: ["minProtocol", "maxProtocol", "client"]
        )
    }

    /// The request frame: exactly `type`, `id`, `method`, `params`.
    static let requestFrame = ObjectShape(
        ["type": .oneOf(["req"]), "id": .string(minLength: 1), "method": .string(minLength: 1), "params": .any],
        required: ["type", "id", "method"]
    )

    static func chatHistoryParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = [
            "sessionKey": .string(minLength: 1), "limit": .integer(minimum: 1, maximum: 1000),
            "maxChars": .integer(minimum: 1, maximum: 500_000),
        ]
        if v4 {
            fields["agentId"] = .string(minLength: 1)
            fields["cursor"] = .string()
            fields["maxBytes"] = .integer(minimum: 1024)
            fields["offset"] = .integer(minimum: 0)
            fields["pendingBefore"] = .integer(minimum: 1)
            fields["messageId"] = .string(minLength: 1)
            fields["sessionId"] = .string(minLength: 1)
            fields["inputRunIds"] = .stringArray(
                itemMinLength: 1, itemMaxLength: 256, minItems: 1, maxItems: 50, unique: true)
        }
        return ObjectShape(fields, required: ["sessionKey"])
    }

    /// `chat.message.get` (upstream `ChatMessageGetParamsSchema`, summer 2026).
    static let chatMessageGetParams = ObjectShape(
        [
            "sessionKey": .string(minLength: 1), "agentId": .string(minLength: 1), "messageId": .string(minLength: 1),
            "maxChars": .integer(minimum: 1, maximum: 2_000_000),
        ],
        required: ["sessionKey", "messageId"]
    )

    /// `artifacts.download` (upstream `ArtifactsDownloadParamsSchema`: `artifactId` and the optional
    /// `sessionKey`/`runId`/`taskId`/`agentId` scope, all non-empty strings; closed).
    static let artifactsDownloadParams = ObjectShape(
        [
            "artifactId": .string(minLength: 1), "sessionKey": .string(minLength: 1), "runId": .string(minLength: 1),
            "taskId": .string(minLength: 1), "agentId": .string(minLength: 1),
        ],
        required: ["artifactId"]
    )

    static func chatSendParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = [
            "sessionKey": .string(minLength: 1, maxLength: 512), "message": .string(), "thinking": .string(),
            "deliver": .boolean, "originatingChannel": .string(), "originatingTo": .string(),
            "originatingAccountId": .string(), "originatingThreadId": .string(), "attachments": .array,
            "timeoutMs": .integer(minimum: 0), "systemInputProvenance": .anyObject,
            "systemProvenanceReceipt": .string(), "idempotencyKey": .string(minLength: 1),
        ]
        if v4 {
            fields["agentId"] = .string(minLength: 1)
            fields["sessionId"] = .string(minLength: 1)
            fields["fastMode"] = .boolOrConst("auto")
            fields["fastAutoOnSeconds"] = .integer(minimum: 1)
            fields["queueMode"] = .oneOf(["steer", "followup", "collect", "interrupt"])
            fields["suppressCommandInterpretation"] = .boolean
            fields["expectedLeafEntryId"] = .nullable(.string(minLength: 1))
            fields["expectedSessionRoutingContract"] = .string(minLength: 1)
            fields["replyToId"] = .string(minLength: 1)
            fields["toolBindings"] = .record(.any, keyMaxLength: 128, maxCount: 16)
            fields["mentions"] = .objectArray(mentionShape, maxItems: maxHumanMentions)
            fields["expectedPermissionMode"] = .nullable(permissionMode)
            fields["expectedToolOverrides"] = .nullable(.object(toolOverrides))
            fields["intent"] = .object(
                ObjectShape(
                    [
                        "kind": .oneOf(["session-goal-start"]), "version": .integer(minimum: 1, maximum: 1),
                        "issuedAtMs": .integer(minimum: 0),
                    ], required: ["kind", "version", "issuedAtMs"]))
        }
        return ObjectShape(fields, required: ["sessionKey", "message", "idempotencyKey"])
    }

    static func chatAbortParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = ["sessionKey": .string(minLength: 1), "runId": .string(minLength: 1)]
        if v4 {
            fields["agentId"] = .string(minLength: 1)
            fields["preserveSideRuns"] = .boolean
        }
        return ObjectShape(fields, required: ["sessionKey"])
    }

    /// `SessionsListParams`: v3 as of 2026-04-12; v4 adds paging, archive and ownership filters
    /// (`packages/gateway-protocol/src/schema/sessions.ts`; `creatorId`, `ownerId`, `involvingMe` from
    /// `docs/gateway/protocol.md`, "Session control").
    static func sessionsListParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = [
            "limit": .integer(minimum: 1), "activeMinutes": .integer(minimum: 1), "includeGlobal": .boolean,
            "includeUnknown": .boolean, "includeDerivedTitles": .boolean, "includeLastMessage": .boolean,
            "label": .string(minLength: 1, maxLength: 512), "spawnedBy": .string(minLength: 1),
            "agentId": .string(minLength: 1), "search": .string(),
        ]
        if v4 { fields.merge(sessionsListV4Fields) { _, new in new } }
        return ObjectShape(fields)
    }

    /// `SessionsPatchParams`; each setting may be `null` to clear it. v3 is the 2026-04-12 generated
    /// schema, all of it (a chat client's `sendPolicy` included). v4 is upstream's current
    /// `packages/gateway-protocol/src/schema/sessions.ts` plus `contextWindow` and `expectedSessionId`
    /// from `docs/gateway/protocol.md`, minus the spawn lineage the docs say v4 gateways now refuse.
    static func sessionsPatchParams(v4: Bool) -> ObjectShape {
        let text = ObjectShape.Field.nullable(.string(minLength: 1))
        var fields: [String: ObjectShape.Field] = [
            "key": .string(minLength: 1), "label": .nullable(.string(minLength: 1, maxLength: 512)),
            "thinkingLevel": text, "fastMode": .nullable(.boolean), "verboseLevel": text, "traceLevel": text,
            "reasoningLevel": text, "responseUsage": .nullable(.oneOf(["off", "tokens", "full", "on"])),
            "elevatedLevel": text, "execHost": text, "execSecurity": text, "execAsk": text, "execNode": text,
            "model": text, "sendPolicy": .nullable(.oneOf(["allow", "deny"])),
            "groupActivation": .nullable(.oneOf(["mention", "always"])),
        ]
        if v4 {
            fields["agentId"] = .string(minLength: 1)
            fields["category"] = .nullable(.string(minLength: 1, maxLength: 512))
            fields["archived"] = .boolean
            fields["pinned"] = .boolean
            fields["unread"] = .boolean
            fields["fastMode"] = .nullable(.boolOrConst("auto"))
            fields["inheritedToolAllow"] = .nullable(.stringArray(itemMinLength: 1))
            fields["inheritedToolDeny"] = .nullable(.stringArray(itemMinLength: 1))
            fields["contextWindow"] = text
            fields["expectedSessionId"] = .string(minLength: 1)
            fields.merge(sessionsPatchV4Fields) { _, new in new }
        } else {
            fields["spawnedBy"] = text
            fields["spawnedWorkspaceDir"] = text
            fields["spawnDepth"] = .nullable(.integer(minimum: 0))
            fields["subagentRole"] = .nullable(.oneOf(["orchestrator", "leaf"]))
            fields["subagentControlScope"] = .nullable(.oneOf(["children", "none"]))
        }
        return ObjectShape(fields, required: ["key"])
    }

    /// `SessionsResetParams`: `{key, reason?}` (`reason` is `new` or `reset`); v4 adds `agentId`.
    static func sessionsResetParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = ["key": .string(minLength: 1), "reason": .oneOf(["new", "reset"])]
        if v4 { fields["agentId"] = .string(minLength: 1) }
        return ObjectShape(fields, required: ["key"])
    }

    static let emptyParams = ObjectShape([:])

    /// `ModelsListParams`: empty in v3; v4 (`agents-models-skills.ts` @ 00428cf) takes an agent, a view
    /// and cache switches, and refuses `preparedOnly` and `refresh` both true (checked by the handler).
    static func modelsListParams(v4: Bool) -> ObjectShape {
        guard v4 else { return emptyParams }
        return ObjectShape([
            "agentId": .string(minLength: 1), "includeProviderCapabilities": .boolean, "preparedOnly": .boolean,
            "refresh": .boolean, "view": .oneOf(["default", "configured", "provider-config", "all"]),
        ])
    }

    /// `CommandsListParams`: v3 (2026-04-12 schema) `{agentId?, provider?, scope?, includeArgs?}`; v4
    /// adds `sessionKey` (upstream `packages/gateway-protocol/src/schema/commands.ts`).
    static func commandsListParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = [
            "agentId": .string(minLength: 1), "provider": .string(minLength: 1),
            "scope": .oneOf(["text", "native", "both"]), "includeArgs": .boolean,
        ]
        if v4 { fields["sessionKey"] = .string(minLength: 1) }
        return ObjectShape(fields)
    }

    static let agentIdentityParams = ObjectShape(["agentId": .string(minLength: 1), "sessionKey": .string()])

    /// `ExecApprovalResolveParams`: closed, `id` and `decision` required non-empty strings; v4 adds the
    /// channel `reviewer` and `grantExpiresInDays` (`exec-approvals.ts`, code search id 57460772379).
    static func execApprovalResolveParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = ["id": .string(minLength: 1), "decision": .string(minLength: 1)]
        if v4 {
            fields["reviewer"] = .object(reviewer)
            fields["grantExpiresInDays"] = .integer(minimum: 1, maximum: 3650)
        }
        return ObjectShape(fields, required: ["id", "decision"])
    }

    /// `sessions.messages.subscribe` (upstream `SessionsMessagesSubscribeParamsSchema`, closed):
    /// `includeApprovals` may only be `true` (checked by the handler).
    static let sessionsMessagesSubscribeParams = ObjectShape(
        ["key": .string(minLength: 1), "agentId": .string(minLength: 1), "includeApprovals": .boolean],
        required: ["key"])

    /// `sessions.messages.unsubscribe` (upstream `SessionsMessagesUnsubscribeParamsSchema`, closed).
    static let sessionsMessagesUnsubscribeParams = ObjectShape(
        ["key": .string(minLength: 1), "agentId": .string(minLength: 1)], required: ["key"])

    /// `approval.resolve` (upstream `ApprovalResolveParamsSchema`): `{id, kind, decision}` required, and
    /// the newest builds' optional `reviewer` and `grantExpiresInDays` (built bundle, code search id 71397062804).
    static let approvalResolveParams = ObjectShape(
        [
            "id": .string(minLength: 1), "kind": .oneOf(["exec", "plugin"]),
            "decision": .oneOf(["allow-once", "allow-always", "deny"]), "reviewer": .object(reviewer),
            "grantExpiresInDays": .integer(minimum: 1, maximum: 3650),
        ],
        required: ["id", "kind", "decision"])

    /// `ApprovalChannelReviewerSchema`: who decided on a chat channel, all three required.
    static let reviewer = ObjectShape(
        ["channel": .string(minLength: 1), "accountId": .string(minLength: 1), "senderId": .string(minLength: 1)],
        required: ["channel", "accountId", "senderId"])

    /// `node.invoke.progress` (upstream `NodeInvokeProgressParamsSchema`, summer 2026).
    static let nodeInvokeProgressParams = ObjectShape(
        [
            "invokeId": .string(minLength: 1), "nodeId": .string(minLength: 1), "seq": .integer(minimum: 0),
            "chunk": .string(maxLength: 16 * 1024),
        ],
        required: ["invokeId", "nodeId", "seq", "chunk"])

    /// `ExecApprovalGetParams`: exactly `{id}`, a non-empty string.
    static let execApprovalGetParams = ObjectShape(["id": .string(minLength: 1)], required: ["id"])

    static let pairApproveParams = ObjectShape(["requestId": .string(minLength: 1)], required: ["requestId"])
}

extension ProtocolShapes {
    /// `question.get` (upstream `QuestionGetParamsSchema`): `{id}`, closed.
    static let questionGetParams = ObjectShape(["id": .string(minLength: 1)], required: ["id"])

    /// Upstream's `QuestionResolveParamsSchema`, a union of two closed objects:
    /// `{id, answers: {answers: {questionId: [string]}}, resolvedBy?, resolutionId?, secretStoreAllowedHosts?}`
    /// or `{id, cancel: true, resolvedBy?}`. Answer keys match `^[a-z][a-z0-9_]*$`. Nil when valid.
    static func questionResolveProblem(_ params: JSONValue?) -> String? {
        guard let members = params?.objectValue else { return "at root: must be object" }
        let common: [String: ObjectShape.Field] = ["id": .string(minLength: 1), "resolvedBy": .string(minLength: 1)]
        if members["cancel"] != nil {
            let shape = ObjectShape(common.merging(["cancel": .boolean]) { $1 }, required: ["id", "cancel"])
            let problems = shape.problems(in: params)
            if !problems.isEmpty { return problems.joined(separator: "; ") }
            return members["cancel"] == .bool(true) ? nil : "at /cancel: must be equal to constant"
        }
        let shape = ObjectShape(
            common.merging([
                "answers": .anyObject, "resolutionId": .string(minLength: 1, maxLength: 128),
                "secretStoreAllowedHosts": .stringArray(itemMinLength: 1),
            ]) { $1 }, required: ["id", "answers"])
        let problems = shape.problems(in: params)
        if !problems.isEmpty { return problems.joined(separator: "; ") }
        guard let answers = members["answers"]?.objectValue else { return "at /answers: must be object" }
        if let extra = answers.keys.sorted().first(where: { $0 != "answers" }) {
            return "at /answers: unexpected property '\(extra)'"
        }
        guard let record = answers["answers"]?.objectValue else {
            return "at /answers: must have required property 'answers'"
        }
        for (key, value) in record.sorted(by: { $0.key < $1.key }) {
            guard isQuestionId(key) else { return "at /answers/answers: property name must match pattern" }
            guard let items = value.arrayValue else { return "at /answers/answers/\(key): must be array" }
            if items.contains(where: { $0.stringValue == nil }) {
                return "at /answers/answers/\(key): must be array of strings"
            }
        }
        return nil
    }

    /// `^[a-z][a-z0-9_]*$`.
    private static func isQuestionId(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
