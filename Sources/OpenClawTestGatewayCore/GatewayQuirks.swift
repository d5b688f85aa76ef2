import OpenClawProtocol

/// Ways real gateways differ from the reference one, each switchable on the test gateway so a client
/// can be tested against older upstream releases, forks and third-party gateways.
///
/// Every quirk but ``noQueueMode`` changes only what the gateway *sends* (or whether it closes); the
/// gateway still checks what it receives exactly as before.
public struct GatewayQuirks: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `connect.challenge` carries only `nonce` (no `ts`), as older and third-party gateways send it.
    public static let noChallengeTs = GatewayQuirks(rawValue: 1 << 0)
    /// No `tick` events at all.
    public static let noTicks = GatewayQuirks(rawValue: 1 << 1)
    /// Every `chat` event is delivered twice: once broadcast with a frame `seq`, once targeted without.
    public static let duplicateChatEvents = GatewayQuirks(rawValue: 1 << 2)
    /// `chat.history` does not echo `sessionKey` or `sessionId`.
    public static let noSessionKeyEcho = GatewayQuirks(rawValue: 1 << 3)
    /// Timestamps as ISO 8601 strings: message `timestamp` with microseconds and `Z`, session
    /// `updatedAt` without a zone.
    public static let isoTimestamps = GatewayQuirks(rawValue: 1 << 4)
    /// `hello-ok` without `server` (version and connection id).
    public static let noServerInHello = GatewayQuirks(rawValue: 1 << 5)
    /// A refused `connect` is answered, but the socket is left open (upstream closes it with 1008).
    public static let keepSocketAfterRefusal = GatewayQuirks(rawValue: 1 << 6)
    /// Every refusal without `details` (no `details.code`, `missingScope`, `requestId` …): message text
    /// only, as upstream releases before the detail codes and third-party gateways that copied only the
    /// messages send it. Top-level `retryable`/`retryAfterMs` stay.
    public static let noDetailCodes = GatewayQuirks(rawValue: 1 << 7)
    /// A v4 build from before queue modes: `chat.send` refuses `queueMode` as an unexpected property.
    /// Unlike the others this quirk changes what the gateway accepts (it is an older schema).
    public static let noQueueMode = GatewayQuirks(rawValue: 1 << 8)
    /// A build from before `commands.list`: the method is unknown (and not in `hello-ok.features`).
    public static let noCommandsList = GatewayQuirks(rawValue: 1 << 9)
    /// A build that emits no `sessions.changed` (and does not list it in `hello-ok.features`).
    public static let noSessionsChanged = GatewayQuirks(rawValue: 1 << 10)
    /// As gateways before summer 2026: `chat.history` pages without `deltaCursor` (so a client reads whole
    /// pages again) and `hello-ok` without `chat.message.get` among its methods.
    public static let noHistoryCatchUp = GatewayQuirks(rawValue: 1 << 11)
    /// As gateways before the unified approval family: `hello-ok` without `approval.resolve`,
    /// `approval.get` and `approval.history`, so a client decides with `exec.approval.resolve` and asks
    /// for no record or history.
    public static let noUnifiedApprovals = GatewayQuirks(rawValue: 1 << 12)
    /// As gateways before summer 2026: `hello-ok` without `node.invoke.progress`, so a node sends its
    /// output with the result only.
    public static let noNodeInvokeProgress = GatewayQuirks(rawValue: 1 << 13)
    /// As gateways before summer 2026: no `artifacts.download` (unknown method, not in `hello-ok`), so a
    /// generated image's bytes cannot be had.
    public static let noArtifacts = GatewayQuirks(rawValue: 1 << 14)
    /// As gateways before agent questions (`ask_user`, 2026.7): no `question.*` methods or events, and
    /// the agent does not ask (it goes on with its own judgement).
    public static let noQuestions = GatewayQuirks(rawValue: 1 << 15)
    /// As gateways before the session approval audience (2026.7): no `sessions.messages.subscribe` /
    /// `unsubscribe` (unknown methods) and no `session.approval` events, in `hello-ok` or on the wire.
    public static let noSessionApprovals = GatewayQuirks(rawValue: 1 << 16)

    /// Each quirk with its command-line name (`openclaw-chat gateway --quirk NAME`).
    public static let named: [(name: String, quirk: GatewayQuirks)] = [
        ("no-challenge-ts", .noChallengeTs), ("no-ticks", .noTicks),
        ("duplicate-chat-events", .duplicateChatEvents), ("no-session-key-echo", .noSessionKeyEcho),
        ("iso-timestamps", .isoTimestamps), ("no-server-in-hello", .noServerInHello),
        ("keep-socket-after-refusal", .keepSocketAfterRefusal), ("no-detail-codes", .noDetailCodes),
        ("no-queue-mode", .noQueueMode), ("no-commands-list", .noCommandsList),
        ("no-sessions-changed", .noSessionsChanged),
        ("no-history-catch-up", .noHistoryCatchUp), ("no-unified-approvals", .noUnifiedApprovals),
        ("no-node-invoke-progress", .noNodeInvokeProgress), ("no-artifacts", .noArtifacts),
        ("no-questions", .noQuestions), ("no-session-approvals", .noSessionApprovals),
    ]

    /// The quirk called `name`; nil for an unknown name.
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.quirk
    }

    /// The command-line names of the quirks in this set.
    public var names: [String] { Self.named.filter { contains($0.quirk) }.map(\.name) }

    // MARK: Rewriting what the gateway sends

    /// A response or event frame as this dialect writes it. The reference frame when no quirk applies.
    func outbound(_ frame: JSONValue) -> JSONValue {
        guard !isEmpty, case .object(var members) = frame else { return frame }
        if contains(.noChallengeTs), members["event"] == .string(GatewayEventName.connectChallenge),
            case .object(var payload)? = members["payload"]
        {
            payload.removeValue(forKey: "ts")
            members["payload"] = .object(payload)
        }
        if contains(.noServerInHello), members["type"] == "res", case .object(var payload)? = members["payload"],
            payload["type"] == "hello-ok"
        {
            payload.removeValue(forKey: "server")
            members["payload"] = .object(payload)
        }
        if contains(.noHistoryCatchUp), members["type"] == "res", case .object(var payload)? = members["payload"],
            payload["type"] == "hello-ok", case .object(var features)? = payload["features"],
            let methods = features["methods"]?.arrayValue
        {
            features["methods"] = .array(methods.filter { $0 != .string(GatewayMethodName.chatMessageGet) })
            payload["features"] = .object(features)
            members["payload"] = .object(payload)
        }
        if contains(.noUnifiedApprovals), members["type"] == "res", case .object(var payload)? = members["payload"],
            payload["type"] == "hello-ok", case .object(var features)? = payload["features"],
            let methods = features["methods"]?.arrayValue
        {
            let unified: Set<JSONValue> = [
                .string(ApprovalNames.resolveMethod), .string(ApprovalNames.getMethod),
                .string(ApprovalNames.historyMethod),
            ]
            features["methods"] = .array(methods.filter { !unified.contains($0) })
            payload["features"] = .object(features)
            members["payload"] = .object(payload)
        }
        if contains(.noNodeInvokeProgress), members["type"] == "res", case .object(var payload)? = members["payload"],
            payload["type"] == "hello-ok", case .object(var features)? = payload["features"],
            let methods = features["methods"]?.arrayValue
        {
            features["methods"] = .array(methods.filter { $0 != .string(GatewayMethodName.nodeInvokeProgress) })
            payload["features"] = .object(features)
            members["payload"] = .object(payload)
        }
        if contains(.noDetailCodes), members["ok"] == false, case .object(var error)? = members["error"] {
            error.removeValue(forKey: "details")
            members["error"] = .object(error)
        }
        if contains(.isoTimestamps), let payload = members["payload"] {
            members["payload"] = Self.isoTimestamps(in: payload)
        }
        return .object(members)
    }

    /// The `chat.history` answer of this dialect.
    func historyPayload(_ payload: JSONValue) -> JSONValue {
        guard contains(.noSessionKeyEcho), case .object(var members) = payload else { return payload }
        members.removeValue(forKey: "sessionKey")
        members.removeValue(forKey: "sessionId")
        return .object(members)
    }

    /// Integer `timestamp` members become ISO 8601 with microseconds and `Z`; `updatedAt` members ISO
    /// 8601 without a zone. Everything else is kept.
    static func isoTimestamps(in value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var rewritten: [String: JSONValue] = [:]
            for (key, member) in members {
                switch (key, member) {
                case ("timestamp", .int(let ms)): rewritten[key] = .string(ISOTime.string(ms, microseconds: true))
                case ("updatedAt", .int(let ms)): rewritten[key] = .string(ISOTime.string(ms, zone: false))
                default: rewritten[key] = isoTimestamps(in: member)
                }
            }
            return .object(rewritten)
        case .array(let elements): return .array(elements.map(isoTimestamps(in:)))
        default: return value
        }
    }
}

/// Epoch milliseconds as ISO 8601 text, without Foundation's platform-dependent formatters.
package enum ISOTime {
    static func string(_ ms: Int, microseconds: Bool = false, zone: Bool = true) -> String {
        let days = Int((Double(ms) / 86_400_000).rounded(.down))
        let msOfDay = ms - days * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        let seconds = msOfDay / 1000
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(msOfDay % 1000, 3))"
        if microseconds { text += "000" }
        if zone { text += "Z" }
        return text
    }

    /// Howard Hinnant's `civil_from_days`: the Gregorian date `days` after 1970-01-01.
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` in at least `width` digits, zeros in front.
    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension GatewayHub {
    /// After a refused `connect`: close as upstream does, or leave the socket open in that dialect
    /// (the handshake timer closes it eventually).
    func closeAfterRefusal(_ id: Int, code: Int, reason: String?) {
        guard !configuration.quirks.contains(.keepSocketAfterRefusal) else { return }
        close(id, code: code, reason: reason)
    }

    /// The second delivery of a `chat` event in the duplicating dialect: targeted, without frame `seq`.
    func deliverQuirkDuplicate(_ event: String, payload: JSONValue, to reached: [Int]) {
        guard configuration.quirks.contains(.duplicateChatEvents), event == GatewayEventName.chat else { return }
        for id in reached { send(EventFrame(event: event, payload: payload).json, to: id) }
    }
}
