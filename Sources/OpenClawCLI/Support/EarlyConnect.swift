import OpenClawGateway
import Synchronization

/// A one-shot command's first connect attempt, started before the transcript database is opened so
/// that the handshake (a few round trips and a signature) runs while SQLite opens and migrates the file,
/// rather than after it.
///
/// The attempt is the command's one attempt, not an extra one: the first ``connect(_:)`` takes its
/// result, failure included, so a refused token is tried once (a second try could count against the
/// gateway's sign-in rate limit). Later calls (after a told rate-limit wait) connect afresh.
final class EarlyConnect: Sendable {
    private let connection: GatewayConnection
    private let attempt: Task<Result<GatewaySession, GatewayError>, Never>
    private let taken = Mutex(false)

    init(_ connection: GatewayConnection) {
        self.connection = connection
        // Unstructured: the handshake runs while the caller opens the store; ends with the attempt, which
        // the first `connect()` awaits.
        attempt = Task {
            do throws(GatewayError) {
                return .success(try await connection.connect())
            } catch {
                return .failure(error)
            }
        }
    }

    func connect() async throws(GatewayError) -> GatewaySession {
        let first = taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
        guard first else { return try await connection.connect() }
        return try await attempt.value.get()
    }
}
