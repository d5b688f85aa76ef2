import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The test gateway dispatches on the same typed method names the clients send.
@Suite("Test gateway method names")
struct TypedMethodNamesTests {
    static let typed: Set<String> = [
        GatewayMethodName.health, GatewayMethodName.chatHistory, GatewayMethodName.chatSend,
        GatewayMethodName.chatAbort, GatewayMethodName.sessionsList, GatewayMethodName.modelsList,
        GatewayMethodName.sessionsPatch, GatewayMethodName.sessionsReset, GatewayMethodName.agentIdentity,
        GatewayMethodName.devicePairList, GatewayMethodName.devicePairApprove, GatewayMethodName.nodeList,
        GatewayMethodName.nodeDescribe, GatewayMethodName.nodeInvoke, GatewayMethodName.nodeInvokeResult,
        GatewayMethodName.nodeEvent, ExecApprovalNames.resolveMethod, ExecApprovalNames.listMethod,
        ExecApprovalNames.getMethod, GatewayMethodName.commandsList, GatewayMethodName.sessionsSubscribe,
        GatewayMethodName.chatMessageGet, ApprovalNames.resolveMethod, GatewayMethodName.nodeInvokeProgress,
        GatewayMethodName.artifactsDownload, ApprovalNames.getMethod, ApprovalNames.historyMethod,
        QuestionNames.listMethod, QuestionNames.getMethod, QuestionNames.resolveMethod,
        SessionApprovalNames.subscribeMethod, SessionApprovalNames.unsubscribeMethod,
    ]

    @Test func everyAdvertisedMethodHasATypedNameAndIsServed() async throws {
        try await withTestGateway { gateway in
            var helper = HandshakeHelper()
            helper.scopes = [OperatorScope.admin]
            let (client, hello) = try await helper.open(gateway.url)
            let advertised = Set(hello["features"]?["methods"]?.stringArrayValue ?? [])
            #expect(!advertised.isEmpty)
            #expect(advertised.subtracting(Self.typed).isEmpty, "untyped: \(advertised.subtracting(Self.typed))")
            for method in advertised.sorted() {
                let response = try await client.request(method, params: [:])
                let message = response["error"]?["message"]?.stringValue ?? ""
                #expect(!message.hasPrefix("unknown method"), "\(method): \(message)")
            }
            await client.close()
        }
    }
}
