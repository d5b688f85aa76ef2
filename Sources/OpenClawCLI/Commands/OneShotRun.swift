import ArgumentParser
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sending one message through the chat session and following its run to the end, for `send`.
///
/// It rides out a dropped connection within ``FollowPolicy/offlineBound``: the chat session reconnects,
/// reloads history, resends an unanswered message with the same idempotency key (the gateway
/// deduplicates it), and the follower picks the run up from the new socket's events or from history.
/// Ctrl-C stops the run at the gateway (`chat.abort`) and exits 7; a second Ctrl-C exits at once.
@MainActor
struct OneShotRun {
    /// Quick attempts (about 1, 2.5 and 6 s): the follow policy gives up after three of them or 30 s.
    nonisolated static let reconnect = ReconnectPolicy(
        initialDelay: .seconds(1), maxDelay: .seconds(8), multiplier: 2.5)
    /// How long a stop request may take before the command exits anyway.
    nonisolated static let abortGrace: Duration = .seconds(3)
    /// The same after `--timeout` or `--idle-timeout` ran out: the bound is the person's, so the stop
    /// request gets only what keeps the exit within a second of it (on a gateway that answers at all,
    /// `chat.abort` is answered in milliseconds).
    nonisolated static let timeoutAbortGrace: Duration = .milliseconds(500)

    let connection: GatewayConnection
    /// The command's connect attempt, started before the store opened.
    let firstAttempt: EarlyConnect
    let store: any ChatStore
    let terminal: Terminal
    let output: RunOutput
    let policy: FollowPolicy

    /// Connects (a first failure is reported at once, never retried), sends, follows.
    func perform(
        text: String, attachments: [Attachment] = [], session: String, thinking: ThinkingLevel?
    ) async throws -> (FollowedRunResult, String) {
        let signals = SignalEvents([SIGINT, SIGTERM])
        defer { signals.cancel() }
        let chat = ChatSession(client: ChatClient(connection: connection), sessionKey: session, store: store)
        chat.thinkingLevel = thinking
        chat.followsGatewayExtras = false
        let unsent = UnsentMessage()
        // Unstructured so that a Ctrl-C (below) cancels the run alone; awaited here.
        let work = Task { @MainActor () throws -> (FollowedRunResult, String) in
            let early = firstAttempt
            // The stored transcript and outbox are read while the handshake runs, not after `hello-ok`
            // (a speed change, measured by the benchmark suite's scenario 8). Should the handshake fail,
            // the command waits for that read before it ends.
            // Unstructured: overlaps the handshake; `chat.start()` awaits the same read (`loadStoredState`).
            Task { await chat.loadStoredState() }
            let queued = try await connectQueueing(text, attachments: attachments, chat: chat, unsent: unsent) {
                try await OneShotConnect.connect(connection, terminal: terminal) {
                    @Sendable _ throws(GatewayError) -> GatewaySession in try await early.connect()
                }
            }
            // Followed from the moment it is queued, not from its acknowledgement: the bounds hold while
            // `chat.send` waits for its answer, and events that come with (or before) it are seen.
            let runId: String
            if let queued {
                runId = queued
            } else {
                do throws(AttachmentError) {
                    // Files are queued only now, checked against this gateway's own limits.
                    runId = try await chat.submit(text, attachments: attachments)
                } catch {
                    throw GatewayError.attachment(error)
                }
            }
            var follower = RunFollower(chat: chat, terminal: terminal, output: output, policy: policy)
            let result = await follower.follow(runId: runId)
            switch result {
            case .timedOut(_, .notSent): break
            case .timedOut, .unacknowledged: await Self.stop(chat, grace: Self.timeoutAbortGrace)
            default: break
            }
            // The page that confirms the run is what the store records (and `search` finds).
            if result != .cancelled, chat.connectionState.isConnected {
                switch result {
                case .timedOut, .unacknowledged: break
                default:
                    // The attempt's outcome is stored (the reply can come before the ack is handled).
                    await chat.finishDelivery()
                    await chat.finishHistoryFetch()
                }
            }
            // What was reported as not sent (or unknown) must not be sent later by another session.
            await chat.withdrawFromOutbox(messageID: runId)
            // Mapped here rather than by changing a `var result` earlier: Swift 6.3.1's optimizer left the
            // followed result out of this closure's return value in that shape (`send` read uninitialised
            // memory and crashed in the release build only; .ci/package-check runs the CLI's tests on it).
            return (result == .cancelled ? .stopped(text: "", reason: "interrupted") : result, runId)
        }
        // Unstructured: cancels `work` from outside it; cancelled when `perform` returns.
        let interrupts = Task { @MainActor in
            var count = 0
            for await _ in signals.stream {
                count += 1
                // A message queued during the handshake and not handed over yet is taken back first:
                // nothing of it may leave after this, nor be sent by a later session.
                let takenBack = await unsent.withdraw(from: chat)
                if count > 1 { exit(ExitStatus.aborted) }
                terminal.errorLine(terminal.styled("stopping the run… (Ctrl-C again to quit at once)", .dim))
                if takenBack {
                    // No run to stop at the gateway.
                    work.cancel()
                    continue
                }
                await Self.stop(chat, grace: Self.abortGrace)
                // The gateway's `aborted` event normally ends the follow; do not wait for it forever.
                try? await Task.sleep(for: Self.abortGrace)
                work.cancel()
            }
        }
        defer { interrupts.cancel() }
        let outcome: (FollowedRunResult, String)
        do {
            outcome = try await work.value
        } catch {
            // The read that overlapped a failed handshake ends before the store is closed (a read under way
            // then would leave the WAL behind, and the next launch would read the whole file).
            await chat.loadStoredState()
            await chat.stop()
            throw error
        }
        await chat.stop()
        return outcome
    }

    /// Connects with `connect` and starts the chat. A message without files is queued meanwhile, so
    /// it is on disk before `hello-ok` and its `chat.send` leaves right after (with the history request,
    /// not behind the outbox's writes); its id is returned. When the connection does not come up it is
    /// taken out of the outbox again: a `send` that reported failure must not be delivered later by
    /// another session.
    private func connectQueueing(
        _ text: String, attachments: [Attachment], chat: ChatSession, unsent: UnsentMessage,
        connect: @escaping @Sendable () async throws -> GatewaySession
    ) async throws -> String? {
        var queued: String?
        do {
            if attachments.isEmpty {
                async let connected = connect()
                // The stored outbox is read first: restoring it must not replace the message.
                await chat.loadStoredState()
                queued = await chat.queue(text)
                unsent.id = queued
                _ = try await connected
            } else {
                _ = try await connect()
            }
            // The message goes out while the history page loads: nothing about it needs that page first.
            await chat.start(waitingForSessionLoad: false)
            // A Ctrl-C took the message back meanwhile (see `perform`).
            if Task.isCancelled { throw CLIError.message(Self.stoppedBeforeSending, status: ExitStatus.aborted) }
            guard chat.connectionState.isConnected else {
                if case .failed(let error) = chat.connectionState { throw error }
                throw GatewayError.notConnected
            }
        } catch {
            // Only what was never handed over: an attempt made meanwhile (a reconnect between `hello-ok`
            // and here) is settled by the outbox's rules, from history.
            await unsent.withdraw(from: chat)
            throw error
        }
        return queued
    }

    nonisolated static let stoppedBeforeSending = "The message was not sent: stopped before the gateway answered."

    /// The message `send` queued during its handshake, until it is handed to the gateway.
    @MainActor
    final class UnsentMessage {
        var id: String?

        /// Takes the message out of the outbox if no attempt to send it was made; true when it did.
        @discardableResult
        func withdraw(from chat: ChatSession) async -> Bool {
            // Checked and withdrawn in one turn of the main actor: no attempt can begin in between.
            guard let id, chat.outbox.first(where: { $0.id == id })?.attempts == 0 else { return false }
            await chat.withdrawFromOutbox(messageID: id)
            return true
        }
    }

    /// `chat.abort` for the running reply, bounded so a gateway that never answers cannot hold us.
    private static func stop(_ chat: ChatSession, grace: Duration) async {
        // Unstructured so that the deadline can cancel the abort alone; both end before this returns.
        let abort = Task { @MainActor in await chat.abort() }
        let deadline = Task {
            try? await Task.sleep(for: grace)
            abort.cancel()
        }
        await abort.value
        deadline.cancel()
    }

    /// Prints the ending and maps it to the exit code: 0 only for a run that ended with its reply.
    nonisolated static func finish(_ result: FollowedRunResult, runId: String, json: Bool, terminal: Terminal) throws {
        func jsonLine(_ fields: [(String, JSONValue)]) {
            if json { terminal.line(JSONSerializer.string(.object(dropping: fields))) }
        }
        switch result {
        case .completed(let text):
            jsonLine([("type", "final"), ("runId", .string(runId)), ("text", .string(text))])
            // stdout stays the reply (empty); people are told on stderr why nothing came.
            if text.isEmpty, !json { terminal.errorLine(terminal.styled(RunOutput.silentRunNote, .dim)) }
        case .handledAsCommand:
            jsonLine([("type", "command"), ("runId", .string(runId))])
        case .unconfirmed:
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", "unconfirmed")])
            terminal.error(
                "The gateway did not confirm the message (run \(runId)) and no longer remembers it.",
                hint: "It may have arrived: check with 'openclaw-chat history' before sending it again.")
            throw ExitCode(ExitStatus.connection)
        case .stopped(let text, let reason):
            jsonLine([("type", "aborted"), ("runId", .string(runId)), ("text", .string(text))])
            terminal.error("The run was stopped\(reason.map { " (\($0))" } ?? "").", hint: nil)
            throw ExitCode(ExitStatus.aborted)
        case .cancelled:
            jsonLine([("type", "aborted"), ("runId", .string(runId))])
            terminal.error("The run was stopped.", hint: nil)
            throw ExitCode(ExitStatus.aborted)
        case .failed(let message):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", .string(message))])
            terminal.error("The agent's run failed: \(message)", hint: nil)
            throw ExitCode(ExitStatus.runError)
        case .endedWithoutReply:
            jsonLine([("type", "final"), ("runId", .string(runId)), ("text", "")])
            terminal.error(
                "The run \(runId) ended without a reply (the connection dropped while it ran).",
                hint: "Check with 'openclaw-chat history'.")
            throw ExitCode(ExitStatus.connection)
        case .notSent(let reason):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", .string(reason))])
            terminal.error("The message was not sent: \(reason)", hint: nil)
            throw ExitCode(ExitStatus.connection)
        case .gaveUp(let giveUp):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", "connection lost")])
            switch giveUp {
            case .neverSent:
                terminal.error("The message was not sent: the connection ended first and did not come back.", hint: nil)
            case .unconfirmed:
                terminal.error(
                    "The connection ended before the gateway confirmed the message (run \(runId)), "
                        + "and the gateway could not be reached again.",
                    hint: "It may have arrived: when the gateway is back, check with 'openclaw-chat history' "
                        + "before sending it again.")
            case .replyPending(let reason):
                let error = GatewayError.connectionLost(reason ?? .connectionLost)
                terminal.error(
                    "\(error.message) The gateway could not be reached again, so the reply to run \(runId) "
                        + "did not arrive.",
                    hint: "The run may still finish on the gateway: when it is back, 'openclaw-chat history' "
                        + "shows the reply.")
            }
            throw ExitCode(ExitStatus.connection)
        case .incomplete(let reason):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", .string(reason.description))])
            terminal.error(
                "\(reason.description.capitalizedFirst): the reply to run \(runId) may be missing a part, so it "
                    + "is not shown as complete.",
                hint: "'openclaw-chat history' shows the reply as the gateway stored it.")
            throw ExitCode(ExitStatus.connection)
        case .unacknowledged(let limit):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", "unacknowledged")])
            terminal.error(
                "The gateway never acknowledged the message (run \(runId)) within \(limit.wholeSecondsText); "
                    + "it may not have arrived.",
                hint: "Check with 'openclaw-chat history' before sending it again.")
            throw ExitCode(ExitStatus.connection)
        case .timedOut(let limit, let stage):
            jsonLine([("type", "error"), ("runId", .string(runId)), ("message", "timeout")])
            terminal.error(Self.timeoutMessage(limit, stage: stage, runId: runId), hint: Self.timeoutHint(stage))
            throw ExitCode(ExitStatus.timeout)
        }
    }

    /// What is known when a bound of the person's ran out: how far the message had got.
    nonisolated static func timeoutMessage(_ limit: FollowTimeout, stage: FollowStage, runId: String) -> String {
        let seconds: Duration
        let quiet: Bool
        switch limit {
        case .overall(let duration): (seconds, quiet) = (duration, false)
        case .idle(let duration): (seconds, quiet) = (duration, true)
        }
        let span = quiet ? "in \(seconds.wholeSecondsText) without any progress" : "within \(seconds.wholeSecondsText)"
        switch stage {
        case .notSent:
            return "The message was not sent \(span); it was not delivered."
        case .unacknowledged:
            return "The gateway never acknowledged the message (run \(runId)) \(span); it may not have arrived."
        case .running:
            let what =
                quiet
                ? "made no progress for \(seconds.wholeSecondsText)" : "did not end within \(seconds.wholeSecondsText)"
            return "The run \(runId) \(what); it was stopped."
        }
    }

    nonisolated static func timeoutHint(_ stage: FollowStage) -> String {
        switch stage {
        case .notSent: "Check the connection with 'openclaw-chat doctor', then send it again."
        case .unacknowledged: "Check with 'openclaw-chat history' before sending it again."
        case .running: "Raise --timeout / --idle-timeout for long runs."
        }
    }
}

extension Duration {
    /// `12 s`, `0.5 s`: for messages.
    fileprivate var wholeSecondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : EssentialsText.fixed(seconds, digits: 1) + " s"
    }
}

extension String {
    /// The sentence with its first letter in capitals.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
