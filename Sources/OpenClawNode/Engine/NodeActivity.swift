/// One line of what the node did, for the terminal and logs: which command, what the approvals
/// policy decided, the exit code and how long it took. Never params, environment or output.
public struct NodeActivity: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// An invoke was answered (once).
        case answered(ok: Bool, errorCode: NodeErrorCode?)
        /// A repeated invoke id: answered from the first run, nothing ran again.
        case duplicate
    }

    public var invokeId: String
    public var command: String
    public var kind: Kind
    public var decision: String?
    public var exitCode: Int?
    public var durationMs: Int

    public init(
        invokeId: String, command: String, kind: Kind, decision: String? = nil, exitCode: Int? = nil,
        durationMs: Int = 0
    ) {
        self.invokeId = invokeId
        self.command = command
        self.kind = kind
        self.decision = decision
        self.exitCode = exitCode
        self.durationMs = durationMs
    }

    /// `system.run  allowed (allowlist)  exit 0  120 ms`.
    public var line: String {
        var parts = [command]
        switch kind {
        case .duplicate: parts.append("duplicate invoke, answered from the first run")
        case .answered(let ok, let code):
            if let decision { parts.append(decision) }
            if let exitCode { parts.append("exit \(exitCode)") }
            if !ok, let code { parts.append("error \(code.rawValue)") }
            parts.append("\(durationMs) ms")
        }
        return parts.joined(separator: "  ")
    }
}
