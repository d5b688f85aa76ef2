import OpenClawGateway

/// How a long-running command (`node`, `approvals watch`) lives with its connection after the first
/// handshake: drops and restarts are the connection's own business (it reconnects), but a failure that
/// retrying cannot fix — another token, a changed certificate, a removed device — ends the command at
/// once with the failure said on stderr and its exit code, so a supervisor sees a dead process rather
/// than a healthy-looking one that will never hear from the gateway again. With `--keep-trying` the
/// failure is said and the command tries again every ``retryInterval`` instead.
struct LastingConnection: Sendable {
    let connection: GatewayConnection
    let keepTrying: Bool

    static let retryInterval = Duration.seconds(30)

    /// Returns the failure that should end the command, or nil when the task is cancelled.
    func firstUnrecoverableFailure(terminal: Terminal) async -> GatewayError? {
        for await state in connection.stateChanges() {
            guard case .failed(let error) = state else { continue }
            guard keepTrying else { return error }
            terminal.error(error.message, hint: error.nextStep)
            terminal.errorLine("Trying again in \(Self.retryInterval.components.seconds) s (--keep-trying).")
            do {
                try await Task.sleep(for: Self.retryInterval)
            } catch {
                return nil
            }
            await connection.reconnectNow()
        }
        return nil
    }
}
