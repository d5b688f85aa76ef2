import OpenClawProtocol

/// The `error.code` of a `node.invoke.result`: what the gateway shows the agent when a command fails.
public enum NodeErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The params do not fit the command (missing field, wrong type).
    case invalidRequest = "INVALID_REQUEST"
    /// The command is unknown here, or cannot run now; also the code of an exec-approvals refusal,
    /// whose message then starts with `SYSTEM_RUN_DENIED:` as upstream nodes send it.
    case unavailable = "UNAVAILABLE"
    /// The command did not finish within the invoke's `timeoutMs`.
    case timeout = "TIMEOUT"
    /// The gateway cancelled the invoke (`node.invoke.cancel`).
    case cancelled = "CANCELLED"
    /// The approvals file changed since the caller read it (`system.execApprovals.set` with a stale
    /// `baseHash`).
    case conflict = "CONFLICT"
    /// The person has not granted location access (or only while the app is open, and it is not).
    case locationPermissionRequired = "LOCATION_PERMISSION_REQUIRED"
    case cameraPermissionRequired = "CAMERA_PERMISSION_REQUIRED"
    /// The app is in the background, where iOS does not let it do this.
    case backgroundUnavailable = "NODE_BACKGROUND_UNAVAILABLE"
    /// Something on this host failed (a file could not be written, a process could not be started).
    case failed = "FAILED"
}

/// A typed failure of one command, turned into the result's `error` object on the wire.
public struct NodeInvokeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: NodeErrorCode
    public var message: String

    public init(_ code: NodeErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public var json: JSONValue {
        ["code": .string(code.rawValue), "message": .string(message.isEmpty ? code.rawValue : message)]
    }

    public static let unsupportedCommand = NodeInvokeError(.unavailable, "command not supported")
    public static let cancelled = NodeInvokeError(.cancelled, "node invoke cancelled")

    public static func invalidParams(_ problem: String) -> NodeInvokeError {
        NodeInvokeError(.invalidRequest, "invalid params: \(problem)")
    }

    public static func timedOut(afterMs: Int) -> NodeInvokeError {
        NodeInvokeError(.timeout, "node invoke timed out after \(afterMs) ms")
    }
}
