import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import Synchronization

/// Records the typed `chat` and `agent` events a connection delivers, to prove what reached the socket
/// independently of what the view model made of it.
final class ChatEventLog: Sendable {
    private let task: Task<Void, Never>
    private let store = EventStore()

    init(_ connection: GatewayConnection) {
        let events = ChatClient(connection: connection).events()
        let store = self.store
        task = Task {
            for await event in events { store.append(event) }
        }
    }

    deinit { task.cancel() }

    /// `sessionKey`s of the `chat` events of `runId`, in arrival order.
    func chatSessionKeys(runId: String) -> [String] {
        store.all.compactMap { event in
            guard case .chat(let chat) = event, chat.runId == runId else { return nil }
            return chat.sessionKey
        }
    }

    /// `sessionKey`s of the `agent` events of `runId` that carry one, in arrival order.
    func agentSessionKeys(runId: String) -> [String] {
        store.all.compactMap { event in
            guard case .agent(let agent) = event, agent.runId == runId else { return nil }
            return agent.sessionKey
        }
    }
}

private final class EventStore: Sendable {
    private let events = Mutex<[ChatStreamEvent]>([])
    func append(_ event: ChatStreamEvent) { events.withLock { $0.append(event) } }
    var all: [ChatStreamEvent] { events.withLock { $0 } }
}
