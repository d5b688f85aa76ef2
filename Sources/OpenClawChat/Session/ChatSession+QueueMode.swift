import OpenClawGateway
import OpenClawProtocol

/// Queue modes: what the gateway does with a message typed while the session is busy.
extension ChatSession {
    /// The current session's chosen mode; nil leaves the gateway's (the session's `/queue` setting, else
    /// its configuration, else `steer`).
    public var queueMode: QueueMode? { queueModes[currentSessionKey] }

    /// Chooses the current session's mode for the messages sent from now on (nil: the gateway's).
    public func setQueueMode(_ mode: QueueMode?) {
        queueModes[currentSessionKey] = mode
    }

    /// Whether the connected gateway takes a mode with each message (protocol 4). False while offline:
    /// the next connection decides, and a message queued meanwhile keeps its mode until then.
    public var gatewayTakesQueueModes: Bool {
        guard let session = connectionState.session else { return false }
        return ChatClient.supportsQueueModes(session.hello)
    }

    /// Sends `text` as a steer into the running turn (an idle session starts a turn with it), whatever
    /// the session's mode; returns its run id. A gateway without queue modes gets a plain message.
    @discardableResult
    public func steer(_ text: String) async -> String {
        await enqueue(text, attachments: [], queueMode: .steer)
    }
}
