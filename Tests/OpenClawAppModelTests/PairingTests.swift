import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Pairing against the test gateway in remote mode (every new device needs approval), with a sleep
/// the test steps through: the real schedule (3 s, 6 s …) runs in no time.
@MainActor
@Suite("Pairing")
struct PairingTests {
    static let configuration = TestGatewayConfiguration(pairing: .requireApproval)

    /// Launches the app against `gateway` and waits for the pairing screen.
    private func launchUntilPairing(
        _ gateway: TestGateway, sleeper: ManualSleeper
    ) async throws -> (AppModel, PairingModel) {
        let app = AppModel(
            dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway), sleep: sleeper.sleep))
        await app.launch()
        #expect(await waitUntil { app.screen == .pairing })
        let pairing = try #require(app.pairing)
        return (app, pairing)
    }

    @Test func waitsSlowlyForApprovalWithoutReplacingTheRequest() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let (app, pairing) = try await launchUntilPairing(gateway, sleeper: sleeper)
            let pending = await gateway.pendingPairingRequests()
            let requestId = try #require(pending.first)
            #expect(pending.count == 1)
            #expect(pairing.request.requestId == requestId)
            #expect(pairing.approveCommand == "openclaw devices approve \(requestId)")

            // Nothing is attempted until the wait ends.
            #expect(await waitUntil { sleeper.waiting == 1 })
            let connects = await gateway.receivedConnectParams().count
            #expect(sleeper.requested == [.seconds(3)])

            // Two scheduled retries: the same request each time, and the waits grow.
            for expectedWaits in [2, 3] {
                #expect(sleeper.advance())
                #expect(await waitUntil { sleeper.requested.count == expectedWaits && pairing.canCheckNow })
            }
            #expect(sleeper.requested == [.seconds(3), .seconds(6), .seconds(12)])
            #expect(pairing.attempts == 2)
            #expect(await gateway.receivedConnectParams().count == connects + 2)
            #expect(await gateway.pendingPairingRequests() == [requestId])
            #expect(pairing.request.requestId == requestId)
            #expect(app.screen == .pairing)

            // The chat shows the refusal, typed as one: that is what approval settles, not its wording.
            let shown = try #require(app.context?.chat.alerts)
            #expect(shown.contains { $0.cause == .gateway(.pairingRequired(pairing.request)) }, "\(shown)")
            #expect(shown.allSatisfy { $0.cause.isPairingRequired })

            // Approved on the gateway host; "I approved it" connects at once.
            await gateway.approvePairing(requestId: requestId)
            pairing.checkNow()
            let context = try #require(await AppHarness.connectedChat(app))
            #expect(app.pairing == nil)
            #expect(pairing.phase == .approved)
            #expect(pairing.attempts == 3)
            #expect(await gateway.receivedConnectParams().count == connects + 3)
            #expect(context.chat.alerts.isEmpty, "the pairing refusal is settled: \(context.chat.alerts)")
            await app.signOut()
        }
    }

    @Test func tappingIApprovedItRepeatedlyMakesOneAttempt() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let (app, pairing) = try await launchUntilPairing(gateway, sleeper: sleeper)
            #expect(await waitUntil { sleeper.waiting == 1 })
            let connects = await gateway.receivedConnectParams().count

            for _ in 0..<5 { pairing.checkNow() }
            #expect(await waitUntil { pairing.attempts == 1 && pairing.canCheckNow })
            #expect(await waitUntil { sleeper.waiting == 1 })
            #expect(await gateway.receivedConnectParams().count == connects + 1)
            #expect(await gateway.pendingPairingRequests().count == 1)
            #expect(sleeper.requested == [.seconds(3), .seconds(6)])
            await app.signOut()
            #expect(sleeper.waiting == 0)
            #expect(await waitUntil { pairing.phase == .cancelled })
        }
    }

    @Test func comingBackToTheAppChecksAtOnce() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let (app, pairing) = try await launchUntilPairing(gateway, sleeper: sleeper)
            #expect(await waitUntil { sleeper.waiting == 1 })
            let requestId = try #require(await gateway.pendingPairingRequests().first)
            await gateway.approvePairing(requestId: requestId)

            // The person approved in a terminal and switches back to the app.
            await app.scenePhaseChanged(active: false)
            await app.scenePhaseChanged(active: true)
            #expect(await AppHarness.connectedChat(app) != nil)
            #expect(pairing.attempts == 1)
            await app.signOut()
        }
    }

    @Test func aDeviceRemovedOnTheGatewayIsAskedForApprovalAgain() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let dependencies = AppHarness.dependencies(
                saved: try AppHarness.saved(gateway), sleep: sleeper.sleep,
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), jitter: .none))
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            #expect(await waitUntil { app.screen == .pairing })
            let first = try #require(await gateway.pendingPairingRequests().first)
            await gateway.approvePairing(requestId: first)
            app.pairing?.checkNow()
            #expect(await AppHarness.connectedChat(app) != nil)

            // Removed on the gateway host; the connection drops and reconnects by itself.
            let deviceId = try dependencies.identityStore.loadOrCreate().deviceId
            await gateway.removePairedDevice(deviceId: deviceId)
            await gateway.dropAllConnections()
            #expect(await waitUntil { app.screen == .pairing })
            let second = try #require(await gateway.pendingPairingRequests().first)
            #expect(app.pairing?.request.requestId == second)
            #expect(app.pairing?.approveCommand == "openclaw devices approve \(second)")
            await app.signOut()
        }
    }

    @Test func savingTheSameGatewayWhileWaitingChecksOnceAndKeepsWaiting() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let (app, pairing) = try await launchUntilPairing(gateway, sleeper: sleeper)
            #expect(await waitUntil { sleeper.waiting == 1 })
            let connects = await gateway.receivedConnectParams().count

            app.editSettings()
            #expect(await app.saveSettings())
            #expect(await waitUntil { pairing.attempts == 1 && pairing.canCheckNow })
            #expect(app.pairing === pairing, "the same wait goes on")
            #expect(app.screen == .pairing)
            #expect(await gateway.receivedConnectParams().count == connects + 1)
            #expect(await gateway.pendingPairingRequests().count == 1)
            await app.signOut()
        }
    }

    @Test func anotherRefusalWhileWaitingEndsPairingWithTheReason() async throws {
        try await withTestGateway(Self.configuration) { gateway in
            let sleeper = ManualSleeper()
            let (app, pairing) = try await launchUntilPairing(gateway, sleeper: sleeper)
            #expect(await waitUntil { sleeper.waiting == 1 })

            await gateway.rotateSharedAuth(to: .token("rotated"))
            pairing.checkNow()
            #expect(await waitUntil { app.screen == .chat })
            guard case .failed(.authFailed) = pairing.phase else {
                Issue.record("expected an auth failure, got \(pairing.phase)")
                return
            }
            #expect(app.pairing == nil)
            #expect(app.context?.chatScreen.banner?.action == .openSettings)
            await app.signOut()
        }
    }
}
