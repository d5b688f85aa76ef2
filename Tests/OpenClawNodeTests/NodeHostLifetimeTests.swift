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
        case cancellingItsOwner
        case stop
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
                on: gateway, policy: NodeFixture.policy(.full), startsHost: end == .stop)
            defer { Task { await fixture.stop() } }
            let returned = Flag()
            let owner: Task<Void, Never>? =
                end == .cancellingItsOwner
                ? Task {
                    await fixture.host.run()
                    returned.set()
                } : nil
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
            case .cancellingItsOwner:
                owner?.cancel()
                #expect(await eventually { returned.isSet })
            case .stop:
                await fixture.host.stop()
            }
            #expect(await eventually { processIsGone(pid) })
        }
    }

    private static func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
