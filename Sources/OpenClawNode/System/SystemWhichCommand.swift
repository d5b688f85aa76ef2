import OpenClawProtocol

/// `system.which {bins}` → `{bins: {name: path}}`: where this node's `PATH` finds each name, as `which`
/// prints it (the link on `PATH`, not its target); names it does not find are left out.
public struct SystemWhichCommand: NodeCommand {
    public let name = NodeCommandName.systemWhich
    public let searchPath: String

    public init(searchPath: String) {
        self.searchPath = searchPath
    }

    public struct Params: NodeCommandParams {
        public var bins: [String]

        public init(json: JSONValue?) throws(NodeInvokeError) {
            let reader = try NodeParamReader(json)
            guard let bins = try reader.strings("bins") else { throw .invalidParams("bins is required") }
            guard bins.count <= 256 else { throw .invalidParams("at most 256 bins") }
            self.bins = bins
        }
    }

    public struct Payload: NodeCommandPayload {
        public var found: [String: String]
        public var json: JSONValue { ["bins": .object(found.mapValues(JSONValue.string))] }
    }

    public func perform(_ params: Params, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        let resolver = ExecutableResolver(searchPath: searchPath)
        var found: [String: String] = [:]
        // Names only: a path would let `which` probe arbitrary files.
        for name in params.bins where !name.contains("/") {
            if let path = resolver.locate(name, workingDirectory: nil) { found[name] = path }
        }
        return Payload(found: found)
    }
}
