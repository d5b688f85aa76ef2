import Logging
import OpenClawGateway
import OpenClawProtocol

/// The node engine: receives `node.invoke.request` events on a node-role ``GatewayConnection``,
/// runs the matching command, and answers each invoke id exactly once with `node.invoke.result`.
///
/// An actor so that the table of running and answered invokes changes in one order: a duplicate id
/// that arrives while its first run is still going, or after it finished, never starts a second run.
/// The invoke's `timeoutMs` and `node.invoke.cancel` end the run by cancelling its command (a running
/// process is killed with its process group); the answer then says `TIMEOUT` or `CANCELLED`. Every run
/// is a child of the host's one loop (the task ``start()`` makes, which ``run()`` follows), so ending the
/// host ends them all.
/// Reconnecting is the connection's job; answers that could not be sent while it was down are sent
/// when it is back (the gateway ignores late ones).
public actor NodeHost {
    public let connection: GatewayConnection
    private let commands: [String: AnyNodeCommand]
    private let logger: Logger
    private var answered = AnsweredInvokes()
    private var running: [String: RunningInvoke] = [:]
    private var unsent: [NodeInvokeResult] = []
    /// This node's id as the gateway knows it (the device id), for answers to requests that omit it.
    private var ownNodeId: String?
    /// Whether the gateway of the current socket lists `node.invoke.progress` (gateways before summer
    /// 2026 do not, and get the output with the result only).
    private var streamsProgress = false
    /// The host's loop: each invoke runs as its child, so ending it (``stop()``, or cancelling the owner of
    /// ``run()``) ends them all.
    private var hostTask: Task<Void, Never>?
    private let activityContinuation: AsyncStream<NodeActivity>.Continuation
    /// One entry per answered or duplicate invoke, for the terminal's log lines.
    public nonisolated let activity: AsyncStream<NodeActivity>

    private struct RunningInvoke {
        var request: NodeInvokeRequest
        /// Ends the run early (`node.invoke.cancel`, or an answer already given).
        var cancel: AsyncStream<Void>.Continuation
        var startedAt: ContinuousClock.Instant
        var notes: [NodeInvokeNote] = []
    }

    /// How many invokes may run at once; one more is refused at once rather than queued, so a flood
    /// of invokes cannot start an unbounded number of processes.
    public static let defaultMaxConcurrentInvokes = 16
    private let maxConcurrentInvokes: Int

    public init(
        connection: GatewayConnection, commands: [any NodeCommand],
        logger: Logger = Logger(label: "openclaw.node"), maxConcurrentInvokes: Int = defaultMaxConcurrentInvokes
    ) {
        self.maxConcurrentInvokes = max(1, maxConcurrentInvokes)
        self.connection = connection
        var table: [String: AnyNodeCommand] = [:]
        for command in commands { table[command.name] = AnyNodeCommand(command) }
        self.commands = table
        self.logger = logger
        (activity, activityContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// The command names to declare in `connect` (``NodeDeclaration/commands``), sorted.
    public static func commandNames(_ commands: [any NodeCommand]) -> [String] {
        Array(Set(commands.map(\.name))).sorted()
    }

    /// Starts handling invokes until ``stop()``. Subscribes before returning, so nothing sent after this
    /// is missed.
    public func start() {
        guard hostTask == nil else { return }
        let events = connection.events()
        // A task of its own: the host outlives this call, until `stop()` (or `run()`'s owner) ends it. It
        // holds the host weakly between events, so a host dropped without `stop()` is released.
        hostTask = Task { [weak self] in
            await withDiscardingTaskGroup { group in
                for await event in events {
                    guard let host = self else { return }
                    guard let (id, run) = await host.receive(event) else { continue }
                    group.addTask { [weak host] in
                        guard let outcome = await run.outcome() else { return }
                        await host?.finish(id, with: outcome)
                    }
                }
            }
        }
    }

    /// Handles invokes until the calling task is cancelled or ``stop()`` is called, then stops: the
    /// commands still running are cancelled (their processes killed). On a host already started, it
    /// follows the same loop.
    public func run() async {
        start()
        guard let loop = hostTask else { return }
        await loop.endsWithCaller()
        // Not a loop started after a `stop()` meanwhile: that one is its starter's.
        if hostTask == loop { stop() }
    }

    /// Stops handling invokes and cancels the ones still running (their processes are killed).
    public func stop() {
        hostTask?.cancel()
        hostTask = nil
        running = [:]
        activityContinuation.finish()
    }

    /// What `event` changes; an invoke to run is returned, for the caller to run as its child.
    private func receive(_ event: GatewayEvent) -> (id: String, InvokeRun)? {
        switch event {
        case .connected(let session):
            ownNodeId = session.deviceId
            streamsProgress = session.hello.features.methods.contains(NodeMethod.invokeProgress)
            flushUnsent()
        case .event(let frame) where frame.event == GatewayEventName.nodeInvokeRequest:
            if let request = NodeInvokeRequest(payload: frame.payload) {
                return handle(request)
            } else {
                logger.warning("ignored a node.invoke.request without id or command")
            }
        case .event(let frame) where frame.event == GatewayEventName.nodeInvokeCancel:
            if let cancel = NodeInvokeCancel(payload: frame.payload) {
                finish(cancel.invokeId, with: .failure(.cancelled))
            }
        default: break
        }
        return nil
    }

    /// Registers one invoke and returns its run, or answers it at once (from an earlier run of the same
    /// id, or with why it cannot run).
    func handle(_ request: NodeInvokeRequest) -> (id: String, InvokeRun)? {
        if let earlier = answered[request.id] {
            activityContinuation.yield(NodeActivity(invokeId: request.id, command: request.command, kind: .duplicate))
            send(earlier)
            return nil
        }
        if running[request.id] != nil {
            activityContinuation.yield(NodeActivity(invokeId: request.id, command: request.command, kind: .duplicate))
            return nil
        }
        if let problem = request.paramsProblem {
            answer(request, .failure(.invalidParams(problem)), startedAt: .now, notes: [])
            return nil
        }
        guard let command = commands[request.command] else {
            answer(request, .failure(.unsupportedCommand), startedAt: .now, notes: [])
            return nil
        }
        guard running.count < maxConcurrentInvokes else {
            let busy = NodeInvokeError(
                .unavailable,
                "NODE_BUSY: \(running.count) commands are already running on this node (the limit); try again when one ends"
            )
            answer(request, .failure(busy), startedAt: .now, notes: [])
            return nil
        }
        let id = request.id
        let context = NodeInvokeContext(
            invokeId: id, nodeId: request.nodeId,
            sendEvent: { [weak self] event in await self?.sendEvent(event) },
            record: { [weak self] note in await self?.record(note, for: id) },
            progress: streamsProgress
                ? InvokeProgress(connection: connection, invokeId: id, nodeId: request.nodeId).sink : nil)
        let params = request.params
        let (cancellation, cancel) = AsyncStream.makeStream(of: Void.self)
        running[id] = RunningInvoke(request: request, cancel: cancel, startedAt: .now)
        return (
            id,
            InvokeRun(
                perform: { await command.perform(params, context) }, timeoutMs: request.timeoutMs,
                cancellation: cancellation)
        )
    }

    private func record(_ note: NodeInvokeNote, for id: String) {
        running[id]?.notes.append(note)
    }

    /// The one place an invoke ends: the first outcome wins (result, timeout or cancel); the others
    /// find nothing running and do nothing.
    private func finish(_ id: String, with outcome: Result<JSONValue, NodeInvokeError>) {
        guard let invoke = running.removeValue(forKey: id) else { return }
        invoke.cancel.yield()
        invoke.cancel.finish()
        answer(invoke.request, outcome, startedAt: invoke.startedAt, notes: invoke.notes)
    }

    private func answer(
        _ request: NodeInvokeRequest, _ outcome: Result<JSONValue, NodeInvokeError>,
        startedAt: ContinuousClock.Instant, notes: [NodeInvokeNote]
    ) {
        let result = NodeInvokeResult(id: request.id, nodeId: nodeId(for: request), outcome: outcome)
        answered.insert(result)
        send(result)
        var line = NodeActivity(
            invokeId: request.id, command: request.command,
            kind: .answered(ok: result.ok, errorCode: failureCode(outcome)),
            durationMs: (ContinuousClock.now - startedAt).milliseconds)
        for note in notes {
            switch note {
            case .decision(let decision): line.decision = decision
            case .exitCode(let code): line.exitCode = code
            }
        }
        logger.info("\(line.line)")
        activityContinuation.yield(line)
    }

    private func failureCode(_ outcome: Result<JSONValue, NodeInvokeError>) -> NodeErrorCode? {
        if case .failure(let error) = outcome { return error.code }
        return nil
    }

    private func nodeId(for request: NodeInvokeRequest) -> String {
        if !request.nodeId.isEmpty { return request.nodeId }
        return ownNodeId ?? ""
    }

    private func send(_ result: NodeInvokeResult) {
        let connection = connection
        // A task of its own: an answer outlives the invoke that produced it (one that cannot leave is
        // kept for the next connection).
        Task { [weak self] in
            do throws(GatewayError) {
                _ = try await connection.call(result)
            } catch {
                switch error {
                case .notConnected, .connectionLost: await self?.keepUnsent(result)
                default: break
                }
            }
        }
    }

    private func keepUnsent(_ result: NodeInvokeResult) {
        unsent.append(result)
        if unsent.count > 256 { unsent.removeFirst(unsent.count - 256) }
    }

    private func flushUnsent() {
        let pending = unsent
        unsent = []
        pending.forEach(send)
    }

    private func sendEvent(_ event: NodeEvent) async {
        do throws(GatewayError) {
            _ = try await connection.call(event)
        } catch {
            logger.debug("node.event \(event.event) not delivered: \(error)")
        }
    }
}
