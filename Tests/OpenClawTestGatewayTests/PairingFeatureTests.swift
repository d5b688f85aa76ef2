import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// `device.pair.list` and the pairing audience, asked of `PairingFeature` directly.
@Suite("Test gateway: pairing feature")
struct PairingFeatureTests {
    static func pending(_ requestId: String, device: String, ts: Int) -> PendingPairing {
        PendingPairing(
            requestId: requestId, deviceId: device, publicKey: "key-\(device)", role: "operator", scopes: [],
            platform: "", deviceFamily: "", displayName: nil, clientId: "cli", clientMode: "ui",
            reason: .notPaired, isRepair: false, ts: ts)
    }

    @Test func theListHasPendingOldestFirstAndPairedByDevice() {
        let pairing = PairingFeature()
        _ = pairing.registry.request(Self.pending("r-late", device: "d3", ts: 20))
        _ = pairing.registry.request(Self.pending("r-early", device: "d4", ts: 10))
        for device in ["d2", "d1"] {
            pairing.registry.approveSilently(
                deviceId: device, publicKey: "key-\(device)", role: "operator",
                scopes: [OperatorScope.write, OperatorScope.read], platform: "", deviceFamily: "")
        }
        let list = pairing.listPayload()
        #expect(list["pending"]?.arrayValue?.map { $0["requestId"] } == ["r-early", "r-late"])
        #expect(list["paired"]?.arrayValue?.map { $0["deviceId"] } == ["d1", "d2"])
        #expect(
            list["paired"]?.arrayValue?.first?["scopes"] == [.string(OperatorScope.read), .string(OperatorScope.write)])
        #expect(pairing.pendingRequestIds == ["r-early", "r-late"])
    }

    @Test func onlyPairingHoldersHearPairingEvents() {
        #expect(PairingFeature.hearsPairing(FeaturePeers.peer(scopes: [OperatorScope.pairing])))
        #expect(PairingFeature.hearsPairing(FeaturePeers.peer(scopes: [OperatorScope.admin])))
        #expect(!PairingFeature.hearsPairing(FeaturePeers.peer(scopes: [OperatorScope.read, OperatorScope.write])))
    }
}
