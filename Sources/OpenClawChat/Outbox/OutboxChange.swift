/// What an ``Outbox`` input changed, for the store to follow: the outbox in memory and on disk stay
/// the same list.
public enum OutboxChange: Sendable, Equatable {
    case added(OutboxMessage)
    case updated(OutboxMessage)
    case removed(OutboxMessage)

    public var message: OutboxMessage {
        switch self {
        case .added(let message), .updated(let message), .removed(let message): message
        }
    }
}
