import OpenClawProtocol

/// `system.execApprovals.get` → the approvals snapshot `{path, exists, hash, file}`.
public struct ExecApprovalsGetCommand: NodeCommand {
    public let name = NodeCommandName.systemExecApprovalsGet
    public let store: ExecApprovalsStore

    public init(store: ExecApprovalsStore) {
        self.store = store
    }

    public struct Params: NodeCommandParams {
        public init(json: JSONValue?) throws(NodeInvokeError) { _ = try NodeParamReader(json) }
    }

    public func perform(
        _ params: Params, context: NodeInvokeContext
    ) async throws(NodeInvokeError)
        -> ExecApprovalsSnapshot
    {
        do {
            return try store.snapshot()
        } catch {
            throw NodeInvokeError(.failed, error.description)
        }
    }
}

extension ExecApprovalsSnapshot: NodeCommandPayload {}

/// `system.execApprovals.set {file, baseHash}`: compare-and-set; a stale `baseHash` fails with
/// `CONFLICT` and changes nothing.
public struct ExecApprovalsSetCommand: NodeCommand {
    public let name = NodeCommandName.systemExecApprovalsSet
    public let store: ExecApprovalsStore

    public init(store: ExecApprovalsStore) {
        self.store = store
    }

    public struct Params: NodeCommandParams {
        public var file: ExecApprovalsFile
        public var baseHash: String?

        public init(json: JSONValue?) throws(NodeInvokeError) {
            let reader = try NodeParamReader(json)
            guard let file = reader.object["file"] else { throw .invalidParams("file is required") }
            do {
                self.file = try ExecApprovalsFile(json: file)
            } catch {
                throw .invalidParams(error.description)
            }
            baseHash = try reader.string("baseHash")
        }
    }

    public func perform(
        _ params: Params, context: NodeInvokeContext
    ) async throws(NodeInvokeError)
        -> ExecApprovalsSnapshot
    {
        do {
            return try store.set(params.file, baseHash: params.baseHash)
        } catch .conflict {
            throw NodeInvokeError(.conflict, ExecApprovalsError.conflict.description)
        } catch {
            throw NodeInvokeError(.failed, error.description)
        }
    }
}
