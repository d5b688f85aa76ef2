/// The fields current v4 builds added to methods this gateway serves, beyond the v4 core it started
/// from. Read in upstream's `packages/gateway-protocol/src/schema/`: `sessions-list.ts` @ 5d0923d,
/// `sessions-patch.ts` @ 37e01fa, `sessions-row.ts` and `logs-chat.ts` (code search ids 58865650441,
/// 57428222455); the table is in `docs/PROTOCOL-NOTES.md` (issue 33.10).
extension ProtocolShapes {
    /// `SessionPermissionModeSchema`.
    static let permissionMode = ObjectShape.Field.oneOf(["read-only", "guarded", "workspace", "full"])

    /// `SessionToolOverridesSchema`: closed, every member optional.
    static let toolOverrides = ObjectShape([
        "mcpServers": .record(.boolean), "mcpToolsDeny": .record(.stringArray(itemMinLength: 1)),
        "skills": .record(.boolean), "webSearch": .boolean,
    ])

    /// One `HumanMentionSchema` entry (`human-mentions.ts`, code-search ids 57643230550, 68565424870):
    /// closed, either a person (`profileId`) or everyone (`kind`), never both or neither, at UTF-16
    /// offsets up to `Number.MAX_SAFE_INTEGER`.
    static let mentionShape = ObjectShape(
        [
            "profileId": .string(minLength: 1, maxLength: 256), "kind": .oneOf(["everyone"]),
            "start": .integer(minimum: 0, maximum: maxSafeInteger),
            "end": .integer(minimum: 1, maximum: maxSafeInteger),
        ],
        required: ["start", "end"], exactlyOneOf: ["profileId", "kind"])

    /// `MAX_HUMAN_MENTIONS` (both builds read).
    static let maxHumanMentions = 10

    /// JavaScript's `Number.MAX_SAFE_INTEGER`, upstream's bound on mention offsets.
    static let maxSafeInteger = 9_007_199_254_740_991

    static let sessionsListV4Fields: [String: ObjectShape.Field] = [
        "source": .oneOf([
            "sidebar", "dashboard", "activity", "sessions-page", "chat-pane", "agent-roster", "command-palette",
            "skill-workshop",
        ]),
        "rowMode": .oneOf(["compact", "dashboard"]), "offset": .integer(minimum: 0),
        "activityPulseBoundaries": .numberArray(minimum: 0, minItems: 2, maxItems: 64), "activeOnly": .boolean,
        "requireLastInteraction": .boolean, "sortBy": .oneOf(["updatedAt", "lastInteractionAt", "activity"]),
        "excludeSubagents": .boolean, "excludeCron": .boolean, "excludeSystem": .boolean, "excludeDock": .boolean,
        "configuredAgentsOnly": .boolean, "includeActivitySummary": .boolean, "projectId": .string(minLength: 1),
        "workspaceDir": .string(minLength: 1), "group": .string(), "pinned": .boolean,
        "boardFace": .oneOf(["chat", "dashboard"]), "hasBoard": .boolean, "creatorId": .string(minLength: 1),
        "ownerId": .string(minLength: 1), "ownerFirst": .boolean, "involvingMe": .boolean,
        "profileRelation": .object(
            ObjectShape(
                ["profileId": .string(minLength: 1), "relationship": .oneOf(["owned", "created", "involving"])],
                required: ["profileId", "relationship"])),
        "involvingProfileId": .string(minLength: 1), "includePeople": .boolean,
        "includeOwnerSessionCounts": .boolean, "archived": .boolOrConst("all"),
    ]

    static let sessionsPatchV4Fields: [String: ObjectShape.Field] = [
        "expectedLifecycleRevision": .string(minLength: 1), "expectedPermissionMode": .nullable(permissionMode),
        "expectedToolOverrides": .nullable(.object(toolOverrides)),
        "expectedMarkedUnreadAt": .nullable(.number(minimum: 0)),
        "autoLabel": .nullable(.string(minLength: 1, maxLength: 512)), "icon": .nullable(.string()),
        "color": .nullable(.string()), "boardFace": .oneOf(["chat", "dashboard"]),
        "statusNote": .nullable(.string(maxLength: 120)),
        // SESSION_AGENT_ATTENTION_ICON_IDS was not read: any string passes (looser than upstream).
        "attention": .nullable(.string()), "ttlMinutes": .integer(minimum: 1, maximum: 120),
        "toolOverrides": .nullable(.object(toolOverrides)), "permissionMode": .nullable(permissionMode),
        "threadId": .null, "completionOwnerSessionKey": .nullable(.string(minLength: 1)),
        "inheritedToolPolicyVersion": .nullable(.integer(minimum: 1, maximum: 1)),
    ]
}
