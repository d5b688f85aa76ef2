extension GatewayMethodName {
    /// The gateway's slash-command inventory (`operator.read`, late protocol 4).
    public static let commandsList = "commands.list"
}

/// `commands.list` params. Only `scope` and `includeArgs` are sent: every build that has the method
/// accepts both (upstream `packages/gateway-protocol/src/schema/commands.ts`; `sessionKey` is newer).
public struct CommandsListParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.commandsList

    /// Which name each entry's `name` carries: `text` gives the slash token a person types.
    public var scope: String?
    /// False leaves out the argument metadata, which a `/help` list does not show.
    public var includeArgs: Bool?

    public init(scope: String? = "text", includeArgs: Bool? = false) {
        self.scope = scope
        self.includeArgs = includeArgs
    }

    public var json: JSONValue {
        .object(dropping: [("scope", .string(scope)), ("includeArgs", includeArgs.map(JSONValue.bool))])
    }
}

/// One command the gateway understands when it arrives as a chat message (`/name args`).
public struct GatewaySlashCommand: Sendable, Hashable, Identifiable {
    /// The command without its slash (`compact`, `usage`).
    public var name: String
    /// The description the gateway gives; may be empty.
    public var description: String
    /// Other spellings, each with its slash (`/m` for `/model`).
    public var aliases: [String]
    /// `native`, `skill` or `plugin`.
    public var source: String
    public var acceptsArgs: Bool

    public var id: String { name }

    public init(name: String, description: String, aliases: [String] = [], source: String, acceptsArgs: Bool) {
        self.name = name
        self.description = description
        self.aliases = aliases
        self.source = source
        self.acceptsArgs = acceptsArgs
    }

    /// Nil without a usable name. Upstream's limits bound what is kept: a name of 200 characters, a
    /// description of 2,000, 20 aliases.
    public init?(json: JSONValue) {
        guard var name = json["name"]?.nonEmptyStringValue, name.count <= 200 else { return nil }
        if name.hasPrefix("/") { name.removeFirst() }
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
        let aliases = (json["textAliases"]?.arrayValue ?? []).prefix(20).compactMap { $0.nonEmptyStringValue }
        self.init(
            name: name,
            description: String((json["description"]?.stringValue ?? "").prefix(2_000)),
            aliases: aliases.filter { $0.count <= 200 },
            source: json["source"]?.stringValue ?? "native",
            acceptsArgs: json["acceptsArgs"]?.boolValue ?? false
        )
    }
}

/// The answer to `commands.list`: at most 500 commands (upstream's `COMMAND_LIST_MAX_ITEMS`).
public struct CommandsListResult: Sendable, Hashable {
    public static let maxCommands = 500
    public var commands: [GatewaySlashCommand]

    public init(commands: [GatewaySlashCommand]) { self.commands = commands }

    /// Entries without a name are skipped, duplicates keep the first; nil when `commands` is missing.
    public init?(json: JSONValue?) {
        guard let items = json?["commands"]?.arrayValue else { return nil }
        var seen: Set<String> = []
        var commands: [GatewaySlashCommand] = []
        for item in items.prefix(Self.maxCommands) {
            guard let command = GatewaySlashCommand(json: item), seen.insert(command.name).inserted else { continue }
            commands.append(command)
        }
        self.init(commands: commands)
    }
}
