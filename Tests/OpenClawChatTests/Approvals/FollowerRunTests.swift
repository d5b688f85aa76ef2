import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The approvals and questions clients as children of their owner's task: `run()` follows the connection
/// while that task lives, and cancelling it ends everything the client started, its subscribers' streams
/// included, so an owner never has to remember a `stop()`.
@Suite("Approvals and questions clients run in their owner's task")
@MainActor
struct FollowerRunTests {
    private typealias E2E = ApprovalsEndToEndTests

    /// What the owner's tasks saw: updates (as text), and which of them ended.
    actor Watch {
        private(set) var updates: [String] = []
        private(set) var runEnded = false
        private(set) var updatesEnded = false
        func append(_ update: String) { updates.append(update) }
        func endRun() { runEnded = true }
        func endUpdates() { updatesEnded = true }
    }

    /// Which client, and what makes the agent ask it something.
    enum Kind: String, CaseIterable, Sendable {
        case approvals, questions

        var prompt: String { self == .approvals ? "run a command" : "ask me" }
    }

    /// One client of `kind` on `connection`, as the owner sees it: its `run()`, its updates as text, and
    /// how much it has pending.
    struct Client: Sendable {
        let run: @Sendable () async -> Void
        let updates: @Sendable () async -> AsyncStream<String>
        let isActive: @Sendable () async -> Bool
        let pending: @Sendable () async -> Int

        init(_ kind: Kind, on connection: GatewayConnection) {
            switch kind {
            case .approvals:
                let client = ApprovalsClient(connection: connection)
                run = { await client.run() }
                updates = { Self.text(await client.updates()) }
                isActive = { await client.availability == .active }
                pending = { await client.pending.count }
            case .questions:
                let client = QuestionsClient(connection: connection)
                run = { await client.run() }
                updates = { Self.text(await client.updates()) }
                isActive = { await client.availability == .active }
                pending = { await client.pending.count }
            }
        }

        private static func text<Update: Sendable>(_ updates: AsyncStream<Update>) -> AsyncStream<String> {
            AsyncStream { continuation in
                let relay = Task {
                    for await update in updates { continuation.yield("\(update)") }
                    continuation.finish()
                }
                continuation.onTermination = { _ in relay.cancel() }
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func cancellingTheOwnerEndsTheClientsUpdates(kind: Kind) async throws {
        try await E2E.withGateway { gateway, viewModel in
            let connection = try E2E.connection(to: gateway, name: "owner") {
                $0.enableApprovals(required: false)
                $0.enableQuestions(required: false)
            }
            let client = Client(kind, on: connection)
            let watch = Watch()
            let owner = Task {
                await client.run()
                await watch.endRun()
            }
            let updates = await client.updates()
            let reader = Task {
                for await update in updates { await watch.append(update) }
                await watch.endUpdates()
            }
            try await connection.connect()
            #expect(await eventually { await client.isActive() })
            _ = await viewModel.send(kind.prompt)
            #expect(await eventually(timeout: .seconds(20)) { await client.pending() == 1 })

            owner.cancel()
            #expect(await eventually { await watch.runEnded })
            #expect(await eventually { await watch.updatesEnded })
            reader.cancel()
            await connection.disconnect()
        }
    }

    /// A `stop()` and a new `start()` while an owner's `run()` waits: the restarted client keeps working,
    /// and the owner's `run()` returns without ending it.
    @Test func aClientRestartedUnderRunKeepsFollowing() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let connection = try E2E.connection(to: gateway, name: "owner") { $0.enableApprovals(required: false) }
            let client = ApprovalsClient(connection: connection)
            let watch = Watch()
            let owner = Task {
                await client.run()
                await watch.endRun()
            }
            try await connection.connect()
            #expect(await eventually { await client.availability == .active })
            await client.restart()
            #expect(await eventually { await watch.runEnded })
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await client.pending.count == 1 })
            #expect(await client.lifetime.following != nil)
            owner.cancel()
            await client.stop()
            await connection.disconnect()
        }
    }

}

extension ApprovalsClient {
    /// `stop()` and `start()` in one turn of the actor, as a screen that restarts its client does.
    fileprivate func restart() async {
        stop()
        await start()
    }
}
