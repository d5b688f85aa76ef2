import OpenClawProtocol

/// One notification to show the person at this computer.
public struct NodeNotification: Sendable, Hashable {
    public var title: String
    public var body: String
    public var sound: String?
    public var priority: String?
}

/// Shows notifications: `notify-send` on a desktop, printed otherwise; a fake in tests.
public protocol Notifier: Sendable {
    func show(_ notification: NodeNotification) async throws(NodeInvokeError)
}

/// `system.notify {title, body, sound?, priority?, delivery?}` → `{ok: true}`.
public struct SystemNotifyCommand: NodeCommand {
    public let name = NodeCommandName.systemNotify
    public let notifier: any Notifier

    public init(notifier: any Notifier) {
        self.notifier = notifier
    }

    public struct Params: NodeCommandParams {
        public var notification: NodeNotification

        public init(json: JSONValue?) throws(NodeInvokeError) {
            let reader = try NodeParamReader(json)
            let title = try reader.string("title") ?? ""
            let body = try reader.string("body") ?? ""
            guard !title.isEmpty || !body.isEmpty else { throw .invalidParams("title or body is required") }
            notification = NodeNotification(
                title: String(title.prefix(256)), body: String(body.prefix(4096)), sound: try reader.string("sound"),
                priority: try reader.string("priority"))
        }
    }

    public struct Payload: NodeCommandPayload {
        public var json: JSONValue { ["ok": true] }
    }

    public func perform(_ params: Params, context: NodeInvokeContext) async throws(NodeInvokeError) -> Payload {
        try await notifier.show(params.notification)
        return Payload()
    }
}
