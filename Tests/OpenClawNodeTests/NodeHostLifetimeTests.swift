import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawNode

/// A node host's invokes live no longer than the host: whether its owner cancels the task running
/// `run()` or calls `stop()` after `start()`, a command still running is ended and its processes killed.
@Suite("Node host: ending the host ends what it runs")
struct NodeHostLifetimeTests {
    enum HostEnd: String, CaseIterable, Sendable {
        /// The owner of `run()` cancels its task.
        case cancellingItsOwner
        /// `stop()` after `start()`.
        case stopAfterStart
        /// `stop()` while an owner's `run()` drives the host.
        case stopUnderRun

        var isRun: Bool { self != .stopAfterStart }
    }

    /// Whether the owner's `run()` has returned.
    final class Flag: Sendable {
        private let box = LockedBox(false)
        var isSet: Bool { box.value }
        func set() { box.mutate { $0 = true } }
    }

    @Test(arguments: HostEnd.allCases)
    func endingTheHostKillsTheCommandItRuns(end: HostEnd) async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.full), startsHost: !end.isRun)
            defer { Task { await fixture.stop() } }
            let returned = Flag()
            let owner: Task<Void, Never>? =
                end.isRun
                ? Task {
                    await fixture.host.run()
                    returned.set()
                } : nil
            defer { owner?.cancel() }
            // Serving once a quick invoke is answered (under `run()` the host subscribes when its task starts).
            #expect(
                await eventually {
                    (try? await fixture.invoke(NodeCommandName.systemWhich, ["bins": ["sh"]], timeoutMs: 1000)) != nil
                })
            let pidFile = fixture.directory + "/grandchild.pid"
            let script = "sleep 60 & echo $! > \(pidFile); wait"
            let invoke = Task {
                try? await fixture.invoke(NodeCommandName.systemRun, ["command": ["sh", "-c", .string(script)]])
            }
            defer { invoke.cancel() }
            #expect(await eventually { Self.pid(in: pidFile) != nil })
            let pid = try #require(Self.pid(in: pidFile))

            switch end {
            case .cancellingItsOwner: owner?.cancel()
            case .stopAfterStart, .stopUnderRun: await fixture.host.stop()
            }
            #expect(await eventually { processIsGone(pid) })
            if end.isRun { #expect(await eventually { returned.isSet }) }
        }
    }

    /// `run()` on a host already started shares its one loop: each invoke is answered once.
    @Test func runOnAStartedHostAnswersEachInvokeOnce() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            let owner = Task { await fixture.host.run() }
            defer { owner.cancel() }
            // Answered at once by the node (its params are not `system.which`'s).
            await #expect(throws: GatewayError.self) {
                _ = try await fixture.invoke(NodeCommandName.systemWhich, ["bins": 5])
            }
            #expect(await eventually { await gateway.nodeInvokeResults().count == 1 })
            // A second loop would take the same invoke again, and find it answered: a duplicate.
            let again = await eventually(timeout: .milliseconds(500)) {
                fixture.activity.lines.contains { $0.kind == .duplicate }
            }
            #expect(!again, "an invoke taken twice: \(fixture.activity.lines.map(\.line))")
        }
    }

    /// A host dropped without `stop()` is released, with its subscription (its loop holds it weakly).
    @Test func aStartedHostThatIsDroppedIsReleased() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            weak var dropped: NodeHost?
            do {
                let host = NodeHost(connection: fixture.node, commands: [])
                var lines = host.activity.makeAsyncIterator()
                await host.start()
                // Its loop is running once it has answered an invoke (its own way: it has no commands).
                _ = try? await fixture.invoke(NodeCommandName.systemWhich, ["bins": ["sh"]])
                _ = await lines.next()
                dropped = host
            }
            #expect(await eventually { dropped == nil })
        }
    }

    private static func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
