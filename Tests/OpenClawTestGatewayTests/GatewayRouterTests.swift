import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// The router serves what `hello-ok` advertises, no less, and a quirk that takes a method away
/// leaves it unknown.
@Suite("Test gateway: the router")
struct GatewayRouterTests {
    static let routingQuirks: [GatewayQuirks] = [
        [], .noCommandsList, .noSessionsChanged, .noArtifacts, .noQuestions, .noSessionApprovals,
        [.noCommandsList, .noSessionsChanged, .noArtifacts, .noQuestions, .noSessionApprovals],
    ]

    @Test(arguments: [false, true], routingQuirks)
    func everyAdvertisedMethodIsRouted(v4: Bool, quirks: GatewayQuirks) {
        let router = GatewayRouter(v4: v4, quirks: quirks)
        let unrouted = GatewayCatalog.methods(v4: v4, quirks: quirks).filter { router.feature(for: $0) == nil }
        #expect(unrouted.isEmpty)
    }

    /// On v4 the router serves the advertised methods and, beyond them, only the two admin session
    /// methods `hello-ok` has never listed (v3 also answers a few summer-2026 methods it does not
    /// list); the router changed neither.
    @Test(arguments: routingQuirks)
    func v4ServesOnlyWhatItAdvertisesAndTheAdminSessionMethods(quirks: GatewayQuirks) {
        let router = GatewayRouter(v4: true, quirks: quirks)
        let served = Set(TypedMethodNamesTests.typed.filter { router.feature(for: $0) != nil })
        let unlisted = served.subtracting(GatewayCatalog.methods(v4: true, quirks: quirks))
        #expect(unlisted == [GatewayMethodName.sessionsPatch, GatewayMethodName.sessionsReset])
    }

    @Test func quirksTakeTheirMethodsAway() {
        let plain = GatewayRouter(v4: true, quirks: [])
        let cases: [(GatewayQuirks, String, GatewayRouter.Feature)] = [
            (.noCommandsList, GatewayMethodName.commandsList, .catalog),
            (.noSessionsChanged, GatewayMethodName.sessionsSubscribe, .sessions),
            (.noArtifacts, GatewayMethodName.artifactsDownload, .chat),
            (.noQuestions, QuestionNames.resolveMethod, .approvals),
            (.noSessionApprovals, SessionApprovalNames.subscribeMethod, .approvals),
        ]
        for (quirk, method, feature) in cases {
            #expect(plain.feature(for: method) == feature, "\(method)")
            #expect(GatewayRouter(v4: true, quirks: quirk).feature(for: method) == nil, "\(method)")
        }
        #expect(GatewayRouter(v4: false, quirks: []).feature(for: ApprovalNames.historyMethod) == nil)
        #expect(plain.feature(for: GatewayMethodName.nodeInvokeProgress) == .nodeRelay)
        #expect(plain.feature(for: GatewayMethodName.devicePairApprove) == .pairing)
        #expect(plain.feature(for: "no.such.method") == nil)
    }
}
