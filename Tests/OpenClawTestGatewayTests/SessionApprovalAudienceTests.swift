import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `sessions.messages.subscribe` as upstream checks it: closed params, `includeApprovals` only `true`,
/// and the approval opt-in only for `operator.admin` or `operator.approvals` on a paired device.
@Suite("Test gateway: the session approval audience")
struct SessionApprovalAudienceTests {
    @Test func theOptInIsCheckedAsUpstreamChecksIt() async throws {
        try await withTestGateway { gateway in
            let (reader, _) = try await HandshakeHelper().open(gateway.url)
            let plain = try await reader.request(SessionApprovalNames.subscribeMethod, params: ["key": "main"])
            #expect(plain["ok"] == true && plain["payload"]?["approvalReplay"] == nil, "\(plain)")
            let refused = try await reader.request(
                SessionApprovalNames.subscribeMethod, params: ["key": "main", "includeApprovals": true])
            #expect(refused["ok"] == false, "a reader without operator.approvals: \(refused)")
            let notTrue = try await reader.request(
                SessionApprovalNames.subscribeMethod, params: ["key": "main", "includeApprovals": false])
            #expect(notTrue["error"]?["code"] == "INVALID_REQUEST", "\(notTrue)")
            let unknown = try await reader.request(
                SessionApprovalNames.subscribeMethod, params: ["key": "main", "since": 3])
            #expect(unknown["error"]?["code"] == "INVALID_REQUEST", "\(unknown)")
            await reader.close()

            var approver = HandshakeHelper()
            approver.scopes = [OperatorScope.read, OperatorScope.approvals]
            let (client, _) = try await approver.open(gateway.url)
            let answer = try await client.request(
                SessionApprovalNames.subscribeMethod, params: ["key": "main", "includeApprovals": true])
            let replay = try #require(answer["payload"]?["approvalReplay"])
            #expect(replay["sessionKey"] == "agent:main:main" && replay["truncated"] == false, "\(answer)")
            #expect(replay["approvals"]?.arrayValue?.isEmpty == true)
            await client.close()

            // Without a device identity the gateway grants no scope at all, so the opt-in is refused too.
            var unpaired = HandshakeHelper()
            unpaired.identity = nil
            unpaired.scopes = [OperatorScope.read, OperatorScope.approvals]
            let (anonymous, hello) = try await unpaired.open(gateway.url)
            let denied = try await anonymous.request(
                SessionApprovalNames.subscribeMethod, params: ["key": "main", "includeApprovals": true])
            #expect(denied["ok"] == false, "no paired device: \(denied)\n\(hello)")
            await anonymous.close()
        }
    }
}
