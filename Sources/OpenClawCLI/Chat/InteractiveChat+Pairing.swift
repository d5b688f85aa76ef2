import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device the gateway has not approved yet: on a terminal the chat says what to run on the gateway host
/// and goes on by itself once it is done, as a person waiting in front of it expects; a script still
/// gets the refusal and its exit code at once.
extension InteractiveChat {
    /// The waits between two attempts while approval is pending, the last one repeated. Each attempt keeps
    /// the gateway's pending request alive (it expires five minutes after the device's last try) and
    /// reuses it, so the command shown stays right.
    static let pairingRetryDelays: [Duration] = [.seconds(2), .seconds(3), .seconds(5)]

    /// Waits until the gateway admits this device, retrying on the schedule above. Nil once connected;
    /// else what to exit with: the refusal when the person gave up (Ctrl-C, end of input), or another
    /// error that came meanwhile (shown here).
    func waitForPairing(
        _ request: GatewayError.PairingRequest, events: inout AsyncStream<LoopEvent>.Iterator
    ) async -> GatewayError? {
        let refusal = GatewayError.pairingRequired(request)
        terminal.errorLine(refusal.message)
        terminal.errorLine("  → On the gateway host run: \(TerminalText.escapedLine(request.approveCommand))")
        terminal.errorLine(
            terminal.styled("Waiting for the approval: the chat starts by itself then (Ctrl-C to stop).", .dim))
        var attempt = 0
        var shownRequestId = request.requestId
        while true {
            let delay = Self.pairingRetryDelays[min(attempt, Self.pairingRetryDelays.count - 1)]
            attempt += 1
            // Unstructured: it reports through the loop events read below; cancelled after each wait.
            let retry = Task { [connection, loopEvents] in
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                _ = try? await connection.connect()
                loopEvents?.yield(.started)
            }
            defer { retry.cancel() }
            guard let event = await events.next(isolation: #isolation) else { return refusal }
            switch event {
            case .started: break
            case .signal, .quit, .endOfInput, .line, .escape: return refusal
            }
            switch await connection.state {
            case .connected:
                terminal.errorLine(terminal.styled("Approved: connected.", .green))
                return nil
            case .failed(.pairingRequired(let renewed)):
                // Rejected or expired meanwhile, the gateway made a new request: the command shown changes.
                if renewed.requestId != shownRequestId {
                    shownRequestId = renewed.requestId
                    terminal.errorLine(
                        "  → A new request: on the gateway host run: \(TerminalText.escapedLine(renewed.approveCommand))"
                    )
                }
                continue
            case .failed(let error):
                terminal.error(error.message, hint: error.nextStep)
                return error
            case .disconnected, .connecting, .reconnecting:
                continue
            }
        }
    }

    /// Whether a person is there to approve the device meanwhile.
    static var waitsForPairing: Bool { isatty(STDIN_FILENO) == 1 }
}
