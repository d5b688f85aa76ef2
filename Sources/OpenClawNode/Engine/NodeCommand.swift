import OpenClawProtocol

/// Params a command reads from the invoke: decoded once, at the edge; the handler sees only the type.
public protocol NodeCommandParams: Sendable {
    /// `json` is nil when the gateway sent no params. Throws `INVALID_REQUEST` for params that do not fit.
    init(json: JSONValue?) throws(NodeInvokeError)
}

/// What a command answers with, encoded as the result's payload.
public protocol NodeCommandPayload: Sendable {
    var json: JSONValue { get }
}

/// One command this node performs (`system.run`, `system.which` …): a name, a params type and a
/// result type. The engine decodes, enforces the invoke's timeout and cancel, and answers once.
public protocol NodeCommand: Sendable {
    associatedtype Params: NodeCommandParams
    associatedtype Payload: NodeCommandPayload

    /// The `command` name the gateway invokes and the node declares in `connect`.
    var name: String { get }

    /// Runs the command. Cancellation (timeout, `node.invoke.cancel`, shutdown) arrives as task
    /// cancellation: a handler that started a process must end it.
    func perform(_ params: Params, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload
}

/// What a command may know about the invoke it serves, and how it reports to the gateway.
public struct NodeInvokeContext: Sendable {
    public var invokeId: String
    public var nodeId: String
    let sendEvent: @Sendable (NodeEvent) async -> Void
    let record: @Sendable (NodeInvokeNote) async -> Void
    /// Where a long command's output goes while it runs (`node.invoke.progress`); nil when the gateway
    /// does not take it.
    public let progress: (@Sendable ([UInt8]) async -> Void)?

    public init(
        invokeId: String, nodeId: String, sendEvent: @escaping @Sendable (NodeEvent) async -> Void = { _ in },
        record: @escaping @Sendable (NodeInvokeNote) async -> Void = { _ in },
        progress: (@Sendable ([UInt8]) async -> Void)? = nil
    ) {
        self.invokeId = invokeId
        self.nodeId = nodeId
        self.sendEvent = sendEvent
        self.record = record
        self.progress = progress
    }

    /// Sends a `node.event` (e.g. `exec.finished`) to the gateway; best effort.
    public func emit(_ event: NodeEvent) async { await sendEvent(event) }

    /// Adds a fact to this invoke's log line (the approvals decision, the exit code).
    public func note(_ note: NodeInvokeNote) async { await record(note) }
}

/// Facts a command adds to its invoke's log line.
public enum NodeInvokeNote: Sendable, Hashable {
    case decision(String)
    case exitCode(Int)
}

/// A node-to-gateway event: the params of the `node.event` request.
public struct NodeEvent: Sendable, Hashable {
    public var event: String
    public var payload: JSONValue

    public init(event: String, payload: JSONValue) {
        self.event = event
        self.payload = payload
    }

    /// `{event, payloadJSON}`: the closed `NodeEventParams` shape, payload as a string like upstream nodes.
    public var json: JSONValue {
        ["event": .string(event), "payloadJSON": .string(JSONSerializer.string(payload))]
    }
}

/// A command with its types erased, so the engine can keep commands of every kind in one table.
struct AnyNodeCommand: Sendable {
    let name: String
    let perform: @Sendable (JSONValue?, NodeInvokeContext) async -> Result<JSONValue, NodeInvokeError>

    init<Command: NodeCommand>(_ command: Command) {
        name = command.name
        perform = { json, context in
            do throws(NodeInvokeError) {
                let params = try Command.Params(json: json)
                return .success(try await command.perform(params, context: context).json)
            } catch {
                return .failure(error)
            }
        }
    }
}
