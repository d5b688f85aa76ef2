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

    @Test func cancellingTheOwnerOfAnApprovalsClientEndsItsUpdates() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let connection = try E2E.connection(to: gateway, name: "owner") {
                $0.enableApprovals(required: false)
            }
            let client = ApprovalsClient(connection: connection)
            let watch = Watch()
            let owner = Task {
                await client.run()
                await watch.endRun()
            }
            let updates = await client.updates()
            let reader = Task {
                for await update in updates { await watch.append("\(update)") }
                await watch.endUpdates()
            }
            try await connection.connect()
            #expect(await eventually { await client.availability == .active })
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await client.pending.count == 1 })

            owner.cancel()
            #expect(await eventually { await watch.runEnded })
            #expect(await eventually { await watch.updatesEnded })
            reader.cancel()
            await connection.disconnect()
        }
    }

    @Test func cancellingTheOwnerOfAQuestionsClientEndsItsUpdates() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let connection = try E2E.connection(to: gateway, name: "owner") {
                $0.enableQuestions(required: false)
            }
            let client = QuestionsClient(connection: connection)
            let watch = Watch()
            let owner = Task {
                await client.run()
                await watch.endRun()
            }
            let updates = await client.updates()
            let reader = Task {
                for await update in updates { await watch.append("\(update)") }
                await watch.endUpdates()
            }
            try await connection.connect()
            #expect(await eventually { await client.availability == .active })
            _ = await viewModel.send("ask me")
            #expect(await eventually(timeout: .seconds(20)) { await client.pending.count == 1 })

            owner.cancel()
            #expect(await eventually { await watch.runEnded })
            #expect(await eventually { await watch.updatesEnded })
            reader.cancel()
            await connection.disconnect()
        }
    }
}
