import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A method called by its type: the answer comes back typed, and an answer of the wrong shape is an
/// invalid response naming the method, never a value made up from it.
@Suite("Typed gateway calls")
struct TypedCallTests {
    /// `health`, read as if it had to carry a field the gateway never sends.
    private struct HealthWithUptime: GatewayMethod {
        static let method = GatewayMethodName.health
        static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
        var json: JSONValue { .object([:]) }
        func response(from payload: JSONValue?) -> Int? { payload?["uptimeFortnights"]?.intValue }
    }

    @Test func anAnswerComesBackTypedAndAWrongShapeIsAnInvalidResponse() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            let health = try await connection.call(HealthParams())
            #expect(health["ok"]?.boolValue == true)
            await #expect {
                _ = try await connection.call(HealthWithUptime())
            } throws: { error in
                guard case .invalidResponse(let method, _)? = error as? GatewayError else { return false }
                return method == "health"
            }
            await connection.disconnect()
        }
    }

    @Test func theApprovalListIsReadAsUpstreamAndOtherGatewaysSendIt() {
        let item: JSONValue = ["id": "a1"]
        #expect(ExecApprovalListParams().response(from: [item]) == [item])
        #expect(ExecApprovalListParams().response(from: ["approvals": [item]]) == [item])
        #expect(ExecApprovalListParams().response(from: ["items": [item]]) == [item])
        #expect(ExecApprovalListParams().response(from: nil) == [])
        #expect(ApprovalGetParams(id: "a1").response(from: ["nothing": true]) == nil)
        #expect(QuestionListParams().response(from: ["questions": []]) == [])
        #expect(QuestionListParams().response(from: [:]) == nil)
        // A gateway that does not echo the session key answered for the one asked about.
        let page = ChatHistoryParams(sessionKey: "agent:main:work", limit: 1).response(from: ["messages": []])
        #expect(page?.sessionKey == "agent:main:work")
    }

    @Test func eachTypedMethodSaysWhoMayCallIt() {
        #expect(ExecApprovalListParams.access == .operatorScope(OperatorScope.approvals))
        #expect(QuestionGetParams.access == .operatorScope(OperatorScope.questions))
        #expect(ChatHistoryParams.access == .operatorScope(OperatorScope.read))
        #expect(HealthParams.method == "health")
    }
}
