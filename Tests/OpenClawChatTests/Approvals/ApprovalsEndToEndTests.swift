import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// Exec approvals over real sockets against the test gateway: a scripted run that needs approval is
/// allowed and completes, denied and says so, expires untouched, and is decided by another approver
/// while our card closes; only clients with the cap and the scope are asked.
@Suite("Exec approvals end to end")
@MainActor
struct ApprovalsEndToEndTests {
    /// Every update a client reports, for assertions.
    actor UpdateLog {
        private(set) var updates: [ApprovalUpdate] = []
        func append(_ update: ApprovalUpdate) { updates.append(update) }

        var requested: [PendingApproval] {
            updates.compactMap { if case .requested(let approval) = $0 { approval } else { nil } }
        }

        var closed: [ClosedApproval] {
            updates.compactMap { if case .closed(let closed) = $0 { closed } else { nil } }
        }
    }

    struct Approver {
        let connection: GatewayConnection
        let client: ApprovalsClient
        let log: UpdateLog
        let relay: Task<Void, Never>

        func stop() async {
            relay.cancel()
            await client.stop()
            await connection.disconnect()
        }
    }

    static func connection(
        to gateway: TestGateway, name: String, identity: DeviceIdentity = DeviceIdentity(createdAtMs: 0),
        configure: (inout GatewayConnectionConfiguration) -> Void
    ) throws -> GatewayConnection {
        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url),
            credential: .token("test-token"),
            client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", displayName: name),
            defaultRequestTimeout: .seconds(10)
        )
        configure(&configuration)
        return GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(identity: identity),
            tokenStore: InMemoryDeviceTokenStore()
        )
    }

    /// A connected approver whose updates are logged.
    static func approver(
        on gateway: TestGateway, name: String,
        configure: (inout GatewayConnectionConfiguration) -> Void = {
            $0.enableApprovals(required: false)
        }
    ) async throws -> Approver {
        let connection = try connection(to: gateway, name: name, configure: configure)
        let client = ApprovalsClient(connection: connection)
        await client.start()
        let log = UpdateLog()
        let updates = await client.updates()
        let relay = Task { for await update in updates { await log.append(update) } }
        try await connection.connect()
        return Approver(connection: connection, client: client, log: log, relay: relay)
    }

    static func lastReply(_ viewModel: ChatSession) -> String {
        viewModel.messages.last(where: { $0.role == .assistant })?.text ?? ""
    }

    /// `invalidOnPurpose`: the requests the test sends wrong on purpose (exempt from the schema check,
    /// each named by method and params).
    static func withGateway(
        protocolNumber: Int = 4,
        invalidOnPurpose: [InvalidOnPurpose] = [],
        _ configure: (inout TestGatewayConfiguration) -> Void = { _ in },
        _ body: (TestGateway, ChatSession) async throws -> Void
    ) async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: protocolNumber, deltaThrottleMs: 0)
        configure(&configuration)
        // Every frame of these sessions (approvals, questions) is validated against the protocol schema.
        let recorder = try FrameConformanceRecorder(
            protocolVersion: configuration.protocolNumber, invalidOnPurpose: invalidOnPurpose)
        configuration.frameTap = recorder.tap
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let (_, viewModel) = try await ChatHarness.startedViewModel(on: gateway)
        defer { Task { await viewModel.stop() } }
        try await body(gateway, viewModel)
        try recorder.verify()
    }

    @Test(arguments: [3, 4])
    func anAllowedCommandRunsAndTheRunCompletes(version: Int) async throws {
        try await Self.withGateway(protocolNumber: version) { gateway, viewModel in
            let approver = try await Self.approver(on: gateway, name: "terminal")
            // The client follows the connection's events on its own task: active soon after `connect()` returns.
            #expect(await eventually { await approver.client.availability == .active })
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let approval = try #require(await approver.log.requested.first)
            #expect(approval.request.command == "make test" && approval.request.argv == ["make", "test"])
            #expect(approval.request.cwd == "/home/agent/project" && approval.request.host == "gateway")
            #expect(approval.request.sessionKey == "agent:main:main")
            #expect(approval.remaining(at: .now) > .seconds(60))

            let closed = try await approver.client.decide(String(approval.id.prefix(6)), .allowOnce)
            #expect(
                closed.outcome == .decided(.allowOnce, by: "terminal", byUs: true)
                    || closed.outcome == .decided(.allowOnce, by: nil, byUs: true))
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).hasPrefix("Done")
                })
            #expect(await gateway.pendingApprovals().isEmpty)
            #expect(await approver.client.pending.isEmpty)
            await approver.stop()
        }
    }

    @Test func aDeniedCommandDoesNotRunAndTheRunSaysSo() async throws {
        try await Self.withGateway { gateway, viewModel in
            let approver = try await Self.approver(on: gateway, name: "Peter's phone")
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let closed = try await approver.client.decide("", .deny)
            #expect(closed.outcome.isDeny)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).contains("denied by Peter's phone")
                })
            #expect(!Self.lastReply(viewModel).contains("Done"))
            // Deciding again finds it closed, here, without asking the gateway.
            await #expect(throws: ApprovalError.alreadyResolved(closed.id, closed.outcome)) {
                try await approver.client.decide(closed.id, .allowOnce)
            }
            await approver.stop()
        }
    }

    @Test func anUntouchedRequestExpiresOnBothSides() async throws {
        try await Self.withGateway({ $0.approvalTimeoutMs = 1_500 }) { gateway, viewModel in
            let approver = try await Self.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let approval = try #require(await approver.log.requested.first)
            #expect(approval.remaining(at: approval.receivedAt) == .milliseconds(1_500))
            // Our card closes at the deadline by itself: the gateway sends nothing when a request expires.
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.closed.map(\.outcome) == [.expired] })
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).contains("nobody approved it in time")
                })
            await #expect(throws: ApprovalError.expired(approval.id)) {
                try await approver.client.decide(approval.id, .allowOnce)
            }
            // The gateway agrees: a decision sent for it anyway is refused as not found.
            await #expect(throws: GatewayError.self) {
                try await approver.connection.request(
                    ExecApprovalResolveParams.method,
                    params: ExecApprovalResolveParams(id: approval.id, decision: .allowOnce).json)
            }
            await approver.stop()
        }
    }

    @Test func anotherApproverDecidesAndOurCardCloses() async throws {
        try await Self.withGateway { gateway, viewModel in
            let ours = try await Self.approver(on: gateway, name: "terminal")
            let other = try await Self.approver(on: gateway, name: "Peter's Mac")
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await ours.log.requested.count == 1 })
            #expect(await eventually(timeout: .seconds(20)) { await other.log.requested.count == 1 })
            let id = try #require(await ours.log.requested.first?.id)

            _ = try await other.client.decide(id, .allowAlways)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await ours.log.closed.map(\.outcome) == [.decided(.allowAlways, by: "Peter's Mac", byUs: false)]
                })
            #expect(await ours.client.pending.isEmpty)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).hasPrefix("Done")
                })

            // The gateway's own rule, asked directly: the same decision again is fine, another is refused.
            _ = try await ours.connection.request(
                ExecApprovalResolveParams.method, params: ExecApprovalResolveParams(id: id, decision: .allowAlways).json
            )
            do {
                _ = try await ours.connection.request(
                    ExecApprovalResolveParams.method, params: ExecApprovalResolveParams(id: id, decision: .deny).json)
                Issue.record("a second, different decision was accepted")
            } catch let error as GatewayError {
                guard case .requestFailed(_, let shape) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(shape.approvalRefusalReason == .alreadyResolved)
            }
            await ours.stop()
            await other.stop()
        }
    }

    @Test func anApproverThatConnectsLateIsToldWhatIsPendingAndWhatWasDecidedMeanwhile() async throws {
        try await Self.withGateway { gateway, viewModel in
            let early = try await Self.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("run a command: make first")
            #expect(await eventually(timeout: .seconds(20)) { await early.log.requested.count == 1 })
            // Connected after the request went out: it learns of it from exec.approval.list.
            let late = try await Self.approver(on: gateway, name: "phone")
            #expect(await eventually(timeout: .seconds(20)) { await late.log.requested.count == 1 })
            #expect(await late.log.requested.first?.request.command == "make first")

            // The early approver goes offline; the late one decides meanwhile; back online, the early
            // one finds it gone from the list and withdraws its card.
            await early.connection.disconnect()
            _ = try await late.client.decide("", .allowOnce)
            #expect(await early.log.closed.isEmpty)
            _ = try await early.connection.connect()
            #expect(
                await eventually(timeout: .seconds(20)) { await early.log.closed.map(\.outcome) == [.withdrawn] })
            #expect(await early.client.pending.isEmpty)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).hasPrefix("Done")
                })
            await early.stop()
            await late.stop()
        }
    }

    @Test func aDecisionTheGatewayDoesNotOfferIsRefusedBeforeItIsSent() async throws {
        let restricted = ScriptedAgent.custom { _ in
            AgentScript(steps: [
                .approval(ScriptedApproval(command: "git push", allowedDecisions: [.allowOnce, .deny])),
                .say("pushed"),
            ])
        }
        try await Self.withGateway({ $0.agent = restricted }) { gateway, viewModel in
            let approver = try await Self.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("push it")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            #expect(await approver.log.requested.first?.request.allowedDecisions == [.allowOnce, .deny])
            await #expect(throws: ApprovalError.notOffered(.allowAlways, allowed: [.allowOnce, .deny])) {
                try await approver.client.decide("", .allowAlways)
            }
            #expect(await gateway.requestCount(method: ExecApprovalResolveParams.method) == 0)
            #expect(await gateway.requestCount(method: ApprovalResolveParams.method) == 0)
            _ = try await approver.client.decide("", .allowOnce)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel) == "pushed"
                })
            await approver.stop()
        }
    }

    @Test func onlyClientsWithTheCapAndTheScopeAreAskedAndMayDecide() async throws {
        try await Self.withGateway { gateway, viewModel in
            // The scope without the cap, and the cap without the scope: neither is an approver.
            let scopeOnly = try await Self.approver(on: gateway, name: "scope only") {
                $0.scopes.append(OperatorScope.approvals)
            }
            let capOnly = try await Self.approver(on: gateway, name: "cap only") {
                $0.caps.append(ExecApprovalNames.execApprovalsCap)
            }
            _ = await viewModel.send("run a command")
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && Self.lastReply(viewModel).contains("no approver is connected")
                })
            #expect(await scopeOnly.log.requested.isEmpty)
            #expect(await capOnly.log.requested.isEmpty)
            do {
                _ = try await capOnly.connection.request(
                    ExecApprovalResolveParams.method, params: ExecApprovalResolveParams(id: "x", decision: .deny).json)
                Issue.record("resolve without operator.approvals was accepted")
            } catch let error as GatewayError {
                #expect(
                    error == .missingScope(scope: OperatorScope.approvals, method: ExecApprovalResolveParams.method))
            }
            await scopeOnly.stop()
            await capOnly.stop()
        }
    }

    @Test func aGatewayThatWantsTheScopeApprovedFirstStillGivesAWorkingChat() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(pairing: .requireApproval))
        defer { Task { await gateway.stop() } }
        let identity = DeviceIdentity(createdAtMs: 0)
        // Paired for chat (read + write) only.
        let plain = try Self.connection(to: gateway, name: "phone", identity: identity) { _ in }
        await #expect(throws: GatewayError.self) { try await plain.connect() }
        let first = try #require(await gateway.pendingPairingRequests().first)
        await gateway.approvePairing(requestId: first)
        try await plain.connect()
        await plain.disconnect()

        // Approvals asked for as optional: the gateway wants a scope upgrade, so we connect without it.
        let optional = try Self.connection(to: gateway, name: "phone", identity: identity) {
            $0.enableApprovals(required: false)
        }
        let client = ApprovalsClient(connection: optional)
        await client.start()
        let session = try await optional.connect()
        let refusal = try #require(session.scopeRefusal)
        #expect(refusal.scopes == [OperatorScope.approvals])
        let upgrade = try #require(refusal.pairing)
        #expect(upgrade.reason == .scopeUpgrade)
        #expect(await gateway.pendingPairingRequests() == [try #require(upgrade.requestId)])
        #expect(session.scopes == OperatorScope.chatDefault)
        #expect(await eventually { await client.availability == .scopeRefused(upgrade) })
        // Chat works meanwhile.
        let history = try await optional.request(
            GatewayMethodName.chatHistory, params: ChatHistoryParams(sessionKey: "main").json)
        #expect(history != nil)
        await #expect(throws: ApprovalError.unavailable(.scopeRefused(upgrade))) {
            try await client.decide("", .allowOnce)
        }
        await client.stop()
        await optional.disconnect()

        // Asked for as required (a dedicated approver), the refusal is the connection's error.
        let required = try Self.connection(to: gateway, name: "phone", identity: identity) {
            $0.enableApprovals(required: true)
        }
        do {
            try await required.connect()
            Issue.record("connected without the scope approved")
        } catch {
            guard case .pairingRequired(let request) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(request.reason == .scopeUpgrade)
        }

        // Once approved, the optional scope is granted and the client is an approver.
        await gateway.approvePairing(requestId: try #require(upgrade.requestId))
        let approved = try Self.connection(to: gateway, name: "phone", identity: identity) {
            $0.enableApprovals(required: false)
        }
        let granted = try await approved.connect()
        #expect(granted.scopeRefusal == nil && granted.scopes.contains(OperatorScope.approvals))
        await approved.disconnect()
    }
}

extension ApprovalOutcome {
    var isDeny: Bool {
        if case .decided(.deny, _, true) = self { return true }
        return false
    }
}
