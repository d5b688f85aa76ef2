import OpenClawProtocol

/// Static facts the gateway advertises: methods, events, models, the agent's identity.
enum GatewayCatalog {
    /// `hello-ok.features.methods`: what this gateway answers (discovery only, as upstream).
    static let methods = [
        "health", "chat.history", "chat.send", "chat.abort", "sessions.list", "models.list", "agent.identity.get",
        "device.pair.list", "device.pair.approve", "node.list", "node.describe", "node.invoke", "node.invoke.result",
        "node.event", "exec.approval.resolve", "exec.approval.list", "exec.approval.get",
        GatewayMethodName.chatMessageGet, ApprovalNames.resolveMethod, GatewayMethodName.nodeInvokeProgress,
        ApprovalNames.getMethod, ApprovalNames.historyMethod,
    ]

    /// Methods of summer 2026, after the spring references: a v3 (spring) gateway does not list them.
    static let summer2026Methods: Set<String> = [
        GatewayMethodName.chatMessageGet, ApprovalNames.resolveMethod, GatewayMethodName.nodeInvokeProgress,
        ApprovalNames.getMethod, ApprovalNames.historyMethod,
    ]

    /// What `hello-ok` lists for this protocol version.
    static func methods(v4: Bool) -> [String] {
        v4 ? methods : methods.filter { !summer2026Methods.contains($0) }
    }

    /// `hello-ok.features.events`: the reference gateway's event list.
    static let events = [
        "connect.challenge", "agent", "chat", "session.message", "session.tool", "sessions.changed", "presence",
        "tick", "talk.mode", "shutdown", "health", "heartbeat", "cron", "node.pair.requested", "node.pair.resolved",
        "node.invoke.request", "device.pair.requested", "device.pair.resolved", "voicewake.changed",
        "exec.approval.requested", "exec.approval.resolved", "plugin.approval.requested", "plugin.approval.resolved",
        "update.available",
    ]

    /// The methods of a gateway with `quirks`: `commands.list` and `sessions.subscribe` unless the
    /// quirks leave them out.
    static func methods(v4: Bool, quirks: GatewayQuirks) -> [String] {
        var methods = Self.methods(v4: v4)
        if !quirks.contains(.noCommandsList) { methods.append(GatewayMethodName.commandsList) }
        if !quirks.contains(.noSessionsChanged) { methods.append(GatewayMethodName.sessionsSubscribe) }
        if v4, !quirks.contains(.noArtifacts) { methods.append(GatewayMethodName.artifactsDownload) }
        if v4, !quirks.contains(.noQuestions) { methods += questionMethods }
        if v4, !quirks.contains(.noSessionApprovals) {
            methods += [SessionApprovalNames.subscribeMethod, SessionApprovalNames.unsubscribeMethod]
        }
        return methods
    }

    /// The agent-question family (2026.7, `ask_user`). Its events are broadcast but, as upstream's
    /// `GATEWAY_EVENTS`, not listed in `hello-ok.features.events`: a client knows the family by its methods.
    static let questionMethods = [QuestionNames.listMethod, QuestionNames.getMethod, QuestionNames.resolveMethod]

    static func events(v4: Bool = true, quirks: GatewayQuirks) -> [String] {
        var events =
            quirks.contains(.noSessionsChanged) ? events.filter { $0 != GatewayEventName.sessionsChanged } : events
        if v4, !quirks.contains(.noSessionApprovals) { events.append(SessionApprovalNames.event) }
        return events
    }

    /// The gateway's own chat commands (`commands.list`), as upstream's native ones describe themselves.
    static let commands: [(name: String, description: String, acceptsArgs: Bool)] = [
        ("new", "Start a new session.", true), ("reset", "Reset the current session.", true),
        ("compact", "Compact the session context.", true), ("stop", "Stop the current run.", false),
        ("status", "Show current status.", false), ("usage", "Usage footer or cost summary.", true),
        ("queue", "Adjust queue settings.", true), ("steer", "Send guidance to the running turn.", true),
        ("think", "Set thinking level.", true), ("model", "Show or set the model.", true),
    ]

    /// Methods only a `node` connection may call.
    static let nodeOnlyMethods: Set<String> = [
        "node.invoke.result", "node.event", GatewayMethodName.nodeInvokeProgress, "node.pending.drain",
        "node.canvas.capability.refresh", "node.pending.pull", "node.pending.ack", "skills.bins",
    ]

    static let defaultModel = (provider: "openclaw-test", id: "scripted-agent", contextTokens: 200_000)

    static let models: JSONValue = [
        "models": [
            [
                "id": "scripted-agent", "name": "Scripted Agent", "provider": "openclaw-test",
                "contextWindow": 200_000, "reasoning": true,
            ],
            [
                "id": "scripted-agent-mini", "name": "Scripted Agent Mini", "provider": "openclaw-test",
                "contextWindow": 32_000,
            ],
        ]
    ]

    static let identity: JSONValue = ["agentId": "main", "name": "Test Agent", "emoji": "🦞"]

    /// `usage` of a scripted assistant message (whitelisted fields only, as history sanitises them).
    static func usage(input: Int, output: Int) -> JSONValue {
        [
            "input": .int(input), "output": .int(output), "cacheRead": 0, "cacheWrite": 0,
            "totalTokens": .int(input + output),
            "cost": ["total": 0],
        ]
    }

    /// The provider fields every scripted assistant message carries.
    static let assistantOrigin: [String: JSONValue] = [
        "api": "openai-responses", "provider": .string(defaultModel.provider), "model": .string(defaultModel.id),
    ]
}
