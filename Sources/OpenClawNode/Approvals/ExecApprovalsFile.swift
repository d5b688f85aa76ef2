import OpenClawProtocol

/// `security`: what the node runs at all.
public enum ExecSecurity: String, Sendable, Hashable, CaseIterable {
    /// Nothing runs.
    case deny
    /// Only executables matching the allowlist run (others may be approved, see ``ExecAsk``).
    case allowlist
    /// Everything runs.
    case full
}

/// `ask`: when the gateway's approver must be asked before running.
public enum ExecAsk: String, Sendable, Hashable, CaseIterable {
    case off
    /// Ask for what the allowlist does not cover.
    case onMiss = "on-miss"
    case always
}

/// One allowlist entry: a case-insensitive glob over the resolved executable's path, and optionally
/// over its arguments.
public struct ExecAllowlistEntry: Sendable, Hashable {
    public var id: String?
    public var pattern: String
    public var argPattern: String?
    public var lastUsedAt: Int?
    public var lastUsedCommand: String?
    public var lastResolvedPath: String?

    public init(pattern: String, argPattern: String? = nil, id: String? = nil) {
        self.pattern = pattern
        self.argPattern = argPattern
        self.id = id
    }

    init(json: JSONValue) throws(ExecApprovalsError) {
        guard let pattern = json["pattern"]?.stringValue else { throw .invalidFile("allowlist entry without pattern") }
        self.pattern = pattern
        id = json["id"]?.nonEmptyStringValue
        argPattern = json["argPattern"]?.stringValue
        lastUsedAt = json["lastUsedAt"]?.intValue
        lastUsedCommand = json["lastUsedCommand"]?.stringValue
        lastResolvedPath = json["lastResolvedPath"]?.stringValue
    }

    public var json: JSONValue {
        .object(dropping: [
            ("id", .string(id)), ("pattern", .string(pattern)), ("argPattern", .string(argPattern)),
            ("lastUsedAt", .int(lastUsedAt)), ("lastUsedCommand", .string(lastUsedCommand)),
            ("lastResolvedPath", .string(lastResolvedPath)),
        ])
    }
}

/// The policy fields shared by `defaults` and each agent; nil means "inherit".
public struct ExecPolicySettings: Sendable, Hashable {
    public var security: ExecSecurity?
    public var ask: ExecAsk?
    public var askFallback: ExecSecurity?
    public var autoAllowSkills: Bool?
    /// Agents only (`defaults` has none).
    public var allowlist: [ExecAllowlistEntry]?

    public init(
        security: ExecSecurity? = nil, ask: ExecAsk? = nil, askFallback: ExecSecurity? = nil,
        allowlist: [ExecAllowlistEntry]? = nil
    ) {
        self.security = security
        self.ask = ask
        self.askFallback = askFallback
        self.allowlist = allowlist
    }

    init(json: JSONValue, where place: String) throws(ExecApprovalsError) {
        guard json.objectValue != nil else { throw .invalidFile("\(place) must be an object") }
        security = try Self.decode(json["security"], ExecSecurity.self, "\(place).security")
        ask = try Self.decode(json["ask"], ExecAsk.self, "\(place).ask")
        askFallback = try Self.decode(json["askFallback"], ExecSecurity.self, "\(place).askFallback")
        autoAllowSkills = json["autoAllowSkills"]?.boolValue
        if let items = json["allowlist"], !items.isNull {
            guard let array = items.arrayValue else { throw .invalidFile("\(place).allowlist must be an array") }
            var entries: [ExecAllowlistEntry] = []
            for item in array { entries.append(try ExecAllowlistEntry(json: item)) }
            allowlist = entries
        }
    }

    /// An unknown value is an error, not a default: a policy we cannot read must not run anything.
    private static func decode<Value: RawRepresentable<String>>(
        _ json: JSONValue?, _: Value.Type, _ place: String
    ) throws(ExecApprovalsError) -> Value? {
        guard let json, !json.isNull else { return nil }
        guard let text = json.stringValue, let value = Value(rawValue: text) else {
            throw .invalidFile("\(place) has an unknown value")
        }
        return value
    }

    func json(includeAllowlist: Bool) -> JSONValue {
        .object(dropping: [
            ("security", .string(security?.rawValue)), ("ask", .string(ask?.rawValue)),
            ("askFallback", .string(askFallback?.rawValue)), ("autoAllowSkills", .bool(autoAllowSkills)),
            ("allowlist", includeAllowlist ? allowlist.map { .array($0.map(\.json)) } : nil),
        ])
    }
}

/// `exec-approvals.json`: this node's policy for `system.run`. The node's owner edits it (by hand,
/// `openclaw-chat approvals`, or through the gateway's `system.execApprovals.set`); the node enforces it.
public struct ExecApprovalsFile: Sendable, Hashable {
    public var version = 1
    /// The optional local approval socket (upstream's companion app); kept as read, never shown.
    public var socket: JSONValue?
    public var defaults = ExecPolicySettings()
    public var agents: [String: ExecPolicySettings] = [:]

    public init(defaults: ExecPolicySettings = ExecPolicySettings(), agents: [String: ExecPolicySettings] = [:]) {
        self.defaults = defaults
        self.agents = agents
    }

    /// The agent whose allowlist applies to every agent.
    public static let anyAgent = "*"
    public static let defaultAgent = "main"

    public init(json: JSONValue) throws(ExecApprovalsError) {
        guard json.objectValue != nil else { throw .invalidFile("the file must hold a JSON object") }
        guard json["version"]?.intValue == 1 || json["version"]?.doubleValue == 1 else {
            throw .invalidFile("version must be 1")
        }
        if let socket = json["socket"], socket.objectValue != nil { self.socket = socket }
        if let defaults = json["defaults"], !defaults.isNull {
            self.defaults = try ExecPolicySettings(json: defaults, where: "defaults")
            self.defaults.allowlist = nil
        }
        if let agents = json["agents"], !agents.isNull {
            guard let members = agents.objectValue else { throw .invalidFile("agents must be an object") }
            for (name, value) in members {
                self.agents[name] = try ExecPolicySettings(json: value, where: "agents.\(name)")
            }
        }
    }

    public var json: JSONValue {
        .object(dropping: [
            ("version", .int(version)), ("socket", socket), ("defaults", defaults.json(includeAllowlist: false)),
            ("agents", .object(agents.mapValues { $0.json(includeAllowlist: true) })),
        ])
    }

    /// The file as written: pretty enough to edit by hand, keys in a stable order.
    public var bytes: [UInt8] { Array((PrettyJSON.string(json) + "\n").utf8) }
}

/// Why an approvals file could not be read or written.
public enum ExecApprovalsError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidFile(String)
    /// `baseHash` does not match the file on disk: someone changed it since it was read.
    case conflict
    case storage(String)

    public var description: String {
        switch self {
        case .invalidFile(let problem): return "the exec approvals file is invalid: \(problem)"
        case .conflict:
            return
                "the exec approvals file changed since it was read (baseHash does not match); read it again and retry"
        case .storage(let problem): return "the exec approvals file could not be stored: \(problem)"
        }
    }
}
